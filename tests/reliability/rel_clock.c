/*
 * rel_clock: prints CLOCK_MONOTONIC in nanoseconds, the clock of the
 * monitor's CSVs, so a shell test can compare a moment with recorded rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 1;
	printf("%" PRIu64 "\n", (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	return 0;
}
