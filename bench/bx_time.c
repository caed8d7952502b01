/* Sleeping for the benchmarks; see bx_time.h. */
#include "bx_time.h"

#include <errno.h>

void bx_sleep_ms(uint64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	if (!ms)
		return;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
