/*
 * The synthetic target's GPU work: a calibrated amount of vkCmdFillBuffer
 * into a private buffer, submitted on the session's queue every frame.
 */
#ifndef TT_GPU_H
#define TT_GPU_H

#include "tt_vk.h"

#include <stdbool.h>
#include <stdint.h>

/* Submissions that may be in flight at once; more are skipped, not waited for. */
#define TT_GPU_RING 8

/* Where the application's session lives on the GPU (from its graphics binding). */
struct tt_gpu_binding {
	VkInstance instance;
	VkPhysicalDevice physical_device;
	VkDevice device;
	uint32_t queue_family;
	uint32_t queue_index;
};

/* Vulkan objects of one session; everything here is the target's own. */
struct tt_gpu {
	struct tt_vk vk;
	VkDevice device;
	VkQueue queue;

	VkBuffer buffer;
	VkDeviceMemory memory;
	VkDeviceSize buffer_size;
	VkCommandPool pool;

	/* Two timestamps, for calibration only; VK_NULL_HANDLE when the queue
	 * family has no timestamps. */
	VkQueryPool queries;
	double ts_period_ns;
	uint64_t ts_mask;

	/* Pre-recorded identical command buffers: a frame only submits one. */
	VkCommandBuffer cmd[TT_GPU_RING];
	VkFence fence[TT_GPU_RING];
	bool pending[TT_GPU_RING];
	uint32_t next;
	int32_t last; /* slot of the latest submission, -1 before the first */

	uint64_t fill_bytes; /* per frame, set by tt_gpu_calibrate() */
	uint64_t submitted;
	uint64_t skipped;
};

/*
 * Creates the GPU state for a session and calibrates it so that one frame's
 * work takes @p gpu_us microseconds on the GPU. Logs and returns false on
 * failure (nothing is left allocated then).
 */
bool tt_gpu_create(const struct tt_gpu_binding *binding, uint64_t gpu_us, struct tt_gpu **out);

/* Waits for the target's own pending work, then destroys every object. */
void tt_gpu_destroy(struct tt_gpu **gpu);

/*
 * Submits one frame's work without blocking: if the ring slot is still in
 * flight the work is skipped and counted. False on a Vulkan error (logged).
 */
bool tt_gpu_submit(struct tt_gpu *gpu);

/* Blocks until the latest submission has finished. False on error (logged). */
bool tt_gpu_wait(struct tt_gpu *gpu);

/* Records @p bytes of fills into @p cmd, between two timestamps if asked. */
bool tt_gpu_record(struct tt_gpu *gpu, VkCommandBuffer cmd, uint64_t bytes, bool timestamps);

/* Finds fill_bytes for @p gpu_us (tt_calib.c); logs what it measured. */
bool tt_gpu_calibrate(struct tt_gpu *gpu, uint64_t gpu_us);

#endif /* TT_GPU_H */
