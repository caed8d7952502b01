/*
 * The cost of a clock read; see xl_clock.h.
 */
#include "xl_clock.h"

#define ROUNDS 21
#define READS_PER_ROUND 1000

double xl_clock_read_cost_ns(void)
{
	double fastest = 0.0;

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t first = xl_clock_mono_ns(), last = first;
		for (int i = 0; i < READS_PER_ROUND; i++)
			last = xl_clock_mono_ns();
		/* READS_PER_ROUND reads lie between the two samples. Preemption
		 * only ever adds time: the fastest round is the read's own cost. */
		double per_read = (double)(last - first) / READS_PER_ROUND;
		if (r == 0 || per_read < fastest)
			fastest = per_read;
	}
	return fastest;
}
