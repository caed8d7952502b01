/*
 * The synthetic target's GPU work: closed-loop vkCmdFillBuffer work
 * (tests/common/gw_work.h) on the session's queue, every frame, with the
 * per-frame self-measurement kept for the summary and the CSV log.
 */
#ifndef TT_GPU_H
#define TT_GPU_H

#include "gw_work.h"
#include "tt_samples.h"
#include "tt_vk.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the application's session lives on the GPU (from its graphics binding). */
struct tt_gpu_binding {
	VkInstance instance;
	VkPhysicalDevice physical_device;
	VkDevice device;
	uint32_t queue_family;
	uint32_t queue_index;
};

struct tt_gpu {
	struct tt_vk vk;
	struct gw_work *work;
	struct tt_samples samples;
	uint64_t gpu_us;
	const char *log_path; /* XRTEST_TARGET_GPU_LOG, NULL if unset */
};

/*
 * Creates the GPU work for a session, calibrated as a start for @p gpu_us
 * microseconds per frame; @p log_path (may be NULL) gets the per-frame CSV
 * at destruction. Logs and returns false on failure (nothing is left
 * allocated then).
 */
bool tt_gpu_create(const struct tt_gpu_binding *binding, uint64_t gpu_us, const char *log_path,
                   struct tt_gpu **out);

/* Waits for pending work, logs the summary, writes the CSV, destroys everything. */
void tt_gpu_destroy(struct tt_gpu **gpu);

/*
 * Submits one frame's work without blocking, tagged with the frame's
 * @p display_time (reads back finished frames first). False on a Vulkan
 * error (logged).
 */
bool tt_gpu_submit(struct tt_gpu *gpu, int64_t display_time);

/* Blocks until the latest submission has finished. False on error (logged). */
bool tt_gpu_wait(struct tt_gpu *gpu);

#endif /* TT_GPU_H */
