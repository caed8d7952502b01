/*
 * Running-median controller of the GPU work's size (see gw_ctrl.h).
 */
#include "gw_ctrl.h"

#include "stats.h"

/* Calibration can be far off (lavapipe idle vs. back-to-back), but not more. */
#define GW_CTRL_MAX_FACTOR 64.0
/* Per update: a burst of odd samples moves the size at most this factor. */
#define GW_CTRL_MAX_STEP 2.0

uint64_t gw_ctrl_align(double bytes)
{
	return bytes < 4.0 ? 4 : (uint64_t)bytes & ~(uint64_t)3;
}

void gw_ctrl_init(struct gw_ctrl *c, double target_ns, uint64_t start_bytes)
{
	*c = (struct gw_ctrl){
		.target_ns = target_ns,
		.bytes = gw_ctrl_align((double)start_bytes),
	};
	c->max_bytes = gw_ctrl_align((double)c->bytes * GW_CTRL_MAX_FACTOR);
}

static double window_median(const struct gw_ctrl *c)
{
	/* A copy: the percentile reorders, the window keeps its order. Even
	 * counts (only while filling up) take the mean of the middle two. */
	double copy[GW_CTRL_WINDOW];
	for (uint32_t i = 0; i < c->count; i++)
		copy[i] = c->implied[i];
	return stats_percentile(copy, c->count, 0.5);
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t gw_ctrl_update(struct gw_ctrl *c, uint64_t bytes, double ns)
{
	if (ns <= 0.0 || bytes == 0)
		return c->bytes;
	c->implied[c->head] = (double)bytes * c->target_ns / ns;
	c->head = (c->head + 1) % GW_CTRL_WINDOW;
	if (c->count < GW_CTRL_WINDOW)
		c->count++;
	double cur = (double)c->bytes;
	double want = clamp(window_median(c), cur / GW_CTRL_MAX_STEP, cur * GW_CTRL_MAX_STEP);
	c->bytes = gw_ctrl_align(clamp(want, 4.0, (double)c->max_bytes));
	return c->bytes;
}
