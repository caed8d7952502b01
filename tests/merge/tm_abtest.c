/*
 * Unit tests of the pieces behind `xrlm compare` and `xrlm report`: the
 * block bootstrap and the Mann–Whitney U test (abtest.h), the reader by
 * column name (ncsv.h) and the JSON writer's escaping (jsonw.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abtest.h"
#include "jsonw.h"
#include "ncsv.h"
#include "stats.h"

static void assert_close(double a, double b, double eps)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%.9g is not within %g of %.9g", a, eps, b);
}

static void test_block_length(void **state)
{
	(void)state;
	assert_int_equal(abtest_block_length(0), 1);
	assert_int_equal(abtest_block_length(1), 1);
	assert_int_equal(abtest_block_length(8), 2);
	assert_int_equal(abtest_block_length(9), 3);
	assert_int_equal(abtest_block_length(300), 7);
	assert_int_equal(abtest_block_length(1000000), 100);
}

static void test_rng_repeatable(void **state)
{
	struct abtest_rng a, b;
	(void)state;
	abtest_rng_seed(&a, 42);
	abtest_rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		assert_true(abtest_rng_next(&a) == abtest_rng_next(&b));
	abtest_rng_seed(&b, 43);
	assert_true(abtest_rng_next(&a) != abtest_rng_next(&b));
	for (int i = 0; i < 1000; i++)
		assert_true(abtest_rng_below(&a, 7) < 7);
}

/* R: wilcox.test(1:3, 4:6, exact = FALSE, correct = TRUE)$p.value */
static void test_mann_whitney_reference(void **state)
{
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	struct abtest_mw mw;
	(void)state;
	assert_int_equal(abtest_mann_whitney(a, 3, b, 3, &mw), 0);
	assert_close(mw.u, 0, 0);
	assert_close(mw.p_value, 0.0808556, 1e-7);
	assert_int_equal(abtest_mann_whitney(b, 3, a, 3, &mw), 0);
	assert_close(mw.u, 9, 0);
	assert_close(mw.p_value, 0.0808556, 1e-7);
}

/* U against a pair count; z against the tie-corrected variance by hand. */
static void test_mann_whitney_ties(void **state)
{
	const double a[] = {1, 2, 2, 3, 5, 5}, b[] = {2, 3, 4, 4, 5, 6, 7};
	struct abtest_mw mw;
	double u = 0;
	(void)state;
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 7; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	assert_int_equal(abtest_mann_whitney(a, 6, b, 7, &mw), 0);
	assert_close(mw.u, u, 1e-12);
	/* Tie groups: 2 (x3), 3 (x2), 4 (x2), 5 (x3): sum t^3 - t = 24+6+6+24. */
	double var = 6.0 * 7 / 12 * (14 - 60.0 / (13 * 12));
	double z = (u - 21 + 0.5) / sqrt(var);
	assert_close(mw.z, z, 1e-12);
	assert_close(mw.p_value, erfc(fabs(z) / sqrt(2)), 1e-12);

	const double same[] = {4, 4, 4};
	assert_int_equal(abtest_mann_whitney(same, 3, same, 3, &mw), 0);
	assert_close(mw.p_value, 1, 0);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of a resample drawn the plain way: copy the blocks, sort. */
static double naive_resample_median(const double *x, size_t n, size_t block,
                                    struct abtest_rng *rng, double *buf)
{
	for (size_t pos = 0; pos < n;) {
		size_t s = (size_t)abtest_rng_below(rng, n);
		for (size_t k = 0; k < block && pos < n; k++)
			buf[pos++] = x[(s + k) % n];
	}
	qsort(buf, n, sizeof(double), cmp_d);
	return n % 2 ? buf[n / 2] : (buf[n / 2 - 1] + buf[n / 2]) / 2;
}

/* The rank-band shortcut gives exactly the medians of the plain resamples. */
static void test_bootstrap_matches_naive(void **state)
{
	const size_t sizes[] = {1, 2, 3, 10, 101, 1000, 20001};
	(void)state;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si], block = abtest_block_length(n);
		double *x = malloc(n * sizeof(double)), *buf = malloc(n * sizeof(double));
		double fast[50];
		struct abtest_rng r1, r2;
		abtest_rng_seed(&r1, 5);
		for (size_t i = 0; i < n; i++) /* ties and a trend */
			x[i] = (double)(abtest_rng_below(&r1, 50)) + (double)i / (double)n * 10;
		abtest_rng_seed(&r1, 9);
		abtest_rng_seed(&r2, 9);
		assert_int_equal(abtest_bootstrap_medians(x, n, block, 50, &r1, fast), 0);
		for (int r = 0; r < 50; r++)
			assert_close(fast[r], naive_resample_median(x, n, block, &r2, buf), 1e-9);
		free(x);
		free(buf);
	}
}

/* A unit AR(1) series with coefficient @p phi, log-normal around @p base. */
static void ar1_sample(double *x, size_t n, double base, double phi, struct abtest_rng *rng)
{
	double e = 0;
	for (size_t i = 0; i < n; i++) {
		double u1 = ((double)(abtest_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
		double u2 = ((double)(abtest_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
		double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
		e = phi * e + sqrt(1 - phi * phi) * z;
		x[i] = base * exp(0.05 * e);
	}
}

/*
 * Identical distributions with autocorrelated frames (AR(1), 0.6): the
 * 95 % interval of the relative change must hold 0 in at least 85 of 100
 * trials (measured: 88 here; 92-95 % over more trials and sizes; resampling
 * single frames, which ignores the autocorrelation, gives about 67 %); and
 * a 10 % shift must be seen every time.
 */
static void test_bootstrap_coverage(void **state)
{
	enum { N = 2000, TRIALS = 100 };
	double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
	struct abtest_rng rng;
	struct abtest_result r;
	int covered = 0, detected = 0;
	(void)state;
	abtest_rng_seed(&rng, 2026);
	for (int t = 0; t < TRIALS; t++) {
		ar1_sample(a, N, 100, 0.6, &rng);
		ar1_sample(b, N, 100, 0.6, &rng);
		assert_int_equal(abtest_compare(a, N, b, N, (uint64_t)t, 400, &r), 0);
		covered += r.rel_lo_pct <= 0 && r.rel_hi_pct >= 0;
		for (int i = 0; i < N; i++)
			b[i] *= 1.10;
		assert_int_equal(abtest_compare(a, N, b, N, (uint64_t)t, 400, &r), 0);
		detected += r.rel_lo_pct > 0 && r.rel_pct > 8 && r.rel_pct < 12;
	}
	printf("coverage %d / %d, 10 %% shift detected %d / %d\n", covered, TRIALS, detected, TRIALS);
	assert_true(covered >= 85);
	assert_int_equal(detected, TRIALS);
	free(a);
	free(b);
}

static void test_compare_relative_undefined(void **state)
{
	const double a[] = {0, 0, 0, 0}, b[] = {1, 1, 1, 1};
	struct abtest_result r;
	(void)state;
	assert_int_equal(abtest_compare(a, 4, b, 4, 1, 100, &r), 0);
	assert_true(isnan(r.rel_pct));
	assert_close(r.diff, 1, 0);
	assert_close(r.diff_lo, 1, 0);
}

/*
 * The intervals are the 2.5 and 97.5 percentiles (stats.h's method) of
 * every resample's difference and relative change, from one generator
 * seeded with the seed, A's resamples first: to the bit.
 */
static void test_compare_intervals_exact(void **state)
{
	enum { N = 300, R = 500 };
	double a[N], b[N], ma[R], mb[R], d[R], rel[R];
	size_t block = abtest_block_length(N);
	struct abtest_rng rng;
	struct abtest_result r;
	(void)state;
	abtest_rng_seed(&rng, 7);
	ar1_sample(a, N, 100, 0.6, &rng);
	ar1_sample(b, N, 105, 0.6, &rng);
	assert_int_equal(abtest_compare(a, N, b, N, 99, R, &r), 0);
	abtest_rng_seed(&rng, 99);
	assert_int_equal(abtest_bootstrap_medians(a, N, block, R, &rng, ma), 0);
	assert_int_equal(abtest_bootstrap_medians(b, N, block, R, &rng, mb), 0);
	for (int i = 0; i < R; i++) {
		d[i] = mb[i] - ma[i];
		rel[i] = 100.0 * (mb[i] / ma[i] - 1.0);
	}
	assert_true(r.diff_lo == stats_percentile(d, R, 0.025));
	assert_true(r.diff_hi == stats_percentile(d, R, 0.975));
	assert_true(r.rel_lo_pct == stats_percentile(rel, R, 0.025));
	assert_true(r.rel_hi_pct == stats_percentile(rel, R, 0.975));
	assert_true(r.diff_lo < r.diff && r.diff < r.diff_hi);
}

/* Writes @p text to a temporary file; returns its path (static buffer). */
static const char *temp_file(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/xrlm-ncsv-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_ncsv_reads_by_name(void **state)
{
	static const char *const text_cols[] = {"fn", NULL};
	const char *p = temp_file("# a=1\n# target_layer=x,\"y\"\n# bare\n"
	                          "fn,\"v,1\",w\nxrEndFrame,1.5,\n\"q,\"\"r\",-2,3e2\n"
	                          "# session_end n=1\n");
	struct ncsv t;
	char err[NCSV_MSG_MAX];
	(void)state;
	assert_int_equal(ncsv_read(p, text_cols, &t, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(ncsv_meta_value(&t, "target_layer"), "x,\"y\"");
	assert_null(ncsv_meta_value(&t, "bare"));
	assert_int_equal(t.nmeta, 3);
	assert_int_equal(t.nfooter, 1);
	const struct ncsv_col *fn = ncsv_col(&t, "fn"), *v = ncsv_col(&t, "v,1"), *w = ncsv_col(&t, "w");
	assert_non_null(fn);
	assert_non_null(v);
	assert_non_null(w);
	assert_string_equal(fn->s[1], "q,\"r");
	assert_close(v->v[0], 1.5, 0);
	assert_close(v->v[1], -2, 0);
	assert_true(isnan(w->v[0]));
	assert_close(w->v[1], 300, 0);
	ncsv_destroy(&t);
}

/*
 * Column names as a spreadsheet quotes them: a name in quotes with a
 * quote doubled inside is the name with one quote, as libcsv reads a
 * cell (the engine unquotes only names without a quote inside).
 */
static void test_ncsv_quoted_names(void **state)
{
	const char *p = temp_file("\"a\"\"b\",\"c\",d\n1,2,3\n");
	struct ncsv t;
	char err[NCSV_MSG_MAX];
	(void)state;
	assert_int_equal(ncsv_read(p, NULL, &t, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.cols[0].name, "a\"b");
	assert_string_equal(t.cols[1].name, "c");
	assert_string_equal(t.cols[2].name, "d");
	assert_int_equal(t.nrows, 1);
	ncsv_destroy(&t);
}

/*
 * Metadata lines: blanks around the '=' are neither the key's nor the
 * value's (as merged_read.c reads them), and a line without '=' carries
 * no value: a key's first value is the first line that gives it one.
 */
static void test_ncsv_metadata(void **state)
{
	const char *p = temp_file("# frame_count\n# frame_count = 12 \n# frame_count=13\n"
	                          "# gpu_mode\t=\tgated\na\n1\n");
	struct ncsv t;
	char err[NCSV_MSG_MAX];
	(void)state;
	assert_int_equal(ncsv_read(p, NULL, &t, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(t.nmeta, 4);
	assert_string_equal(ncsv_meta_value(&t, "frame_count"), "12");
	assert_string_equal(ncsv_meta_value(&t, "gpu_mode"), "gated");
	assert_null(ncsv_meta_value(&t, "frame"));
	ncsv_destroy(&t);
}

static void expect_ncsv_error(const char *text, const char *needle)
{
	struct ncsv t;
	char err[NCSV_MSG_MAX];
	const char *p = temp_file(text);
	int ret = ncsv_read(p, NULL, &t, err, sizeof(err));
	unlink(p);
	assert_int_equal(ret, -1);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" lacks \"%s\"", err, needle);
}

static void test_ncsv_errors(void **state)
{
	(void)state;
	expect_ncsv_error("a,b\n1,x\n", ":2: error: column 2 (b) is not a number: \"x\"");
	expect_ncsv_error("a,b\n1,nan\n", "not a number");
	expect_ncsv_error("a,b\n1,0x10\n", "not a number");
	expect_ncsv_error("a,b\n1,2,3\n", ":2: error: expected 2 fields, got 3");
	expect_ncsv_error("a,b\n1\n2,3\n", ":2: error: expected 2 fields, got 1");
	expect_ncsv_error("# only\n", "no column header");
	expect_ncsv_error("", "empty file");
}

static void test_ncsv_truncated_last_row(void **state)
{
	struct ncsv t;
	char err[NCSV_MSG_MAX];
	const char *p = temp_file("a,b\n1,2\n3,4\n5,");
	(void)state;
	assert_int_equal(ncsv_read(p, NULL, &t, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(t.truncated_rows, 1);
	assert_non_null(strstr(t.warning, ":4: warning: last row has no newline"));
	ncsv_destroy(&t);
}

/* The escaped text of @p s as jsonw writes it. */
static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	jsonw_escape(f, s, len);
	fclose(f);
	return buf;
}

static void test_jsonw_escaping(void **state)
{
	static const char hostile[] = "</script><!--\"'&\\\n\x01\xe2\x80\xa8\xe2\x80\xa9\xff\xc3\xa9\xc0\xaf"
	                              "\t\x7f\xef\xbf\xbe\xef\xbf\xbd";
	char *out = escaped(hostile, sizeof(hostile) - 1);
	(void)state;
	assert_string_equal(out, "\\u003c/script\\u003e\\u003c!--\\\"\\u0027\\u0026\\\\\\n\\u0001"
	                         "\\u2028\\u2029\\ufffd\xc3\xa9\\ufffd\\ufffd\\t\\u007f\\ufffd\\ufffd");
	free(out);
}

static void test_jsonw_structure(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct jsonw w;
	(void)state;
	jsonw_init(&w, f);
	jsonw_object(&w);
	jsonw_key(&w, "a");
	jsonw_array(&w);
	jsonw_fixed(&w, 1.25, 1);
	jsonw_fixed(&w, NAN, 3);
	jsonw_sci(&w, 3.01e-60, 3);
	jsonw_sci(&w, 9.9996, 3);
	jsonw_uint(&w, 7);
	jsonw_end(&w);
	jsonw_key(&w, "b");
	jsonw_string(&w, NULL);
	jsonw_key(&w, "c");
	jsonw_object(&w);
	jsonw_end(&w);
	jsonw_end(&w);
	fclose(f);
	assert_string_equal(buf, "{\"a\":[1.3,null,3.01e-60,1.00e1,7],\"b\":null,\"c\":{}}");
	free(buf);
}

/* @p buf (@p size bytes, as open_memstream() left them) is exactly @p want. */
static void assert_written(const char *buf, size_t size, const char *want)
{
	assert_int_equal(size, strlen(want));
	assert_memory_equal(buf, want, size);
}

/* Infinities as null, 0 and negative values in exponent form, booleans,
 * and nesting past JSONW_MAX_DEPTH or ends past the top: ignored. */
static void test_jsonw_edges(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct jsonw w;
	(void)state;
	jsonw_init(&w, f);
	jsonw_array(&w);
	jsonw_fixed(&w, INFINITY, 3);
	jsonw_fixed(&w, -INFINITY, 3);
	jsonw_sci(&w, INFINITY, 3);
	jsonw_sci(&w, 0, 4);
	jsonw_sci(&w, -0.000123456, 3);
	jsonw_bool(&w, true);
	jsonw_bool(&w, false);
	jsonw_end(&w);
	jsonw_end(&w);
	fclose(f);
	assert_written(buf, size, "[null,null,null,0,-1.23e-4,true,false]");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &size);
	jsonw_init(&w, f);
	for (int i = 0; i < JSONW_MAX_DEPTH + 1; i++)
		jsonw_array(&w);
	jsonw_uint(&w, 1);
	for (int i = 0; i < JSONW_MAX_DEPTH + 2; i++)
		jsonw_end(&w);
	fclose(f);
	char want[2 * JSONW_MAX_DEPTH + 2];
	memset(want, '[', JSONW_MAX_DEPTH);
	want[JSONW_MAX_DEPTH] = '1';
	memset(want + JSONW_MAX_DEPTH + 1, ']', JSONW_MAX_DEPTH);
	want[2 * JSONW_MAX_DEPTH + 1] = '\0';
	assert_written(buf, size, want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_length),
		cmocka_unit_test(test_rng_repeatable),
		cmocka_unit_test(test_mann_whitney_reference),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_bootstrap_matches_naive),
		cmocka_unit_test(test_bootstrap_coverage),
		cmocka_unit_test(test_compare_relative_undefined),
		cmocka_unit_test(test_compare_intervals_exact),
		cmocka_unit_test(test_ncsv_reads_by_name),
		cmocka_unit_test(test_ncsv_quoted_names),
		cmocka_unit_test(test_ncsv_metadata),
		cmocka_unit_test(test_ncsv_errors),
		cmocka_unit_test(test_ncsv_truncated_last_row),
		cmocka_unit_test(test_jsonw_escaping),
		cmocka_unit_test(test_jsonw_structure),
		cmocka_unit_test(test_jsonw_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
