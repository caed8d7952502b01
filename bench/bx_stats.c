/* The summary line of a series; see bx_stats.h. */
#include "bx_stats.h"

#include "stats.h"

#include <stdio.h>

void bx_print_series(const char *name, double *v, size_t n)
{
	/* stats_percentile() reorders v but leaves it the same multiset, so
	 * the calls may come in any order. */
	double sum = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	/* The tail and the mean last, so that the fields before keep their places. */
	printf("%s n=%zu p10=%.2f p25=%.2f p50=%.2f p75=%.2f min=%.2f max=%.2f p90=%.2f p99=%.2f "
	       "mean=%.2f\n",
	       name, n, stats_percentile(v, n, 0.10), stats_percentile(v, n, 0.25),
	       stats_percentile(v, n, 0.50), stats_percentile(v, n, 0.75),
	       stats_percentile(v, n, 0.0), stats_percentile(v, n, 1.0),
	       stats_percentile(v, n, 0.90), stats_percentile(v, n, 0.99), n ? sum / (double)n : 0.0);
}
