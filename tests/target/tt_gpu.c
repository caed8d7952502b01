/*
 * The target's GPU work: the shared closed-loop work on the application's
 * libvulkan, plus the target's own bookkeeping of what it measured.
 */
#include "tt_gpu.h"

#include "tt_log.h"

#include <stdlib.h>

bool tt_gpu_create(const struct tt_gpu_binding *b, uint64_t gpu_us, const char *log_path,
                   struct tt_gpu **out)
{
	struct tt_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return false;
	gpu->gpu_us = gpu_us;
	gpu->log_path = log_path;
	if (!tt_vk_load(&gpu->vk)) {
		free(gpu);
		return false;
	}
	struct gw_work_info info = {
		.gipa = gpu->vk.vkGetInstanceProcAddr,
		.instance = b->instance,
		.physical_device = b->physical_device,
		.device = b->device,
		.queue_family = b->queue_family,
		.queue_index = b->queue_index,
		.target_us = gpu_us,
		.log = tt_log,
		.on_sample = tt_samples_add,
		.sample_ctx = &gpu->samples,
	};
	if (!gw_work_create(&info, &gpu->work)) {
		tt_gpu_destroy(&gpu);
		return false;
	}
	*out = gpu;
	return true;
}

void tt_gpu_destroy(struct tt_gpu **gpu_ptr)
{
	struct tt_gpu *gpu = *gpu_ptr;
	if (!gpu)
		return;
	*gpu_ptr = NULL;
	if (gpu->work) {
		uint64_t submitted = gpu->work->submitted, skipped = gpu->work->skipped;
		uint64_t bytes = gpu->work->ctrl.bytes;
		gw_work_destroy(&gpu->work); /* reports the last frames' samples */
		tt_log("session end: %llu GPU submissions, %llu skipped (ring full), "
		       "last size %llu bytes",
		       (unsigned long long)submitted, (unsigned long long)skipped,
		       (unsigned long long)bytes);
		tt_samples_log_summary(&gpu->samples, gpu->gpu_us);
		if (gpu->log_path)
			tt_samples_write_csv(&gpu->samples, gpu->log_path);
	}
	tt_samples_free(&gpu->samples);
	tt_vk_unload(&gpu->vk);
	free(gpu);
}

bool tt_gpu_submit(struct tt_gpu *gpu, int64_t display_time)
{
	return gw_work_submit(gpu->work, (uint64_t)display_time);
}

bool tt_gpu_wait(struct tt_gpu *gpu)
{
	return gw_work_wait(gpu->work);
}
