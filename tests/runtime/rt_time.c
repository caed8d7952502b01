/*
 * The runtime's clock: XrTime is CLOCK_MONOTONIC in nanoseconds.
 */
#include "rt_internal.h"

#include <errno.h>
#include <time.h>

int64_t rt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rt_sleep_until_ns(int64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / 1000000000,
		.tv_nsec = deadline_ns % 1000000000,
	};
	/* Absolute deadlines: lateness of one wake-up does not accumulate. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void rt_busy_wait_ns(int64_t duration_ns)
{
	if (duration_ns <= 0)
		return;
	int64_t end = rt_now_ns() + duration_ns;
	while (rt_now_ns() < end)
		;
}
