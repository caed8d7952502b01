/*
 * Busy CPU time, the synthetic target's CPU cost; and a plain sleep.
 */
#ifndef TT_BURN_H
#define TT_BURN_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns. */
uint64_t tt_now_ns(void);

/* Spins on CLOCK_MONOTONIC for @p us microseconds (never sleeps). */
void tt_burn_cpu_us(uint64_t us);

/* Sleeps @p us microseconds on a timer (clock_nanosleep), through signals. */
void tt_sleep_us(uint64_t us);

#endif /* TT_BURN_H */
