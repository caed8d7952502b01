/*
 * The layer's clocks. CLOCK_MONOTONIC and CLOCK_REALTIME are read through
 * the vDSO: no system call, ~25-30 ns on x86-64.
 */
#ifndef XL_CLOCK_H
#define XL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on @p clock. */
static inline uint64_t xl_clock_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Nanoseconds on CLOCK_MONOTONIC: the brackets' clock. */
static inline uint64_t xl_clock_mono_ns(void)
{
	return xl_clock_ns(CLOCK_MONOTONIC);
}

/*
 * What one CLOCK_MONOTONIC read costs on this machine, in nanoseconds: the
 * fastest of a few rounds of back-to-back reads. Takes about a millisecond;
 * not for the frame thread.
 */
double xl_clock_read_cost_ns(void);

#endif /* XL_CLOCK_H */
