/*
 * Busy-wait on CLOCK_MONOTONIC: a sleep would give the CPU away and the
 * measured cost would include the scheduler's wake-up latency instead of
 * the requested work.
 */
#include "tt_burn.h"

#include <time.h>

uint64_t tt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void tt_burn_cpu_us(uint64_t us)
{
	uint64_t end = tt_now_ns() + us * 1000u;
	while (tt_now_ns() < end)
		;
}
