/*
 * Reads the synthetic target layer's environment knobs, once per process.
 */
#include "tt_knobs.h"

#include "tt_log.h"
#include "u_parse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One second: far beyond any frame budget, low enough to catch typos. */
#define TT_KNOB_MAX_US 1000000
/* Draws of ~0.1 ms each on llvmpipe: again far beyond a frame. */
#define TT_KNOB_MAX_GL_DRAWS 10000
/* The own thread's rate: a tick every 100 us at most. */
#define TT_KNOB_MAX_THREAD_HZ 10000
#define TT_KNOB_DEFAULT_THREAD_HZ 100
/* The frame of the toggle: any run's, far beyond a test's. */
#define TT_KNOB_MAX_TOGGLE_FRAME 1000000000

static struct tt_knobs knobs;
static pthread_once_t knobs_once = PTHREAD_ONCE_INIT;

static void knobs_read(void)
{
	knobs.cpu_us = u_env_u64("XRTEST_TARGET_CPU_US", 0, 0, TT_KNOB_MAX_US, tt_log_warn, NULL);
	knobs.gpu_us = u_env_u64("XRTEST_TARGET_GPU_US", 0, 0, TT_KNOB_MAX_US, tt_log_warn, NULL);
	knobs.gpu_wait = u_env_u64("XRTEST_TARGET_GPU_WAIT", 0, 0, 1, tt_log_warn, NULL) != 0;
	knobs.sleep_us = u_env_u64("XRTEST_TARGET_SLEEP_US", 0, 0, TT_KNOB_MAX_US, tt_log_warn, NULL);
	knobs.gl_draws = u_env_u64("XRTEST_TARGET_GL_DRAWS", 0, 0, TT_KNOB_MAX_GL_DRAWS,
	                           tt_log_warn, NULL);
	knobs.toggle_frame = u_env_u64("XRTEST_TARGET_TOGGLE_FRAME", 0, 0, TT_KNOB_MAX_TOGGLE_FRAME,
	                               tt_log_warn, NULL);
	/* Empty counts as unset. A copy: the app may change its environment. */
	const char *log = getenv("XRTEST_TARGET_GPU_LOG");
	knobs.gpu_log = log && *log ? strdup(log) : NULL;
	const char *calls = getenv("XRTEST_TARGET_THREAD_CALLS");
	if (calls)
		tt_calls_parse("XRTEST_TARGET_THREAD_CALLS", calls, &knobs.thread_calls);
	knobs.thread_hz = u_env_u64("XRTEST_TARGET_THREAD_HZ", TT_KNOB_DEFAULT_THREAD_HZ, 1,
	                            TT_KNOB_MAX_THREAD_HZ, tt_log_warn, NULL);
	char thread_calls[128];
	tt_calls_format(&knobs.thread_calls, thread_calls, sizeof(thread_calls));
	tt_log("knobs: cpu_us=%llu gpu_us=%llu gpu_wait=%d sleep_us=%llu gpu_log=%s gl_draws=%llu "
	       "toggle_frame=%llu thread_calls=%s thread_hz=%llu",
	       (unsigned long long)knobs.cpu_us, (unsigned long long)knobs.gpu_us, knobs.gpu_wait,
	       (unsigned long long)knobs.sleep_us,
	       knobs.gpu_log ? knobs.gpu_log : "-", (unsigned long long)knobs.gl_draws,
	       (unsigned long long)knobs.toggle_frame, thread_calls,
	       (unsigned long long)knobs.thread_hz);
}

const struct tt_knobs *tt_knobs_get(void)
{
	pthread_once(&knobs_once, knobs_read);
	return &knobs;
}
