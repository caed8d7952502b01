/*
 * Bounded-memory percentiles; see qhist.h.
 */
#include "qhist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define LINEAR QHIST_LINEAR
#define SUB_BITS QHIST_SUB_BITS
#define OCTAVES (64 - 7)
#define BUCKETS (LINEAR + OCTAVES * (1 << SUB_BITS))

/* The middle of bucket @p b's magnitudes. */
static double bucket_mid(unsigned b)
{
	if (b < LINEAR)
		return b;
	unsigned e = (b - LINEAR) / (1u << SUB_BITS) + 7;
	unsigned sub = (b - LINEAR) % (1u << SUB_BITS);
	double width = ldexp(1.0, (int)e - SUB_BITS);
	return ldexp(1.0, (int)e) + (sub + 0.5) * width;
}

static int hist_add(struct qhist *h, int64_t v)
{
	uint64_t **side = v < 0 ? &h->neg : &h->pos;

	if (!*side) {
		*side = calloc(BUCKETS, sizeof(**side));
		if (!*side)
			return -1;
	}
	(*side)[qhist_bucket(qhist_magnitude(v))]++;
	return 0;
}

/* Moves the exact values into the histogram (once, at QHIST_EXACT). */
static int to_histogram(struct qhist *h)
{
	for (uint64_t i = 0; i < h->count; i++) {
		if (hist_add(h, h->exact[i]) != 0)
			return -1;
	}
	free(h->exact);
	h->exact = NULL;
	return 0;
}

/* Out of line, so that the usual case saves no registers for its calls. */
int qhist_add_rare(struct qhist *h, int64_t v)
{
	if (h->count == 0 && !h->exact && !h->pos && !h->neg) {
		h->exact = malloc(QHIST_EXACT * sizeof(*h->exact));
		if (!h->exact)
			return -1;
	}
	if (h->exact && h->count == QHIST_EXACT && to_histogram(h) != 0)
		return -1;
	if (h->exact)
		h->exact[h->count] = v;
	else if (hist_add(h, v) != 0)
		return -1;
	h->min = h->count == 0 || v < h->min ? v : h->min;
	h->max = h->count == 0 || v > h->max ? v : h->max;
	h->count++;
	return 0;
}

/* The representative value of the @p rank-th smallest value (0-based). */
static double hist_rank(const struct qhist *h, uint64_t rank)
{
	uint64_t seen = 0;

	/* Negative values first, largest magnitude first. */
	for (int b = BUCKETS - 1; h->neg && b >= 0; b--) {
		seen += h->neg[b];
		if (rank < seen)
			return -bucket_mid((unsigned)b);
	}
	for (unsigned b = 0; h->pos && b < BUCKETS; b++) {
		seen += h->pos[b];
		if (rank < seen)
			return bucket_mid(b);
	}
	return (double)h->max;
}

static double clamp(const struct qhist *h, double v)
{
	return v < (double)h->min ? (double)h->min : v > (double)h->max ? (double)h->max : v;
}

double qhist_percentile(const struct qhist *h, double p)
{
	if (h->count == 0)
		return 0;
	if (h->exact) {
		double *copy = malloc(h->count * sizeof(*copy));
		if (!copy)
			return NAN;
		for (uint64_t i = 0; i < h->count; i++)
			copy[i] = (double)h->exact[i];
		double v = stats_percentile(copy, h->count, p);
		free(copy);
		return v;
	}
	double rank = (double)(h->count - 1) * p;
	uint64_t lo = (uint64_t)floor(rank);
	double a = clamp(h, hist_rank(h, lo));
	if (lo + 1 >= h->count)
		return a;
	double b = clamp(h, hist_rank(h, lo + 1));
	return a + (rank - (double)lo) * (b - a);
}

void qhist_destroy(struct qhist *h)
{
	free(h->exact);
	free(h->pos);
	free(h->neg);
	memset(h, 0, sizeof(*h));
}
