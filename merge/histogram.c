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

	if (bins < HISTOGRAM_MIN_BINS)
		return HISTOGRAM_MIN_BINS;
	return bins > HISTOGRAM_MAX_BINS ? HISTOGRAM_MAX_BINS : (int)bins;
}

double histogram_edge(const struct histogram *h, int i)
{
	return fmt_round(h->lo + i * h->width, h->decimals);
}

/* The bin of @p v, decided against the written edges themselves. */
static int bin_of(const struct histogram *h, double v)
{
	int i = (int)floor((v - h->lo) / h->width);

	if (i < 0)
		i = 0;
	if (i > h->nbins)
		i = h->nbins;
	while (i > 0 && v < histogram_edge(h, i))
		i--;
	while (i < h->nbins && v >= histogram_edge(h, i + 1))
		i++;
	return i;
}

void histogram_build(double *values, size_t n, struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	if (n == 0)
		return;

	double min = values[0];
	for (size_t i = 1; i < n; i++)
		min = values[i] < min ? values[i] : min;
	double hi = stats_percentile(values, n, 0.99);
	int want = target_bins(values, n, hi - min);
	double w = (hi - min) / want;

	h->width = nice_width(w > HISTOGRAM_MIN_WIDTH ? w : HISTOGRAM_MIN_WIDTH, &h->decimals);
	h->lo = fmt_round(floor(min / h->width) * h->width, h->decimals);
	/* The last regular bin must hold the 99th percentile itself. */
	double bins = floor((hi - h->lo) / h->width) + 1;
	h->nbins = bins > HISTOGRAM_MAX_BINS + 2 ? HISTOGRAM_MAX_BINS + 2 : (int)bins;
	for (size_t i = 0; i < n; i++)
		h->counts[bin_of(h, values[i])]++;
	h->total = n;
}
