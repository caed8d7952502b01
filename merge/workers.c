/*
 * The merge's thread count; see workers.h.
 */
#include "workers.h"

#include <sched.h>
#include <stdatomic.h>

static atomic_uint max_workers = WORKERS_DEFAULT;

void workers_set_max(unsigned n)
{
	if (n < 1)
		n = 1;
	if (n > WORKERS_MAX)
		n = WORKERS_MAX;
	atomic_store(&max_workers, n);
}

unsigned workers_max(void)
{
	return atomic_load(&max_workers);
}

unsigned workers_online_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}
