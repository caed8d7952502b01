/*
 * The synthetic target layer's settings (environment variables).
 */
#ifndef TT_KNOBS_H
#define TT_KNOBS_H

#include <stdbool.h>
#include <stdint.h>

/* What the target does in every xrEndFrame. */
struct tt_knobs {
	uint64_t cpu_us; /* XRTEST_TARGET_CPU_US: busy CPU time */
	uint64_t gpu_us; /* XRTEST_TARGET_GPU_US: GPU work submitted on the session's queue */
	bool gpu_wait;   /* XRTEST_TARGET_GPU_WAIT: wait for that work before forwarding */
	const char *gpu_log; /* XRTEST_TARGET_GPU_LOG: per-frame CSV path; NULL if unset */
	uint64_t gl_draws; /* XRTEST_TARGET_GL_DRAWS: OpenGL sessions' draws (tt_gl.h) */
};

/*
 * Returns the knobs, read from the environment once per process (bad values
 * are logged once and replaced by their default, 0).
 */
const struct tt_knobs *tt_knobs_get(void);

#endif /* TT_KNOBS_H */
