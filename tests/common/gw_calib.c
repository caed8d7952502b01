/*
 * Calibration of the GPU work: how many bytes of vkCmdFillBuffer take the
 * requested time on this GPU. Runs once at creation, on the work's queue,
 * measured with its own timestamps, copied at once (not by the next
 * submission as in frames: calibration waits for each run anyway). It is only the controller's starting
 * point: lavapipe's fill rate back-to-back differs from its rate between
 * paced frames, and the controller corrects that at run time.
 */
#include "gw_work.h"

#include "stats.h"

#include <math.h>

/* Without timestamps we can only guess: about lavapipe's fill rate. */
#define GW_CALIB_GUESS_BYTES_PER_NS 30.0
#define GW_CALIB_RUNS 7
#define GW_CALIB_ROUNDS 4
#define GW_CALIB_TOLERANCE 0.03
#define GW_CALIB_TIMEOUT_NS 10000000000ull

/*
 * Slot 0's command buffer for one timed run: unlike a frame's, it resets its
 * own queries and copies its own timestamps after the end one, so that the
 * result is there as soon as its fence has signalled.
 */
static bool record_once(struct gw_work *w, uint64_t bytes)
{
	const struct gw_vk *vk = &w->vk;
	struct gw_slot *s = &w->slot[0];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	s->bytes = 0; /* not a ring recording */
	if (!gw_vk_ok(vk, vk->vkBeginCommandBuffer(s->cmd, &bi), "vkBeginCommandBuffer"))
		return false;
	vk->vkCmdResetQueryPool(s->cmd, w->queries, 0, 2);
	vk->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w->queries, 0);
	gw_work_cmd_fills(w, s->cmd, bytes);
	vk->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w->queries, 1);
	gw_work_cmd_copy(w, s->cmd, 0);
	return gw_vk_ok(vk, vk->vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
}

/* One timed run of @p bytes of fills, using ring slot 0 (idle at this point). */
static bool measure_once(struct gw_work *w, uint64_t bytes, double *ns)
{
	if (!record_once(w, bytes) || !gw_work_run_now(w, 0, GW_CALIB_TIMEOUT_NS))
		return false;
	/* The fence covers the copy of the timestamps into mapped memory. */
	if (!gw_work_read_ts(w, 0, ns)) {
		w->log("calibration: timestamps unavailable after their fence signalled");
		return false;
	}
	return true;
}

/* Median of a few runs: one preempted run must not skew the calibration. */
static bool measure(struct gw_work *w, uint64_t bytes, double *ns)
{
	double runs[GW_CALIB_RUNS];
	for (int i = 0; i < GW_CALIB_RUNS; i++)
		if (!measure_once(w, bytes, &runs[i]))
			return false;
	*ns = stats_percentile(runs, GW_CALIB_RUNS, 0.5);
	return true;
}

bool gw_work_calibrate(struct gw_work *w, uint64_t target_us, uint64_t *out)
{
	double target_ns = (double)target_us * 1000.0;
	if (!w->queries) {
		*out = gw_ctrl_align(target_ns * GW_CALIB_GUESS_BYTES_PER_NS);
		w->log("calibration: queue has no timestamps; guessing %llu bytes for %llu us "
		       "(no closed loop)",
		       (unsigned long long)*out, (unsigned long long)target_us);
		return true;
	}
	double ns;
	/* First a whole-buffer fill for the rate, then refine on the real size:
	 * small fills are dominated by fixed per-command overhead. */
	if (!measure(w, w->buffer_size, &ns))
		return false;
	uint64_t bytes = gw_ctrl_align(target_ns * (double)w->buffer_size / fmax(ns, 1.0));
	for (int round = 0; round < GW_CALIB_ROUNDS; round++) {
		if (!measure(w, bytes, &ns))
			return false;
		w->log("calibration round %d: %llu bytes -> %.1f us (want %llu us)", round,
		       (unsigned long long)bytes, ns / 1000.0, (unsigned long long)target_us);
		if (fabs(ns - target_ns) <= GW_CALIB_TOLERANCE * target_ns ||
		    round == GW_CALIB_ROUNDS - 1)
			break;
		bytes = gw_ctrl_align(target_ns * (double)bytes / fmax(ns, 1.0));
	}
	*out = bytes;
	w->log("calibrated: %llu bytes of vkCmdFillBuffer per frame = %.1f us of GPU time "
	       "(requested %llu us, timestampPeriod %.3f ns); closed loop from here",
	       (unsigned long long)bytes, ns / 1000.0, (unsigned long long)target_us,
	       w->ts_period_ns);
	return true;
}
