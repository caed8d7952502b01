/*
 * Calibration of the target's GPU work: how many bytes of vkCmdFillBuffer
 * take the requested time on this GPU. Runs once at session creation, on
 * the session's queue, measured with the target's own timestamps.
 */
#include "tt_gpu.h"

#include "tt_log.h"

#include <math.h>
#include <stdlib.h>

/* Without timestamps we can only guess: about lavapipe's fill rate. */
#define TT_CALIB_GUESS_BYTES_PER_NS 30.0
#define TT_CALIB_RUNS 7
#define TT_CALIB_ROUNDS 4
#define TT_CALIB_TOLERANCE 0.03
#define TT_CALIB_TIMEOUT_NS 10000000000ull

/* One timed run of @p bytes of fills, using ring slot 0 (idle at this point). */
static bool measure_once(struct tt_gpu *gpu, uint64_t bytes, double *ns)
{
	VkCommandBuffer cmd = gpu->cmd[0];
	VkFence fence = gpu->fence[0];
	if (!tt_gpu_record(gpu, cmd, bytes, true))
		return false;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	if (!tt_vk_ok(gpu->vk.vkQueueSubmit(gpu->queue, 1, &si, fence), "calibration: vkQueueSubmit") ||
	    !tt_vk_ok(gpu->vk.vkWaitForFences(gpu->device, 1, &fence, VK_TRUE, TT_CALIB_TIMEOUT_NS),
	           "vkWaitForFences") ||
	    !tt_vk_ok(gpu->vk.vkResetFences(gpu->device, 1, &fence), "vkResetFences"))
		return false;
	uint64_t ts[2];
	if (!tt_vk_ok(gpu->vk.vkGetQueryPoolResults(gpu->device, gpu->queries, 0, 2, sizeof(ts), ts,
	                                         sizeof(ts[0]),
	                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
	           "vkGetQueryPoolResults"))
		return false;
	*ns = (double)((ts[1] - ts[0]) & gpu->ts_mask) * gpu->ts_period_ns;
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of a few runs: one preempted run must not skew the calibration. */
static bool measure(struct tt_gpu *gpu, uint64_t bytes, double *ns)
{
	double runs[TT_CALIB_RUNS];
	for (int i = 0; i < TT_CALIB_RUNS; i++)
		if (!measure_once(gpu, bytes, &runs[i]))
			return false;
	qsort(runs, TT_CALIB_RUNS, sizeof(runs[0]), cmp_double);
	*ns = runs[TT_CALIB_RUNS / 2];
	return true;
}

static uint64_t bytes_for(double target_ns, double bytes_per_ns)
{
	double bytes = target_ns * bytes_per_ns;
	return bytes < 4.0 ? 4 : (uint64_t)bytes & ~(uint64_t)3;
}

bool tt_gpu_calibrate(struct tt_gpu *gpu, uint64_t gpu_us)
{
	double target_ns = (double)gpu_us * 1000.0;
	if (!gpu->queries) {
		gpu->fill_bytes = bytes_for(target_ns, TT_CALIB_GUESS_BYTES_PER_NS);
		tt_log("calibration: queue has no timestamps; guessing %llu bytes for %llu us",
		       (unsigned long long)gpu->fill_bytes, (unsigned long long)gpu_us);
		return true;
	}
	double ns;
	/* First a whole-buffer fill for the rate, then refine on the real size:
	 * small fills are dominated by fixed per-command overhead. */
	if (!measure(gpu, gpu->buffer_size, &ns))
		return false;
	double rate = (double)gpu->buffer_size / (ns > 1.0 ? ns : 1.0);
	uint64_t bytes = bytes_for(target_ns, rate);
	for (int round = 0; round < TT_CALIB_ROUNDS; round++) {
		if (!measure(gpu, bytes, &ns))
			return false;
		tt_log("calibration round %d: %llu bytes -> %.1f us (want %llu us)", round,
		       (unsigned long long)bytes, ns / 1000.0, (unsigned long long)gpu_us);
		if (fabs(ns - target_ns) <= TT_CALIB_TOLERANCE * target_ns ||
		    round == TT_CALIB_ROUNDS - 1)
			break;
		bytes = bytes_for(target_ns, (double)bytes / (ns > 1.0 ? ns : 1.0));
	}
	gpu->fill_bytes = bytes;
	tt_log("calibrated: %llu bytes of vkCmdFillBuffer per frame = %.1f us of GPU time "
	       "(requested %llu us, timestampPeriod %.3f ns)",
	       (unsigned long long)bytes, ns / 1000.0, (unsigned long long)gpu_us,
	       gpu->ts_period_ns);
	return true;
}
