/*
 * Descriptive statistics; see stats.h for the percentile method.
 */
#include "stats.h"

#include <math.h>

static void swap(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/*
 * Rearranges v[lo..hi] so that v[k] holds the value it would have if sorted,
 * everything before it is <= and everything after it is >= (Hoare-style
 * quickselect, median-of-three pivot, so sorted input stays linear).
 */
static void select_kth(double *v, size_t lo, size_t hi, size_t k)
{
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap(&v[hi], &v[mid]);
		double pivot = v[mid];

		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				swap(&v[i], &v[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		/* Now v[lo..j] <= pivot <= v[i..hi] and j < i. */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* Smallest value of v[lo..hi). */
static double min_of(const double *v, size_t lo, size_t hi)
{
	double m = v[lo];
	for (size_t i = lo + 1; i < hi; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/*
 * The p percentile of v[from..n), given that every value before @p from is
 * <= every value from it on (so ranks can be counted from 0 still).
 */
void stats_rank(uint64_t n, double p, uint64_t *k, double *frac)
{
	double h = (double)(n - 1) * p;
	*k = (uint64_t)floor(h);
	*frac = h - (double)*k;
}

double stats_between(uint64_t n, uint64_t k, double frac, double at_k, double next)
{
	if (frac == 0 || k + 1 >= n)
		return at_k;
	return at_k + frac * (next - at_k);
}

static double percentile_from(double *v, size_t n, size_t from, double p)
{
	uint64_t k;
	double frac;

	stats_rank(n, p, &k, &frac);
	if (k < from)
		k = from; /* cannot happen for increasing p; keeps it safe */
	select_kth(v, from, n - 1, k);
	if (frac == 0 || k + 1 >= n)
		return v[k];
	/* After selection everything past k is >= v[k]: the next order
	 * statistic is the smallest of them. */
	return stats_between(n, k, frac, v[k], min_of(v, k + 1, n));
}

double stats_select(double *values, size_t n, size_t k)
{
	select_kth(values, 0, n - 1, k);
	return values[k];
}

double stats_percentile(double *values, size_t n, double p)
{
	if (n == 0)
		return 0;
	return percentile_from(values, n, 0, p);
}

double stats_scaled_mean(double scaled_sum, uint64_t n)
{
	return scaled_sum / (double)n / STATS_SUM_SCALE;
}

void stats_compute(double *v, size_t n, struct stats_summary *out)
{
	*out = (struct stats_summary){0};
	if (n == 0)
		return;

	double sum = 0, lo = v[0], hi = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	out->count = n;
	out->mean = sum / (double)n;
	if (!isfinite(out->mean) && isfinite(lo) && isfinite(hi)) {
		/* The sum overflowed (values near DBL_MAX): add them scaled down. */
		double scaled = 0;
		for (size_t i = 0; i < n; i++)
			scaled += v[i] * STATS_SUM_SCALE;
		out->mean = stats_scaled_mean(scaled, n);
	}
	out->min = lo;
	out->max = hi;

	/* Each selection leaves the array partitioned at its rank, so the
	 * next (higher) rank only needs to look at the part above it. */
	size_t k50 = (size_t)floor((double)(n - 1) * 0.50);
	size_t k95 = (size_t)floor((double)(n - 1) * 0.95);
	out->median = percentile_from(v, n, 0, 0.50);
	out->p95 = percentile_from(v, n, k50, 0.95);
	out->p99 = percentile_from(v, n, k95, 0.99);
}
