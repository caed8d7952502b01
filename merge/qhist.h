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

struct qhist {
	uint64_t count;
	int64_t min, max;
	int64_t *exact;    /* the first QHIST_EXACT values; NULL once histogrammed */
	uint64_t *pos;     /* buckets of values >= 0; NULL until needed */
	uint64_t *neg;     /* buckets of values < 0, by magnitude; NULL until needed */
};

/* Adds @p v. Returns 0, -1 on ENOMEM (@p h is unchanged then). */
int qhist_add(struct qhist *h, int64_t v);

/* The @p p percentile (0..1) in ns; 0 when empty. */
double qhist_percentile(const struct qhist *h, double p);

/* Frees what @p h owns; leaves it empty. */
void qhist_destroy(struct qhist *h);

#endif /* XRLM_QHIST_H */
