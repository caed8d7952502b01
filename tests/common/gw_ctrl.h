/*
 * The closed-loop size controller of the GPU work.
 *
 * Every finished frame gives one sample: b bytes of fills took t ns (the
 * frame's own timestamps, around the fills only). Assuming time
 * proportional to bytes, that sample says "b * T / t bytes would have taken
 * the requested T" - its implied byte count. The next frames use the
 * median of the last GW_CTRL_WINDOW implied counts, limited to a factor 2
 * per update and to [4, max_bytes].
 *
 * Why this converges: an implied count estimates T times the current fill
 * rate whatever b was, so there is no integrator to wind up and the
 * readback delay (a few frames) cannot make it oscillate. At the fixed
 * point the median of b * T / t equals b, i.e. the median measured time is
 * T. A fixed per-frame overhead c (timestamps, command starts) makes the
 * update b' = b * T / (c + b / rate), whose slope at the fixed point is
 * c / T < 1: a geometric approach that is fast for any T well above c. The
 * median rejects single preempted frames on a loaded machine and lets the
 * size follow slow drifts (clock, cache, load) within ~W/2 frames.
 */
#ifndef GW_CTRL_H
#define GW_CTRL_H

#include <stdint.h>

/* Samples in the running median: ~0.17 s at 90 Hz, odd for a true median. */
#define GW_CTRL_WINDOW 15

struct gw_ctrl {
	double target_ns;
	uint64_t bytes;     /* what the next frames record */
	uint64_t max_bytes; /* clamp: a runaway sample cannot ask for more */
	double implied[GW_CTRL_WINDOW];
	uint32_t count; /* valid entries in implied[] */
	uint32_t head;  /* where the next sample goes */
};

/* Starts at @p start_bytes (the calibration) for @p target_ns per frame. */
void gw_ctrl_init(struct gw_ctrl *c, double target_ns, uint64_t start_bytes);

/*
 * Feeds one sample (@p bytes took @p ns) and returns the byte count for the
 * next frames (also in c->bytes). Samples of 0 ns are ignored.
 */
uint64_t gw_ctrl_update(struct gw_ctrl *c, uint64_t bytes, double ns);

/* @p bytes rounded down to a fill size (a multiple of 4, at least 4). */
uint64_t gw_ctrl_align(double bytes);

#endif /* GW_CTRL_H */
