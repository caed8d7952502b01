/*
 * `xrlm trace`'s GPU pass: each side's timestamps on its GPU track, and
 * the target's GPU slice per frame from pre's timestamp to post's (post's
 * spooled, then paired while pre's stream), with the merged file's
 * target_gpu_us and target_gpu_raw_us of the frame. See cmd_trace.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "quote.h"
#include "trace_job.h"

static void gpu_instant(struct trace_job *j, int pid, const struct trace_gpu *g)
{
	char args[96];
	int side = pid == TRACE_PID_POST;

	j->gpu_valid[side] += g->valid;
	j->gpu_placed[side] += g->valid && g->placed;
	if (!g->placed)
		return;
	snprintf(args, sizeof(args), "\"display_time\":%" PRId64 ",\"gpu_ticks\":%" PRIu64,
	         g->display_time, g->ticks);
	trace_out_instant(&j->out, pid, TRACE_TID_GPU, "GPU timestamp", g->t_ns, args);
}

static int post_gpu(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	struct trace_spool_rec r = {{g->display_time, (int64_t)g->ticks, g->t_ns,
	                             (g->valid ? TRACE_GPU_VALID : 0) |
	                                     (g->placed ? TRACE_GPU_PLACED : 0) |
	                                     (int64_t)g->valid_bits << TRACE_GPU_BITS_SHIFT}};
	(void)msg;
	(void)msg_size;

	memcpy(&r.v[4], &g->period_ns, sizeof(r.v[4])); /* the period, for the pair's */

	gpu_instant(j, TRACE_PID_POST, g);
	trace_spool_add(&j->spool, &r);
	return 0;
}

static int pre_gpu(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	struct trace_gpu_pair p;
	char args[160];
	(void)msg;
	(void)msg_size;

	gpu_instant(j, TRACE_PID_PRE, g);
	if (!trace_target_gpu(&j->spool, &j->gpu_next, &j->gpu_has_next, g, &p) || !p.placed)
		return 0;
	/* The merged file's figures; a pair it leaves blank (backwards) has none. */
	if (isnan(p.raw_us))
		snprintf(args, sizeof(args), "\"display_time\":%" PRId64, p.display_time);
	else
		snprintf(args, sizeof(args), "\"target_gpu_us\":%.3f,\"target_gpu_raw_us\":%.3f,"
		         "\"display_time\":%" PRId64, p.gpu_us, p.raw_us, p.display_time);
	trace_out_slice(&j->out, TRACE_PID_TARGET, TRACE_TID_GPU, "target GPU", p.pre_ns,
	                p.post_ns > p.pre_ns ? p.post_ns - p.pre_ns : 0, args);
	if (!isnan(p.gpu_us))
		trace_out_counter(&j->out, TRACE_PID_TARGET, "target_gpu_us", p.pre_ns, p.gpu_us);
	return 0;
}

/* Streams the GPU file of side @p side (0 pre, 1 post) into @p fn. */
static int read_side(struct trace_job *j, int side, trace_gpu_fn fn)
{
	struct csvr_diag d = {0};
	struct side_meta meta;
	char q[QUOTE_PATH_MAX];

	int rc = trace_read_gpu(j->gpu[side], side ? U_NAMES_POST : U_NAMES_PRE, &meta, &d, fn, j);
	rc = trace_read_done(j, rc, &d, j->gpu[side], &meta);
	/*
	 * Timestamps with no clock correlation cannot be placed: not silently
	 * (a Vulkan session without VK_EXT_calibrated_timestamps, as an
	 * XR_KHR_vulkan_enable one on a 1.0 instance such as hello_xr -g
	 * Vulkan's, writes no "# calibration").
	 */
	if (rc == 0 && j->gpu_valid[side] && !j->gpu_placed[side])
		fprintf(stderr, "xrlm: %s: warning: no \"# calibration\" line before its %" PRIu64
		        " GPU timestamps (the device had no clock correlation: "
		        "no VK_EXT_calibrated_timestamps, which pre can add only where the "
		        "runtime creates the device: XR_KHR_vulkan_enable2); "
		        "its GPU track and the target GPU slices left out (the merged CSV's GPU "
		        "columns do not need it)\n", quote_path(q, j->gpu[side]), j->gpu_valid[side]);
	return rc;
}

int trace_gpu_run(struct trace_job *j)
{
	int rc = 0;

	if (!j->gpu[0][0] && !j->gpu[1][0])
		return 0;
	if (trace_spool_create(&j->spool) != 0) {
		fprintf(stderr, "xrlm: cannot create a temporary file: %s\n", strerror(errno));
		return -1;
	}
	if (j->gpu[1][0]) {
		if (read_side(j, 1, post_gpu) != 0 || trace_spool_rewind(&j->spool) != 0) {
			trace_spool_destroy(&j->spool);
			return -1;
		}
		j->gpu_has_next = trace_spool_next(&j->spool, &j->gpu_next);
	}
	if (j->gpu[0][0])
		rc = read_side(j, 0, pre_gpu);
	trace_spool_destroy(&j->spool);
	return rc;
}
