/* Order statistics; see bx_stats.h. */
#include "bx_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void bx_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double bx_pct(const double *v, size_t n, double p)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	return v[rank ? rank - 1 : 0];
}

void bx_print_series(const char *name, double *v, size_t n)
{
	bx_sort(v, n);
	printf("%s n=%zu p10=%.2f p25=%.2f p50=%.2f p75=%.2f min=%.2f max=%.2f\n", name, n,
	       bx_pct(v, n, 10), bx_pct(v, n, 25), bx_pct(v, n, 50), bx_pct(v, n, 75),
	       n ? v[0] : 0, n ? v[n - 1] : 0);
}
