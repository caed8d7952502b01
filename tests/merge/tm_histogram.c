/*
 * Unit tests of the workbook's histogram bins (merge/histogram.c): every
 * value lands in the bin whose written edges hold it, the bins hold every
 * value once, widths are 1, 2 or 5 × 10^k, and the odd inputs (none, all
 * equal, negative, a long tail, huge values up to DBL_MAX) give sane bins
 * or none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "histogram.h"

/* Checks the invariants of @p h built from @p values (a copy: build reorders). */
static void check_bins(const double *values, size_t n, const struct histogram *h)
{
	uint64_t total = 0;

	assert_true(h->nbins >= 1 && h->nbins <= HISTOGRAM_MAX_BINS + 2);
	assert_true(isfinite(histogram_edge(h, 0)) && isfinite(histogram_edge(h, h->nbins)));
	for (int i = 0; i <= h->nbins; i++)
		total += h->counts[i];
	assert_int_equal(total, n);
	for (size_t k = 0; k < n; k++)
		assert_true(values[k] >= histogram_edge(h, 0));
	for (int i = 0; i <= h->nbins; i++) {
		uint64_t c = 0;
		for (size_t k = 0; k < n; k++) {
			bool in = values[k] >= histogram_edge(h, i) &&
			          (i == h->nbins || values[k] < histogram_edge(h, i + 1));
			c += in;
		}
		if (c != h->counts[i])
			fail_msg("bin %d [%.17g, %.17g): %llu counted, %llu by the edges", i,
			         histogram_edge(h, i), histogram_edge(h, i + 1),
			         (unsigned long long)h->counts[i], (unsigned long long)c);
	}
	/* A nice width: 1, 2 or 5 times a power of ten. */
	double m = h->width / pow(10, floor(log10(h->width) + 1e-9));
	assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
}

static void build_and_check(const double *values, size_t n, struct histogram *h)
{
	double *copy = malloc(n * sizeof(*copy));
	assert_non_null(copy);
	memcpy(copy, values, n * sizeof(*copy));
	assert_true(histogram_build(copy, n, h));
	free(copy);
	check_bins(values, n, h);
}

static void test_empty(void **state)
{
	struct histogram h;
	(void)state;
	assert_false(histogram_build(NULL, 0, &h));
	assert_int_equal(h.nbins, 0);
	assert_int_equal(h.total, 0);
}

static void test_all_equal(void **state)
{
	double v[50];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 50; i++)
		v[i] = 12.345;
	build_and_check(v, 50, &h);
	assert_int_equal(h.counts[h.nbins], 0); /* no tail */
}

/* Values on 3-decimal edges with a width (0.2 etc.) that a double cannot hold exactly. */
static void test_decimal_edges(void **state)
{
	double v[1000];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = fmt_round(0.1 * (i % 37) - 1.2, 3);
	build_and_check(v, 1000, &h);
	assert_true(h.lo <= -1.2);
}

/*
 * Values exactly on bin edges whose width a double cannot hold (0.1, 0.2,
 * 0.3 ...): floor((v - lo) / width) alone puts some in the bin below.
 */
static void test_values_on_edges(void **state)
{
	static const double steps[] = {0.1, 0.2, 0.3, 0.7, 0.05, 0.02};
	double v[400];
	struct histogram h;
	(void)state;
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		for (int n = 12; n <= 400; n += 97) {
			for (int i = 0; i < n; i++)
				v[i] = fmt_round(steps[s] * (i % 31), 3);
			build_and_check(v, (size_t)n, &h);
		}
	}
}

/* A long tail: the bins stop past p99, the rest is one overflow bin. */
static void test_long_tail(void **state)
{
	enum { N = 10000 };
	double *v = malloc(N * sizeof(*v));
	struct histogram h;
	(void)state;
	assert_non_null(v);
	for (int i = 0; i < N; i++)
		v[i] = i % 100 == 99 && i > 5000 ? 5000.0 + i : 100.0 + (i % 97) * 0.25;
	build_and_check(v, N, &h);
	assert_true(h.nbins <= HISTOGRAM_MAX_BINS + 2);
	assert_true(h.counts[h.nbins] > 0);
	assert_true(histogram_edge(&h, h.nbins) < 1000);
	free(v);
}

/*
 * Bins by the Freedman–Diaconis rule, to the number: 0..999 have an IQR of
 * 499.5, so bins 2 × 499.5 / 1000^(1/3) = 99.9 wide, 10 of them over the
 * 989.01 up to p99: the nice width 100 from 0, ten bins, no tail.
 */
static void test_freedman_diaconis_width(void **state)
{
	double v[1000];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = i;
	build_and_check(v, 1000, &h);
	assert_true(h.width == 100 && h.lo == 0);
	assert_int_equal(h.nbins, 10);
	assert_int_equal(h.counts[h.nbins], 0);
	/* 1.1 times those: 10 bins of 108.8 (the rule's 109.9 at most), so
	 * 200 wide, the smallest nice width not narrower. */
	for (int i = 0; i < 1000; i++)
		v[i] = fmt_round(i * 1.1, 3);
	build_and_check(v, 1000, &h);
	assert_true(h.width == 200 && h.lo == 0);
	assert_int_equal(h.nbins, 6);
}

/*
 * The regular bins reach past the 99th percentile itself, not the 95th:
 * 0..94 and five values 500..900 have p95 114.3 and p99 801; only 900,
 * above p99, falls in the overflow bin.
 */
static void test_bins_hold_p99(void **state)
{
	double v[100];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 95; i++)
		v[i] = i;
	for (int i = 95; i < 100; i++)
		v[i] = 500 + (i - 95) * 100;
	build_and_check(v, 100, &h);
	assert_true(histogram_edge(&h, h.nbins) > 801);
	assert_int_equal(h.counts[h.nbins], 1);
}

/*
 * Bins are never narrower than the merged CSV's 0.001 us, nor wider than
 * the rule asks: 0.000..0.019 us, 50 of each, want 10 bins of 0.0019,
 * which is 0.002 wide.
 */
static void test_narrow_spread(void **state)
{
	double v[1000];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = fmt_round((i % 20) * 0.001, 3);
	build_and_check(v, 1000, &h);
	assert_true(fabs(h.width - 0.002) < 1e-12 && h.lo == 0);
	assert_int_equal(h.nbins, 10);
}

/*
 * Huge values all equal: the least width 0.001 made min / width infinite,
 * the bin count -inf and the bin index INT_MIN (a crash). Bins 10^-12 of
 * the magnitude wide hold them.
 */
static void test_huge_equal(void **state)
{
	static const double huge[] = {2e305, -2e305, 1e300, 1e20, DBL_MAX / 2};
	double v[30];
	struct histogram h;
	(void)state;
	for (size_t k = 0; k < sizeof(huge) / sizeof(huge[0]); k++) {
		for (int i = 0; i < 30; i++)
			v[i] = huge[k];
		build_and_check(v, 30, &h);
		assert_int_equal(h.counts[h.nbins], 0);
		assert_true(histogram_edge(&h, 1) > histogram_edge(&h, 0));
	}
}

/* Values whose range passes DBL_MAX, or that sit at it: sane bins, or none. */
static void test_near_dbl_max(void **state)
{
	double v[40], copy[40];
	struct histogram h;
	(void)state;
	for (int i = 0; i < 40; i++)
		v[i] = (i % 2 ? 0.6 : -0.6) * DBL_MAX * (1 - i / 100.0); /* max - min > DBL_MAX */
	build_and_check(v, 40, &h);
	for (int i = 0; i < 40; i++)
		v[i] = i % 2 ? DBL_MAX : -DBL_MAX;
	memcpy(copy, v, sizeof(v));
	if (histogram_build(copy, 40, &h))
		check_bins(v, 40, &h);
	else
		assert_true(h.nbins == 0 && h.total == 0);
	for (int i = 0; i < 40; i++)
		copy[i] = DBL_MAX;
	assert_false(histogram_build(copy, 40, &h));
	assert_true(h.nbins == 0 && h.total == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_all_equal),
		cmocka_unit_test(test_decimal_edges),
		cmocka_unit_test(test_values_on_edges),
		cmocka_unit_test(test_long_tail),
		cmocka_unit_test(test_freedman_diaconis_width),
		cmocka_unit_test(test_bins_hold_p99),
		cmocka_unit_test(test_narrow_spread),
		cmocka_unit_test(test_huge_equal),
		cmocka_unit_test(test_near_dbl_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
