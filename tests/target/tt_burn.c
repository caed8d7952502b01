/*
 * Busy-wait on CLOCK_MONOTONIC: a sleep would give the CPU away and the
 * measured cost would include the scheduler's wake-up latency instead of
 * the requested work.
 */
#include "tt_burn.h"

#include <errno.h>
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

void tt_sleep_us(uint64_t us)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	uint64_t ns = (uint64_t)until.tv_nsec + us * 1000u;
	until.tv_sec += (time_t)(ns / 1000000000u);
	until.tv_nsec = (long)(ns % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
}
