/*
 * Descriptive statistics over flat arrays of doubles.
 *
 * Percentile method: linear interpolation between closest ranks (the
 * "type 7" estimator of Hyndman & Fan, NumPy's default). For n sorted values
 * x[0..n-1] and a fraction p in [0, 1], h = (n - 1) * p and the result is
 * x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)]).
 * The median is the 0.5 percentile, so an even count averages the two middle
 * values. Selection (quickselect), not a full sort, finds the ranks: O(n).
 */
#ifndef XRLM_STATS_H
#define XRLM_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The summary of one column. All values are 0 when count is 0. */
struct stats_summary {
	uint64_t count;
	double mean;
	double median;
	double p95;
	double p99;
	double min;
	double max;
};

/*
 * A power of two values are multiplied by for a sum that cannot overflow
 * (values near DBL_MAX: no merge writes them, a damaged file may): exact
 * for every value above ~1e-127; smaller ones, lost by it, are lost in a
 * sum of such values anyway.
 */
#define STATS_SUM_SCALE 0x1p-600

/* The mean of @p n values whose sum, each times STATS_SUM_SCALE, is @p scaled_sum. */
double stats_scaled_mean(double scaled_sum, uint64_t n);

/*
 * Computes count/mean/median/p95/p99/min/max of @p values[0..n-1].
 * The mean is a plain left-to-right double sum divided by n, so the same
 * values in the same order always give the same bits (a sum that
 * overflows, of finite values, is taken again scaled: STATS_SUM_SCALE). @p values is
 * reordered (partitioned) in place; NaNs must not be present.
 */
void stats_compute(double *values, size_t n, struct stats_summary *out);

/*
 * The @p p percentile (0..1) of @p values[0..n-1] by the method above;
 * reorders @p values. Returns 0 when n is 0.
 */
double stats_percentile(double *values, size_t n, double p);

/*
 * The @p k-th smallest (0-based) of @p values[0..n-1], k < n, by selection
 * (linear time); reorders @p values.
 */
double stats_select(double *values, size_t n, size_t k);

/*
 * The method's arithmetic, for callers that find order statistics another
 * way (stats_stream.h): the rank k = floor(h) and fraction h - k of the
 * @p p percentile of @p n values, and the value from the k-th and
 * (k+1)-th smallest (@p next is not read when the fraction is 0 or k is
 * the last rank).
 */
void stats_rank(uint64_t n, double p, uint64_t *k, double *frac);
double stats_between(uint64_t n, uint64_t k, double frac, double at_k, double next);

#endif /* XRLM_STATS_H */
