/*
 * Busy CPU time, the synthetic target's CPU cost.
 */
#ifndef TT_BURN_H
#define TT_BURN_H

#include <stdint.h>

/* Spins on CLOCK_MONOTONIC for @p us microseconds (never sleeps). */
void tt_burn_cpu_us(uint64_t us);

#endif /* TT_BURN_H */
