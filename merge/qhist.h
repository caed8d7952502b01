/*
 * Percentiles of a stream of signed integer nanoseconds in bounded memory.
 *
 * The first QHIST_EXACT values are kept as they are, and percentiles over
 * them are exact (stats.h's method, type 7). Past that the values go into a
 * log-linear histogram: magnitudes below 128 ns get one bucket per ns,
 * larger ones 64 buckets per power of two, one set for each sign. A
 * percentile is then the interpolation (as type 7) between the midpoints of
 * the buckets holding the two closest ranks, clamped to [min, max]: its
 * relative error is at most 1/128 (0.8 %), and it is exact below 128 ns.
 * Memory: 32 KiB while exact, about 30 KiB per sign once histogrammed.
 */
#ifndef XRLM_QHIST_H
#define XRLM_QHIST_H

#include <stdint.h>

#define QHIST_EXACT 4096
#define QHIST_LINEAR 128  /* magnitudes with a bucket each */
#define QHIST_SUB_BITS 6  /* buckets per power of two above: 1 << this */

struct qhist {
	uint64_t count;
	int64_t min, max;
	int64_t *exact;    /* the first QHIST_EXACT values; NULL once histogrammed */
	uint64_t *pos;     /* buckets of values >= 0; NULL until needed */
	uint64_t *neg;     /* buckets of values < 0, by magnitude; NULL until needed */
};

/* qhist_add() for the first value, the one past the exact ones, a side's first. */
int qhist_add_rare(struct qhist *h, int64_t v);

/* |@p v| without overflow at INT64_MIN. */
static inline uint64_t qhist_magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Histogram bucket of magnitude @p m (qhist.c's layout; inline for qhist_add()). */
static inline unsigned qhist_bucket(uint64_t m)
{
	if (m < QHIST_LINEAR)
		return (unsigned)m;
	unsigned e = 63u - (unsigned)__builtin_clzll(m); /* >= 7 */
	unsigned sub = (unsigned)(m >> (e - QHIST_SUB_BITS)) & ((1u << QHIST_SUB_BITS) - 1);
	return QHIST_LINEAR + (e - 7) * (1u << QHIST_SUB_BITS) + sub;
}

/*
 * Adds @p v. Returns 0, -1 on ENOMEM (@p h is unchanged then). Inline: the
 * sandwich adds every call it finalizes, and a call here costs it more than
 * the addition.
 */
static inline int qhist_add(struct qhist *h, int64_t v)
{
	if (h->count == 0 || h->count == QHIST_EXACT)
		return qhist_add_rare(h, v);
	if (h->exact) {
		h->exact[h->count] = v;
	} else {
		uint64_t *side = v < 0 ? h->neg : h->pos;
		if (!side)
			return qhist_add_rare(h, v);
		side[qhist_bucket(qhist_magnitude(v))]++;
	}
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	h->count++;
	return 0;
}

/* The @p p percentile (0..1) in ns; 0 when empty. */
double qhist_percentile(const struct qhist *h, double p);

/* Frees what @p h owns; leaves it empty. */
void qhist_destroy(struct qhist *h);

#endif /* XRLM_QHIST_H */
