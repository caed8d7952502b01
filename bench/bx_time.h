/* The one clock of the benchmarks: CLOCK_MONOTONIC, as the layers use. */
#ifndef BX_TIME_H
#define BX_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t bx_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps @p ms milliseconds (0: returns at once). */
void bx_sleep_ms(uint64_t ms);

#endif /* BX_TIME_H */
