/*
 * The synthetic target layer's settings (environment variables).
 */
#ifndef TT_KNOBS_H
#define TT_KNOBS_H

#include "tt_calls.h"

#include <stdbool.h>
#include <stdint.h>

/* What the target does in every xrEndFrame, and on its own thread.
 * The per-function knobs are read by tt_fn.c. */
struct tt_knobs {
	uint64_t cpu_us; /* XRTEST_TARGET_CPU_US: busy CPU time */
	uint64_t gpu_us; /* XRTEST_TARGET_GPU_US: GPU work submitted on the session's queue */
	bool gpu_wait;   /* XRTEST_TARGET_GPU_WAIT: wait for that work before forwarding */
	uint64_t sleep_us; /* XRTEST_TARGET_SLEEP_US: sleep (a timer) before forwarding */
	const char *gpu_log; /* XRTEST_TARGET_GPU_LOG: per-frame CSV path; NULL if unset */
	uint64_t gl_draws; /* XRTEST_TARGET_GL_DRAWS: OpenGL sessions' draws (tt_gl.h) */
	uint64_t toggle_frame; /* XRTEST_TARGET_TOGGLE_FRAME: the stop inside it (tt_toggle.h); 0 off */
	struct tt_calls thread_calls; /* XRTEST_TARGET_THREAD_CALLS: calls per tick of its own thread */
	uint64_t thread_hz;           /* XRTEST_TARGET_THREAD_HZ: that thread's ticks per second */
};

/*
 * Returns the knobs, read from the environment once per process (bad values
 * are logged once and replaced by their default, 0).
 */
const struct tt_knobs *tt_knobs_get(void);

#endif /* TT_KNOBS_H */
