/*
 * Histogram bins for the workbook's charts: "nice" bin widths (1, 2 or 5
 * times a power of ten, never below the data's 0.001 resolution) from the
 * minimum to just past the 99th percentile, chosen by the Freedman–Diaconis
 * rule, aiming at HISTOGRAM_MIN_BINS to HISTOGRAM_MAX_BINS bins, plus one
 * overflow bin for the tail beyond. Bin edges are rounded to the width's
 * decimals, so the numbers written into a sheet read back as the same
 * doubles the values were counted against.
 */
#ifndef XRLM_HISTOGRAM_H
#define XRLM_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HISTOGRAM_MIN_BINS 10
#define HISTOGRAM_MAX_BINS 40

/*
 * Bin i (0 <= i < nbins) holds lo_i <= v < lo_(i+1), lo_i = histogram_edge(h, i).
 * counts[nbins] is the overflow bin, v >= histogram_edge(h, nbins).
 */
struct histogram {
	int nbins;
	double lo;
	double width;
	int decimals; /* of the edges */
	uint64_t counts[HISTOGRAM_MAX_BINS + 3];
	uint64_t total;
};

/*
 * Bins @p values[0..n-1] (reordered in place; finite). Bins are at least
 * 10^-12 of the values' magnitude wide, so that huge values still get
 * distinct edges. Returns false, with no bins, when n == 0 or when the
 * values come so near ±DBL_MAX that an edge would not be finite.
 */
bool histogram_build(double *values, size_t n, struct histogram *h);

/* Lower edge of bin @p i (0..nbins); edge nbins is the overflow bin's. */
double histogram_edge(const struct histogram *h, int i);

#endif /* XRLM_HISTOGRAM_H */
