/*
 * Histogram bins for the workbook's charts; see histogram.h.
 */
#include "histogram.h"

#include <math.h>
#include <string.h>

#include "fmt.h"
#include "stats.h"

/* The merged CSV's resolution: µs with 3 decimals. */
#define HISTOGRAM_MIN_WIDTH 0.001
/*
 * The narrowest bin relative to the values' magnitude: edges lo + i ×
 * width of huge values then still differ (a double holds ~16 digits).
 */
#define HISTOGRAM_MIN_REL_WIDTH 1e-12

/* Smallest 1, 2 or 5 × 10^k that is >= @p x; and its decimals in @p dec. */
static double nice_width(double x, int *dec)
{
	static const double steps[] = {1, 2, 5, 10};
	double p = pow(10, floor(log10(x)));
	double w = p;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		w = steps[i] * p;
		if (w >= x * (1 - 1e-12))
			break;
	}
	int d = (int)-floor(log10(w) + 1e-9);
	*dec = d < 0 ? 0 : d > 9 ? 9 : d;
	return fmt_round(w, *dec);
}

/* How many bins the Freedman–Diaconis rule asks for over @p range. */
static int target_bins(double *values, size_t n, double range)
{
	double iqr = stats_percentile(values, n, 0.75) - stats_percentile(values, n, 0.25);
	double bins = iqr > 0 ? ceil(range / (2 * iqr / cbrt((double)n))) : HISTOGRAM_MIN_BINS;

	if (!(bins >= HISTOGRAM_MIN_BINS)) /* NaN too: an infinite range and IQR */
		return HISTOGRAM_MIN_BINS;
	return bins > HISTOGRAM_MAX_BINS ? HISTOGRAM_MAX_BINS : (int)bins;
}

double histogram_edge(const struct histogram *h, int i)
{
	double x = h->lo + i * h->width;

	/* i × width alone may pass DBL_MAX where the edge does not. */
	return fmt_round(isfinite(x) ? x : fma(i, h->width, h->lo), h->decimals);
}

/* The bin of @p v, decided against the written edges themselves. */
static int bin_of(const struct histogram *h, double v)
{
	double x = floor((v - h->lo) / h->width);
	int i = x >= 0 ? (x < h->nbins ? (int)x : h->nbins) : 0;

	while (i > 0 && v < histogram_edge(h, i))
		i--;
	while (i < h->nbins && v >= histogram_edge(h, i + 1))
		i++;
	return i;
}

bool histogram_build(double *values, size_t n, struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	if (n == 0)
		return false;

	double min = values[0];
	for (size_t i = 1; i < n; i++)
		min = values[i] < min ? values[i] : min;
	double hi = stats_percentile(values, n, 0.99);
	double range = hi - min;
	int want = target_bins(values, n, range);
	/* A range past DBL_MAX (values of both signs near it) is divided first. */
	double w = isfinite(range) ? range / want : hi / want - min / want;
	double least = fmax(HISTOGRAM_MIN_WIDTH, fmax(fabs(min), fabs(hi)) * HISTOGRAM_MIN_REL_WIDTH);

	h->width = nice_width(w > least ? w : least, &h->decimals);
	h->lo = fmt_round(floor(min / h->width) * h->width, h->decimals);
	/* The last regular bin must hold the 99th percentile itself. */
	double span = hi - h->lo;
	double bins = floor(isfinite(span) ? span / h->width : hi / h->width - h->lo / h->width) + 1;
	h->nbins = bins > HISTOGRAM_MAX_BINS + 2 ? HISTOGRAM_MAX_BINS + 2 : bins >= 1 ? (int)bins : 0;
	/* Values within a bin of ±DBL_MAX: an edge would be infinite. */
	if (!isfinite(h->width) || !isfinite(h->lo) || h->nbins == 0 ||
	    !isfinite(histogram_edge(h, h->nbins))) {
		memset(h, 0, sizeof(*h));
		return false;
	}
	for (size_t i = 0; i < n; i++)
		h->counts[bin_of(h, values[i])]++;
	h->total = n;
	return true;
}
