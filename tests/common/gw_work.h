/*
 * Closed-loop GPU work for the test bed: every frame submits one command
 * buffer of its own on a given queue, and everything in it lies between its
 * two timestamps, so that the work measures all the GPU time it costs:
 *
 *   timestamp begin;
 *   copy the PREVIOUS submission's two timestamps into mapped host memory,
 *   barrier to the host, reset those two queries;
 *   vkCmdFillBuffer into a private buffer;
 *   timestamp end.
 *
 * A frame's duration is thus readable once the NEXT submission's fence has
 * signalled; the very last one is copied by a small extra command buffer at
 * destruction. Finished frames are read back without blocking (fence
 * status, then the copied values and availability words; never
 * vkGetQueryPoolResults, which blocks until the queue drains on lavapipe)
 * and feed a controller (gw_ctrl.h) that sizes the next frames so that the
 * median of the measured durations converges to the request. The initial
 * size comes from a calibration at creation (gw_calib.c), which copies its
 * own timestamps at once.
 *
 * Not thread-safe: one caller at a time (the frame functions are externally
 * synchronised in OpenXR, so the frame thread is that caller).
 */
#ifndef GW_WORK_H
#define GW_WORK_H

#include "gw_ctrl.h"
#include "gw_vk.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * Slots of the ring. A slot is reused once its results have been read,
 * i.e. once its successor has finished: GW_RING - 1 submissions may be in
 * flight at once; more are skipped, not waited for.
 */
#define GW_RING 8

/* One finished frame: the caller's @p tag and the measured duration. */
typedef void (*gw_sample_fn)(void *ctx, uint64_t tag, uint64_t ns);

/* Where the work runs and what it reports to. */
struct gw_work_info {
	PFN_vkGetInstanceProcAddr gipa;
	VkInstance instance;
	VkPhysicalDevice physical_device;
	VkDevice device;
	uint32_t queue_family;
	uint32_t queue_index;
	uint64_t target_us; /* requested GPU time per frame */
	gw_log_fn log;
	gw_sample_fn on_sample; /* may be NULL; called from submit/destroy */
	void *sample_ctx;
};

/*
 * One slot's timestamps as vkCmdCopyQueryPoolResults writes them with
 * VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT: each
 * value followed by its availability word.
 */
struct gw_ts {
	uint64_t begin, begin_avail;
	uint64_t end, end_avail;
};

/* Where a slot is in its cycle. */
enum gw_slot_state {
	GW_SLOT_FREE,    /* may be recorded and submitted */
	GW_SLOT_PENDING, /* submitted; its fence not seen signalled yet */
	GW_SLOT_DONE,    /* finished; its timestamps wait for the next copy */
};

struct gw_slot {
	VkCommandBuffer cmd;
	VkFence fence;
	uint64_t bytes; /* recorded fill size; 0: not a ring recording */
	int32_t copies; /* slot whose timestamps the recording copies; -1: none */
	uint64_t tag;
	enum gw_slot_state state;
};

/* Vulkan objects of one instance of the work; all its own. */
struct gw_work {
	struct gw_vk vk;
	VkDevice device;
	VkQueue queue;

	VkBuffer buffer;
	VkDeviceMemory memory;
	VkDeviceSize buffer_size;
	VkCommandPool pool;

	/* Two timestamps per slot; VK_NULL_HANDLE when the queue has none
	 * (then the size stays at a guess and no samples are reported). */
	VkQueryPool queries;
	double ts_period_ns;
	uint64_t ts_mask;
	/* Where each slot's two timestamps are copied (by the next
	 * submission): a HOST_VISIBLE|HOST_COHERENT buffer, mapped for the
	 * work's lifetime. */
	VkBuffer ts_buffer;
	VkDeviceMemory ts_memory;
	struct gw_ts *ts; /* ts[GW_RING], mapped; NULL without queries */

	struct gw_slot slot[GW_RING];
	uint32_t next;
	/* Slot of the latest submission, whose timestamps the next one copies;
	 * -1 before the first and after the final copy. */
	int32_t last;

	struct gw_ctrl ctrl;
	gw_log_fn log;
	gw_sample_fn on_sample;
	void *sample_ctx;

	uint64_t submitted;
	uint64_t skipped;     /* ring full: frame had no work */
	uint64_t unavailable; /* timestamps missing after the fence: no sample */
};

/*
 * Creates the work on @p info's queue and calibrates it to info->target_us.
 * Logs and returns false on failure (nothing is left allocated then).
 */
bool gw_work_create(const struct gw_work_info *info, struct gw_work **out);

/*
 * Waits for pending frames, copies the last one's timestamps (one more small
 * submission on the queue), reports their samples, destroys every object.
 */
void gw_work_destroy(struct gw_work **work);

/*
 * Reads back every finished frame (feeding the controller and on_sample),
 * then submits this frame's work, tagged @p tag, without blocking: if the
 * ring is full the frame's work is skipped and counted. False on a Vulkan
 * error (logged).
 */
bool gw_work_submit(struct gw_work *work, uint64_t tag);

/* Blocks until the latest submission has finished. False on error (logged). */
bool gw_work_wait(struct gw_work *work);

/*
 * Records slot @p i's frame: its begin timestamp, the copy and reset of slot
 * @p prev's timestamps (none if @p prev is -1), @p bytes of fills, its end
 * timestamp. Slot @p i's queries must have been reset before it runs.
 */
bool gw_work_record(struct gw_work *work, uint32_t i, uint64_t bytes, int32_t prev);

/* Records @p bytes of fills (serialised) into @p cmd. */
void gw_work_cmd_fills(struct gw_work *work, VkCommandBuffer cmd, uint64_t bytes);

/*
 * Records into @p cmd the copy of slot @p i's two timestamps into its mapped
 * gw_ts and the barrier that makes it visible to the host (and orders it
 * before later transfers, such as a reset of the queries).
 */
void gw_work_cmd_copy(struct gw_work *work, VkCommandBuffer cmd, uint32_t i);

/*
 * Submits slot @p i's recorded command buffer alone, waits for its fence
 * (at most @p timeout_ns) and resets it: the synchronous path of
 * calibration, query reset and the final copy. False on error (logged).
 */
bool gw_work_run_now(struct gw_work *work, uint32_t i, uint64_t timeout_ns);

/*
 * Reads slot @p i's copied timestamps, once the copy's fence has signalled, into
 * @p ns and clears them (so that a stale copy is never read twice). Never
 * blocks. False if they are not available.
 */
bool gw_work_read_ts(struct gw_work *work, uint32_t i, double *ns);

/* Finds the initial fill size for @p target_us (gw_calib.c); logs it. */
bool gw_work_calibrate(struct gw_work *work, uint64_t target_us, uint64_t *bytes);

#endif /* GW_WORK_H */
