/*
 * The layers' fixed cost per process: the time from xrCreateInstance to a
 * running session, and from the end of the session through
 * xrDestroyInstance (where the loader unloads the layers and each side
 * joins its writer thread), with a few frames between; plus the CPU time
 * the whole process used by then (every thread, the layers' included).
 * The difference to the no-layer configuration of the same repetition is
 * what the pair adds to a process's start and end.
 */
#include "bx_bench.h"

#include "bx_session.h"
#include "bx_time.h"

#include <stdio.h>

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool bx_run_startup(const struct bx_opts *o)
{
	struct bx_session s = {0};
	uint64_t t0 = bx_now_ns();
	bool ok = bx_session_create(&s);
	uint64_t t1 = bx_now_ns();

	for (uint64_t i = 0; ok && i < o->frames; i++)
		ok = bx_session_frame(&s, NULL);
	uint64_t t2 = bx_now_ns();
	bx_session_destroy(&s);
	uint64_t t3 = bx_now_ns();
	if (ok)
		printf("startup create_ns=%llu destroy_ns=%llu total_ns=%llu cpu_ns=%llu\n",
		       (unsigned long long)(t1 - t0), (unsigned long long)(t3 - t2),
		       (unsigned long long)(t1 - t0 + t3 - t2), (unsigned long long)cpu_ns());
	return ok;
}
