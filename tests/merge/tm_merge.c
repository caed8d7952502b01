/*
 * Unit tests of the merge: number formatting, statistics, the per-side CSV
 * reader, the join, the GPU rules and the merged file's exact format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "side_cpu.h"
#include "side_gpu.h"
#include "fmt.h"
#include "join.h"
#include "merge.h"
#include "merge_early.h"
#include "merged_read.h"
#include "merged_write.h"
#include "out_file.h"
#include "spill.h"
#include "stats.h"
#include "stats_stream.h"
#include "workers.h"
#include "tm_common.h"
#include "window.h"

/* cmocka 1.1 has no assert_double_equal(). */
#define assert_double_equal(a, b, eps) assert_near((a), (b), (eps), __FILE__, __LINE__)

static void assert_near(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %.17g != %.17g (within %g)", file, line, a, b, eps);
}

/* ---- fmt ---- */

static const char *fixed(double v, int d)
{
	static char buf[FMT_NUM_MAX];
	return fmt_fixed_str(buf, v, d);
}

static void test_fmt_fixed(void **state)
{
	(void)state;
	assert_string_equal(fixed(1.23456, 3), "1.235");
	assert_string_equal(fixed(-1.23456, 3), "-1.235");
	assert_string_equal(fixed(-0.0004, 3), "0.000");
	assert_string_equal(fixed(0, 4), "0.0000");
	assert_string_equal(fixed(12345.6789, 4), "12345.6789");
	assert_string_equal(fixed(0.5, 0), "1");
	assert_string_equal(fixed(-2.5, 0), "-3");
	assert_string_equal(fixed(90.9090909, 3), "90.909");
	assert_string_equal(fixed(1e20, 2), "100000000000000000000.00");
	assert_string_equal(fixed(NAN, 3), "");

	char buf[64];
	*fmt_ns_as_us(buf, -1500) = '\0';
	assert_string_equal(buf, "-1.500");
	*fmt_ns_as_us(buf, 5) = '\0';
	assert_string_equal(buf, "0.005");
	*fmt_ns_as_us(buf, 123456789012) = '\0';
	assert_string_equal(buf, "123456789.012");
	*fmt_i64(buf, INT64_MIN) = '\0';
	assert_string_equal(buf, "-9223372036854775808");
	*fmt_u64(buf, UINT64_MAX) = '\0';
	assert_string_equal(buf, "18446744073709551615");
}

/* The integers fmt writes by hand, against printf's, at every length and its edges. */
static void test_fmt_integers_as_printf(void **state)
{
	(void)state;
	char got[64], want[64];
	uint64_t v = 1;

	for (int digits = 1; digits <= 20; digits++, v = v <= UINT64_MAX / 10 ? v * 10 : UINT64_MAX) {
		const uint64_t cases[] = {v - 1, v, v + 1, v * 3 / 2 + 7};
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			uint64_t u = cases[i];
			int64_t ns = (int64_t)(u >> 1) * (i % 2 ? -1 : 1);
			*fmt_u64(got, u) = '\0';
			snprintf(want, sizeof(want), "%llu", (unsigned long long)u);
			assert_string_equal(got, want);
			*fmt_i64(got, ns) = '\0';
			snprintf(want, sizeof(want), "%lld", (long long)ns);
			assert_string_equal(got, want);
			/* ns as us: three decimals of a value of any length */
			*fmt_ns_as_us(got, ns) = '\0';
			uint64_t mag = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
			snprintf(want, sizeof(want), "%s%llu.%03llu", ns < 0 ? "-" : "",
			         (unsigned long long)(mag / 1000), (unsigned long long)(mag % 1000));
			assert_string_equal(got, want);
		}
	}
	/* Integral values through fmt_fixed, 0 to 6 decimals. */
	for (int d = 0; d <= 6; d++) {
		for (double x = 0; x < 1e9; x = x * 7 + 1) {
			fmt_fixed_str(got, x, d);
			snprintf(want, sizeof(want), "%.*f", d, x);
			assert_string_equal(got, want);
		}
	}
}

/*
 * fmt_fixed()'s text is r = v * 10^d rounded half away from zero, with a
 * point inserted: at every precision 0 to 9, of every length, the
 * fraction's leading zeros kept.
 */
static void test_fmt_fixed_digits(void **state)
{
	(void)state;
	char got[FMT_NUM_MAX], want[FMT_NUM_MAX];

	srand(11);
	for (int i = 0; i < 200000; i++) {
		int d = i % 10;
		double v = ((double)rand() / RAND_MAX - 0.5) * pow(10, rand() % 14 - 4);
		double scaled = v * pow(10, d);
		if (fabs(scaled) >= 1e15)
			continue; /* printf's exact path (fmt.c) */
		long long r = scaled < 0 ? -(long long)(0.5 - scaled) : (long long)(scaled + 0.5);
		unsigned long long m = r < 0 ? 0 - (unsigned long long)r : (unsigned long long)r;
		unsigned long long unit = 1;
		for (int k = 0; k < d; k++)
			unit *= 10;
		if (d > 0)
			snprintf(want, sizeof(want), "%s%llu.%0*llu", r < 0 ? "-" : "", m / unit, d,
			         m % unit);
		else
			snprintf(want, sizeof(want), "%s%llu", r < 0 ? "-" : "", m);
		fmt_fixed_str(got, v, d);
		if (strcmp(got, want) != 0)
			fail_msg("%.17g with %d decimals: %s, not %s", v, d, got, want);
	}
}

/*
 * The text of fmt_fixed(@p v, @p d) must read back as exactly fmt_round(),
 * and a rounded value's own text as itself: a merged row holds
 * fmt_fixed(fmt_round(v)), and `xrlm stats` reads it back.
 */
static void check_reads_back(double v, int d)
{
	char buf[FMT_NUM_MAX], again[FMT_NUM_MAX];
	double r = fmt_round(v, d);

	fmt_fixed_str(buf, v, d);
	if (strtod(buf, NULL) != r)
		fail_msg("%.17g with %d decimals: text %s, fmt_round %.17g", v, d, buf, r);
	fmt_fixed_str(again, r, d);
	if (strtod(again, NULL) != r || fmt_round(r, d) != r)
		fail_msg("%.17g with %d decimals: rounded %.17g, its text %s", v, d, r, again);
}

static void test_fmt_round_reads_back(void **state)
{
	(void)state;
	srand(7);
	for (int i = 0; i < 200000; i++)
		check_reads_back(((double)rand() / RAND_MAX - 0.3) * pow(10, rand() % 9),
		                 3 + rand() % 2);
	/* Scaled by 10^d to near 2^53, where the scaled value's spacing is
	 * 0.5 or 1: its re-scaling must not step to a neighbouring text.
	 * The first is a merged row's share (fuzz_merge found it). */
	check_reads_back(-40039979999940000.0 / 11000000.0 * 100.0, 4);
	for (int i = 0; i < 200000; i++) {
		int d = rand() % 10;
		double v = ldexp((double)rand() / RAND_MAX + 1.0, 47 + rand() % 9) / pow(10, d);
		check_reads_back(rand() % 2 ? v : -v, d);
	}
}

/*
 * fmt_ns_as_us_value() is the value of fmt_ns_as_us()'s text, read back:
 * also past 2^53 ns, where (double)ns rounds before the division and the
 * quotient may then be the neighbour of the text's value (9007199254748911
 * ns: 9007199254748.9121, not the text's 9007199254748.9102).
 */
static void test_fmt_ns_as_us_value(void **state)
{
	(void)state;
	char text[FMT_NUM_MAX];
	const int64_t edges[] = {0, 1, -1, 999, 1000, 9007199254740992, -9007199254740992,
	                         9007199254740993, 9007199254748911, -9007199254748911,
	                         INT64_MAX, INT64_MIN};

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		*fmt_ns_as_us(text, edges[i]) = '\0';
		if (fmt_ns_as_us_value(edges[i]) != strtod(text, NULL))
			fail_msg("%lld ns: %.17g, its text %s", (long long)edges[i],
			         fmt_ns_as_us_value(edges[i]), text);
	}
	srand(5);
	for (int i = 0; i < 100000; i++) {
		uint64_t u = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();
		int64_t ns = (int64_t)(u >> (1 + rand() % 20)); /* most of them past 2^53 */
		ns = i % 2 ? -ns : ns;
		*fmt_ns_as_us(text, ns) = '\0';
		if (fmt_ns_as_us_value(ns) != strtod(text, NULL))
			fail_msg("%lld ns: %.17g, its text %s", (long long)ns, fmt_ns_as_us_value(ns), text);
	}
}

/* ---- stats ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Reference: the documented method on a sorted copy. */
static double ref_percentile(const double *v, size_t n, double p)
{
	double *s = malloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);
	double r = k + 1 < n ? s[k] + (h - (double)k) * (s[k + 1] - s[k]) : s[k];
	free(s);
	return r;
}

static void test_stats_known(void **state)
{
	(void)state;
	double v[] = {7, 3, 10, 1, 5, 9, 2, 8, 6, 4}; /* 1..10 shuffled */
	struct stats_summary s;

	stats_compute(v, 10, &s);
	assert_int_equal(s.count, 10);
	assert_double_equal(s.mean, 5.5, 1e-12);
	assert_double_equal(s.median, 5.5, 1e-12);
	assert_double_equal(s.p95, 9.55, 1e-12);
	assert_double_equal(s.p99, 9.91, 1e-12);
	assert_double_equal(s.min, 1, 0);
	assert_double_equal(s.max, 10, 0);

	double odd[] = {5, 1, 3};
	stats_compute(odd, 3, &s);
	assert_double_equal(s.median, 3, 0);

	double one[] = {-4.25};
	stats_compute(one, 1, &s);
	assert_double_equal(s.median, -4.25, 0);
	assert_double_equal(s.p99, -4.25, 0);

	stats_compute(NULL, 0, &s);
	assert_int_equal(s.count, 0);
	assert_double_equal(s.mean, 0, 0);
	assert_double_equal(s.max, 0, 0);
}

static void test_stats_random_against_sort(void **state)
{
	(void)state;
	srand(3);
	for (int round = 0; round < 600; round++) {
		size_t n = 1 + (size_t)(rand() % 3000);
		int spread = 1 + rand() % 50; /* small spreads: many duplicates */
		/* Then distinct values: the next order statistic after a
		 * selection is wherever the partition left it. */
		if (round >= 300) {
			n = 2 + n % 300;
			spread = 1 << 30;
		}
		double *v = malloc(n * sizeof(*v));
		double *w = malloc(n * sizeof(*w));
		for (size_t i = 0; i < n; i++)
			v[i] = (double)(rand() % spread) * 0.5;
		if (round % 7 == 0) /* sorted input must not degrade */
			qsort(v, n, sizeof(*v), cmp_double);

		struct stats_summary s;
		memcpy(w, v, n * sizeof(*v));
		stats_compute(w, n, &s);
		assert_double_equal(s.median, ref_percentile(v, n, 0.50), 1e-9);
		assert_double_equal(s.p95, ref_percentile(v, n, 0.95), 1e-9);
		assert_double_equal(s.p99, ref_percentile(v, n, 0.99), 1e-9);
		free(v);
		free(w);
	}
}

/*
 * A column too long for memory (spilled to a file, percentiles by radix
 * selection over it) gives the very summary of the same values in memory:
 * wide and narrow spreads (a bucket collected and selected, or narrowed
 * digit by digit), duplicates, negatives, both zeros; and the same values
 * added in runs (stats_stream_add_n(), as the statistics' fill does) the
 * very summary of them added one by one.
 */
static void test_stats_stream_against_compute(void **state)
{
	(void)state;
	const size_t n = 3 * STATS_STREAM_MEM + 12345;
	double *v = malloc(n * sizeof(*v));
	char dir[256];

	assert_non_null(v);
	tm_dir_create(dir, sizeof(dir));
	srand(11);
	for (int round = 0; round < 5; round++) {
		struct stats_stream st, bulk;
		struct stats_summary a, b, c;
		assert_int_equal(stats_stream_init(&st, dir), 0);
		assert_int_equal(stats_stream_init(&bulk, dir), 0);
		for (size_t i = 0; i < n; i++) {
			int r = rand();
			switch (round) {
			case 0: v[i] = (double)(r % 2000001 - 1000000) / 1000.0; break; /* wide */
			case 1: v[i] = 11111.111 + (double)(r % 7) * 0.001; break;      /* one bucket */
			case 2: v[i] = r % 3 ? 24.41 : (double)(r % 100000) / 1000.0; break;
			case 3: v[i] = r % 2 ? 0.0 : -0.0; break;
			default: v[i] = r % 2 ? 1e308 : 1.7e308; break; /* a sum that overflows */
			}
			assert_int_equal(stats_stream_add(&st, v[i]), 0);
		}
		/* The same values added in runs of 1 to 300, across the memory's end. */
		for (size_t i = 0, k; i < n; i += k) {
			k = 1 + (size_t)rand() % 300;
			k = k < n - i ? k : n - i;
			assert_int_equal(stats_stream_add_n(&bulk, v + i, k), 0);
		}
		assert_int_equal(stats_stream_compute(&st, &a), 0);
		assert_int_equal(stats_stream_compute(&bulk, &c), 0);
		assert_true(st.values.fd >= 0); /* it did spill */
		stats_compute(v, n, &b);
		assert_true(a.count == b.count && a.mean == b.mean && a.median == b.median &&
		            a.p95 == b.p95 && a.p99 == b.p99 && a.min == b.min && a.max == b.max);
		assert_true(c.count == a.count && c.mean == a.mean && c.median == a.median &&
		            c.p95 == a.p95 && c.p99 == a.p99 && c.min == a.min && c.max == a.max);
		/* A mean between the smallest and the largest value, whatever the sum does. */
		assert_true(isfinite(a.mean) && a.mean >= a.min && a.mean <= a.max);
		stats_stream_destroy(&st);
		stats_stream_destroy(&bulk);
	}
	free(v);
	tm_dir_remove(dir);
}

/* ---- reader ---- */

static void test_read_cpu_valid(void **state)
{
	(void)state;
	struct side_cpu_file f;

	assert_int_equal(side_cpu_read(tm_data("frames-s1-pre.csv"), "pre", &f), 0);
	assert_int_equal(f.count, 3);
	assert_string_equal(f.meta.side, "pre");
	assert_string_equal(f.meta.layer, "XR_APILAYER_XRLM_monitor_pre");
	assert_string_equal(f.meta.target_layer, "XR_APILAYER_XRLM_test_target");
	assert_string_equal(f.meta.clock, "CLOCK_MONOTONIC");
	assert_int_equal(f.meta.clock_freq, 1000000000);
	assert_true(f.meta.has_session_end);
	assert_int_equal(f.meta.dropped_queue_full, 2);
	assert_int_equal(f.diag.warning_count, 0);
	assert_int_equal(f.rows[1].display_time, 2000);
	assert_int_equal(f.rows[1].thread_id, 7);
	assert_int_equal(f.rows[1].t_entry_ns, 12000000);
	assert_int_equal(f.rows[1].dur_ns, 60000);
	side_cpu_destroy(&f);
}

/*
 * A file of several read chunks (1 MiB) whose rows alternate between the
 * fast path and libcsv (quoted fields, CRLF, a quoted newline), so lines
 * straddle chunk ends in every state: each row must still be read once.
 */
static void test_read_cpu_mixed_large(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct side_cpu_file f;
	const int n = 120000;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/mixed.csv", dir);
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	fprintf(out, "# side=pre\ndisplay_time,thread_id,t_entry,t_exit\n");
	for (int i = 0; i < n; i++) {
		if (i % 997 == 0)
			fprintf(out, "\"%d\",7,%d,%d\n", i, i * 10, i * 10 + 3);
		else if (i % 1499 == 0)
			fprintf(out, "%d,7,%d,%d\r\n", i, i * 10, i * 10 + 3);
		else if (i % 50021 == 0)
			fprintf(out, "%d,\"7\n\",%d,%d\n", i, i * 10, i * 10 + 3);
		else
			fprintf(out, "%d,7,%d,%d\n", i, i * 10, i * 10 + 3);
	}
	fclose(out);

	/* The quoted newline is an error at its row. */
	assert_int_equal(side_cpu_read(path, "pre", &f), -1);
	assert_non_null(strstr(f.diag.error, "mixed.csv:50024: error: a field opened by '\"' runs "
	                                     "over the end of its line"));
	assert_int_equal(f.count, 50021);
	for (size_t i = 0; i < f.count; i++) {
		assert_int_equal(f.rows[i].display_time, (int64_t)i);
		assert_int_equal(f.rows[i].dur_ns, 3);
	}
	side_cpu_destroy(&f);
	tm_dir_remove(dir);
}

static void test_read_cpu_other_clock_freq(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct side_cpu_file f;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/frames-x-pre.csv", dir);
	/* A 10 MHz clock: one tick is 100 ns. */
	assert_int_equal(tm_file_write(path, "# clock_freq=10000000\n"
	                                     "display_time,thread_id,t_entry,t_exit\n"
	                                     "-5,18446744073709551615,1000,1250\n"),
	                 0);
	assert_int_equal(side_cpu_read(path, "pre", &f), 0);
	assert_int_equal(f.count, 1);
	assert_int_equal(f.rows[0].display_time, -5);
	assert_true(f.rows[0].thread_id == UINT64_MAX);
	assert_int_equal(f.rows[0].t_entry_ns, 100000);
	assert_int_equal(f.rows[0].dur_ns, 25000);
	assert_false(f.meta.has_session_end);
	side_cpu_destroy(&f);
	tm_dir_remove(dir);
}

static void test_read_gpu_valid(void **state)
{
	(void)state;
	struct side_gpu_file f;

	assert_int_equal(side_gpu_read(tm_data("gpu-s3-pre.csv"), "pre", &f), 0);
	assert_int_equal(f.count, 6);
	assert_string_equal(f.meta.gpu_clock, "vulkan");
	assert_double_equal(f.rows[0].period_ns, 1.0, 0);   /* "1.0000000000000000000" */
	assert_double_equal(f.rows[1].period_ns, 0, 0);     /* valid=0 */
	assert_double_equal(f.rows[4].period_ns, 52.5, 0);
	assert_true(f.rows[4].ticks == 5000);
	side_gpu_destroy(&f);

	assert_int_equal(side_gpu_read(tm_data("gpu-s3-post.csv"), "post", &f), 0);
	assert_int_equal(f.meta.gpu_ring_overflow, 4);
	side_gpu_destroy(&f);
}

static void test_read_wrong_side(void **state)
{
	(void)state;
	struct side_cpu_file f;

	assert_int_equal(side_cpu_read(tm_data("frames-s1-post.csv"), "pre", &f), -1);
	assert_non_null(strstr(f.diag.error, "frames-s1-post.csv:3: error:"));
	assert_non_null(strstr(f.diag.error, "side=pre"));
	side_cpu_destroy(&f);
}

static void test_read_truncated(void **state)
{
	(void)state;
	struct side_cpu_file f;

	/* Last row without a newline. */
	assert_int_equal(side_cpu_read(tm_data("frames-trunc-pre.csv"), "pre", &f), 0);
	assert_int_equal(f.count, 2);
	assert_int_equal(f.meta.truncated_rows, 1);
	assert_int_equal(f.diag.warning_count, 1);
	assert_non_null(strstr(f.diag.warnings[0], "frames-trunc-pre.csv:10: warning:"));
	side_cpu_destroy(&f);

	/* Last row with too few fields. */
	assert_int_equal(side_cpu_read(tm_data("frames-trunc-post.csv"), "post", &f), 0);
	assert_int_equal(f.count, 2);
	assert_int_equal(f.meta.truncated_rows, 1);
	assert_non_null(strstr(f.diag.warnings[0], "frames-trunc-post.csv:10: warning:"));
	side_cpu_destroy(&f);
}

/* Each bad file fails with one message naming the file and the line. */
static void test_read_errors(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		const char *where;
		const char *what;
	} cases[] = {
		{"bad-row-pre.csv", "bad-row-pre.csv:9: error:", "t_entry"},
		{"bad-short-pre.csv", "bad-short-pre.csv:9: error:", "expected 4 fields, got 2"},
		{"bad-long-pre.csv", "bad-long-pre.csv:8: error:", "expected 4 fields, got 5"},
		{"bad-header-pre.csv", "bad-header-pre.csv:2: error:",
		 "wrong column header: column 2 is \"thread\", expected \"thread_id\""},
		{"bad-garbage-pre.csv", "bad-garbage-pre.csv:1: error:", "wrong column header"},
		{"bad-bom-pre.csv", "bad-bom-pre.csv:1: error:", "UTF-8 byte-order mark"},
		{"bad-cut-header-pre.csv", "bad-cut-header-pre.csv:1: error:",
		 "wrong column header: only 3 columns"},
		{"bad-empty-pre.csv", "bad-empty-pre.csv: error:", "empty file"},
		{"does-not-exist-pre.csv", "does-not-exist-pre.csv: error:", "cannot open"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct side_cpu_file f;
		assert_int_equal(side_cpu_read(tm_data(cases[i].file), "pre", &f), -1);
		if (!strstr(f.diag.error, cases[i].where) || !strstr(f.diag.error, cases[i].what))
			fail_msg("%s: got \"%s\"", cases[i].file, f.diag.error);
		assert_null(strchr(f.diag.error, '\n'));
		side_cpu_destroy(&f);
	}
}

static void test_read_rejects_bad_numbers(void **state)
{
	(void)state;
	static const char *rows[] = {
		"1,2,3,4x", "1,2,-3x,4", "1,-2,3,4", "1,2,3,99999999999999999999",
		"1,2,3,1.5", "1,2,3,", "a,2,3,4", "1,2,0x10,4",
	};
	char dir[256], path[512], text[256];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/frames-x-pre.csv", dir);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct side_cpu_file f;
		snprintf(text, sizeof(text), "display_time,thread_id,t_entry,t_exit\n%s\n5,5,5,5\n",
		         rows[i]);
		assert_int_equal(tm_file_write(path, text), 0);
		if (side_cpu_read(path, NULL, &f) != -1)
			fail_msg("row \"%s\" was accepted", rows[i]);
		assert_non_null(strstr(f.diag.error, ":2: error:"));
		side_cpu_destroy(&f);
	}
	tm_dir_remove(dir);
}

/*
 * The bounds of what a per-side file may hold, each side of each bound:
 * the metadata's values, the 2^61 ns limit of a row's times (both ways
 * the reader checks them), a zero-length bracket on a clock that is not
 * 1 GHz, a GPU row's valid and period, a footer's counts, a last row
 * cut short or bad, CRLF line ends. One side of a bound moved is a file
 * refused, or a corrupt one taken.
 */
static void test_read_limits(void **state)
{
	(void)state;
	static const char cpu_header[] = "display_time,thread_id,t_entry,t_exit\n";
	static const char gpu_header[] = "display_time,gpu_ticks,gpu_period_ns,valid\n";
	static const struct {
		bool gpu;
		const char *before, *rows; /* lines before the header, and after it */
		const char *error;         /* NULL: read without error */
	} cases[] = {
		{false, "# clock_freq=0\n", "1,7,10,20\n", ":1: error: clock_freq is 0"},
		{false, "# bracket_correction_ns=1000000\n", "1,7,10,20\n", NULL},
		{false, "# bracket_correction_ns=1000001\n", "1,7,10,20\n",
		 ":1: error: bracket_correction_ns is not"},
		{false, "", "1,7,10,2305843009213693951\n", NULL},
		{false, "", "1,7,10,2305843009213693952\n", ":2: error: t_entry or t_exit is out of range"},
		{false, "# clock_freq=10000000\n", "1,7,1000,1000\n", NULL},
		{false, "# clock_freq=10000000\n", "1,7,1000,999\n", ":3: error: t_exit is before t_entry"},
		{false, "", "1,7,10,20\n# session_end dropped_queue_full=5\n", NULL},
		/* A key=value line after the rows is no metadata: it changes nothing. */
		{false, "", "1,7,10,20\n# clock_freq=0\n2,7,30,40\n", NULL},
		{false, "", "1,7,10,20\n# session_end dropped_queue_full=x\n",
		 ":3: error: dropped_queue_full"},
		/* A last row without newline is cut only when its last field is the bad one. */
		{false, "", "1,7,10,20\n2,7,30,4", NULL},
		{false, "", "1,7,10,20\n2,-7,30,40", ":3: error: column 2 (thread_id)"},
		{false, "# side=pre\r\n", "1,7,10,20\r\n", NULL},
		{true, "# gpu_valid_bits=0\n", "1,5,1.0,1\n", ":1: error: gpu_valid_bits is not"},
		{true, "# gpu_valid_bits=64\n", "1,5,1.0,1\n", NULL},
		{true, "# gpu_valid_bits=65\n", "1,5,1.0,1\n", ":1: error: gpu_valid_bits is not"},
		{true, "", "1,5,1.0,2\n", ":2: error: column 4 (valid) is not 0 or 1"},
		{true, "", "1,5,999999.5,1\n", NULL},
		/* A last row cut in a number's exponent is cut, not bad. */
		{true, "", "1,5,1.0,1\n2,5,1.5e", NULL},
		{true, "", "1,5,1.0,1\n2,5,1.5E", NULL},
		{true, "", "1,5,1000000,1\n", ":2: error: gpu_period_ns out of range"},
		{true, "", "# gpu_bracket_ns=1000000000\n1,5,1.0,1\n", NULL},
		{true, "", "# gpu_bracket_ns=1000000001\n1,5,1.0,1\n",
		 ":2: error: gpu_bracket_ns is not"},
	};
	char dir[256], path[512], text[512];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/limits.csv", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct side_cpu_file c;
		struct side_gpu_file g;
		const struct csvr_diag *d = cases[i].gpu ? &g.diag : &c.diag;
		const char *header = cases[i].gpu ? gpu_header : cpu_header;
		/* A CRLF file's header line ends in CRLF too. */
		bool crlf = strstr(cases[i].before, "\r\n") != NULL;
		snprintf(text, sizeof(text), "%s%.*s%s%s", cases[i].before, (int)strlen(header) - 1,
		         header, crlf ? "\r\n" : "\n", cases[i].rows);
		assert_int_equal(tm_file_write(path, text), 0);
		int r = cases[i].gpu ? side_gpu_read(path, NULL, &g) : side_cpu_read(path, NULL, &c);
		if (cases[i].error ? r != -1 || !strstr(d->error, cases[i].error) : r != 0)
			fail_msg("case %zu: status %d, \"%s\"", i, r, r ? d->error : "");
		if (cases[i].gpu)
			side_gpu_destroy(&g);
		else
			side_cpu_destroy(&c);
	}
	tm_dir_remove(dir);
}

/* A random integer's text of 1..20 digits (leading zeros at times), and its value. */
static void random_digits(char *text, unsigned *seed, uint64_t limit, uint64_t *value)
{
	unsigned len = 1 + (unsigned)(rand_r(seed) % 20);
	uint64_t v = 0;

	for (unsigned i = 0; i < len; i++) {
		unsigned d = (unsigned)(rand_r(seed) % 10);
		if (v > (limit - d) / 10)
			break; /* past the limit: stop before it */
		v = v * 10 + d;
		*text++ = (char)('0' + d);
	}
	if (v == 0 && text[-1] != '0')
		*text++ = '0';
	*text = '\0';
	*value = v;
}

/*
 * The integer fields of a per-side file read the same whichever way the
 * reader takes them (8 digits at a time, or byte by byte near the end of a
 * read chunk): random values of 1 to 20 digits, signs, leading zeros, the
 * limits; and one past a limit is refused.
 */
static void test_read_integers(void **state)
{
	(void)state;
	enum { ROWS = 20000 };
	static int64_t want_time[ROWS];
	static uint64_t want_ticks[ROWS];
	char dir[256], path[512];
	unsigned seed = 12345;
	size_t size = ROWS * 64 + 256, used = 0;
	char *text = malloc(size);

	assert_non_null(text);
	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/gpu-x-pre.csv", dir);
	used += (size_t)sprintf(text, "display_time,gpu_ticks,gpu_period_ns,valid\n");
	for (int i = 0; i < ROWS; i++) {
		char a[32], b[32];
		uint64_t mag;
		bool neg = rand_r(&seed) % 3 == 0;
		random_digits(a, &seed, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &mag);
		want_time[i] = neg ? (int64_t)(0 - mag) : (int64_t)mag;
		random_digits(b, &seed, UINT64_MAX, &want_ticks[i]);
		if (i == 0) { /* the limits */
			strcpy(a, "-9223372036854775808");
			want_time[i] = INT64_MIN;
			strcpy(b, "18446744073709551615");
			want_ticks[i] = UINT64_MAX;
		} else if (i == 1) {
			strcpy(a, "-0000000000000000009");
			want_time[i] = -9;
			strcpy(b, "00000000000000000000");
			want_ticks[i] = 0;
		}
		used += (size_t)sprintf(text + used, "%s%s,%s,1,1\n", neg && i > 0 ? "-" : "", a, b);
	}
	assert_int_equal(tm_file_write(path, text), 0);
	struct side_gpu_file f;
	if (side_gpu_read(path, NULL, &f) != 0)
		fail_msg("%s", f.diag.error);
	assert_int_equal(f.count, ROWS);
	for (int i = 0; i < ROWS; i++) {
		if (f.rows[i].display_time != want_time[i] || f.rows[i].ticks != want_ticks[i])
			fail_msg("row %d: %lld,%llu read as %lld,%llu", i + 2, (long long)want_time[i],
			         (unsigned long long)want_ticks[i], (long long)f.rows[i].display_time,
			         (unsigned long long)f.rows[i].ticks);
	}
	side_gpu_destroy(&f);

	static const char *const past[] = {"9223372036854775808,1,1,1", "-9223372036854775809,1,1,1",
	                                   "1,18446744073709551616,1,1", "1,-1,1,1", "-,1,1,1",
	                                   "1,123456789012345678901,1,1"};
	for (size_t i = 0; i < sizeof(past) / sizeof(past[0]); i++) {
		/* Rows after it, so that it is not near the end of the file. */
		snprintf(text, size, "display_time,gpu_ticks,gpu_period_ns,valid\n%s\n%s", past[i],
		         "5,5,1,1\n5,5,1,1\n5,5,1,1\n5,5,1,1\n");
		assert_int_equal(tm_file_write(path, text), 0);
		if (side_gpu_read(path, NULL, &f) != -1)
			fail_msg("row \"%s\" was accepted", past[i]);
		assert_non_null(strstr(f.diag.error, ":2: error:"));
		side_gpu_destroy(&f);
	}
	free(text);
	tm_dir_remove(dir);
}

/*
 * A bad row's message names its first bad field and what is wrong with
 * it (negative, out of range, or not a number of the column's kind); a
 * field after the first that begins with '#' is a bad field, not the
 * start of a comment line.
 */
static void test_read_field_messages(void **state)
{
	(void)state;
	static const struct {
		const char *row, *error;
	} cases[] = {
		{"1,x,-y,4",
		 ":2: error: column 2 (thread_id) is not a non-negative integer: \"x\""},
		{"1,-2,3,4", ":2: error: column 2 (thread_id) is negative (expected a non-negative "
		             "integer): \"-2\""},
		{"1,2,3,99999999999999999999", ":2: error: column 4 (t_exit) is out of range "
		                              "(expected an integer): \"99999999999999999999\""},
		{"1,#7,10,20",
		 ":2: error: column 2 (thread_id) is not a non-negative integer: \"#7\""},
	};
	char dir[256], path[512], text[256];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/frames-x-pre.csv", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct side_cpu_file f;
		snprintf(text, sizeof(text), "display_time,thread_id,t_entry,t_exit\n%s\n5,5,5,5\n",
		         cases[i].row);
		assert_int_equal(tm_file_write(path, text), 0);
		if (side_cpu_read(path, NULL, &f) != -1 || !strstr(f.diag.error, cases[i].error))
			fail_msg("row \"%s\": \"%s\"", cases[i].row, f.diag.error);
		side_cpu_destroy(&f);
	}
	tm_dir_remove(dir);
}

/* Writes "# note=" and 'x's: a line of @p len bytes, then its '\n'. */
static size_t put_long_line(char *text, size_t len)
{
	size_t n = (size_t)sprintf(text, "# note=");

	memset(text + n, 'x', len - n);
	text[len] = '\n';
	text[len + 1] = '\0';
	return len + 1;
}

/*
 * The lines around the rows: a '#' line of CSVR_COMMENT_MAX - 1 bytes is
 * read whole and one a byte longer is cut with a warning, before the
 * column header and after the rows; a '#' line saved by a spreadsheet (in
 * quotes, a quote doubled in them, a CR inside them at its end) reads as
 * it was written; blank lines before the header are skipped; a UTF-8
 * byte-order mark is one only at the start of the file (elsewhere the
 * header is wrong); a line before the header longer than the reader's
 * buffer is an error; a header in quotes too long to unquote is read as
 * it is (a wrong header).
 */
static void test_read_comment_lines(void **state)
{
	(void)state;
	static const char header[] = "display_time,thread_id,t_entry,t_exit\n";
	char dir[256], path[512];
	static char text[3 * CSVR_COMMENT_MAX + 256];
	struct side_cpu_file f;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/frames-x-pre.csv", dir);
	for (int after = 0; after < 2; after++) {
		for (size_t len = CSVR_COMMENT_MAX - 1; len <= CSVR_COMMENT_MAX; len++) {
			size_t n = 0;
			if (!after)
				n += put_long_line(text, len);
			n += (size_t)sprintf(text + n, "%s1,7,10,20\n", header);
			if (after)
				n += put_long_line(text + n, len);
			strcpy(text + n, "# session_end dropped_queue_full=3\n");
			assert_int_equal(tm_file_write(path, text), 0);
			assert_int_equal(side_cpu_read(path, NULL, &f), 0);
			assert_int_equal(f.meta.dropped_queue_full, 3);
			const char *want = after ? ":3: warning: '#' line longer than 2047 bytes"
			                         : ":1: warning: '#' line longer than 2047 bytes";
			if (len < CSVR_COMMENT_MAX ? f.diag.warning_count != 0
			                           : f.diag.warning_count != 1 ||
			                                     !strstr(f.diag.warnings[0], want))
				fail_msg("a line of %zu bytes: %d warnings, \"%s\"", len,
				         f.diag.warning_count, f.diag.warnings[0]);
			side_cpu_destroy(&f);
		}
	}

	snprintf(text, sizeof(text), "\"# target_layer=a\"\"b\"\" c\",,\n\"# layer=x\r\",,\n"
	         "\n\r\n%s1,7,10,20\n", header);
	assert_int_equal(tm_file_write(path, text), 0);
	if (side_cpu_read(path, NULL, &f) != 0)
		fail_msg("%s", f.diag.error);
	assert_string_equal(f.meta.target_layer, "a\"b\" c");
	assert_string_equal(f.meta.layer, "x");
	assert_int_equal(f.count, 1);
	side_cpu_destroy(&f);

	snprintf(text, sizeof(text), "# side=pre\n\xef\xbb\xbf%s1,7,10,20\n", header);
	assert_int_equal(tm_file_write(path, text), 0);
	assert_int_equal(side_cpu_read(path, NULL, &f), -1);
	assert_non_null(strstr(f.diag.error, ":2: error: wrong column header: column 1 is"));
	side_cpu_destroy(&f);

	/* A line before the header that does not fit the reader's buffer (1 MiB). */
	size_t big = ((size_t)1 << 20) + 100;
	char *huge = malloc(big + sizeof(header) + 64);
	assert_non_null(huge);
	strcpy(huge, "# side=pre\n");
	size_t at = strlen(huge); /* before the line is put after it */
	at += put_long_line(huge + at, big);
	sprintf(huge + at, "%s1,7,10,20\n", header);
	assert_int_equal(tm_file_write(path, huge), 0);
	free(huge);
	assert_int_equal(side_cpu_read(path, NULL, &f), -1);
	if (!strstr(f.diag.error, ":2: error: line too long"))
		fail_msg("%s", f.diag.error);
	side_cpu_destroy(&f);

	/* A header in quotes too long to be unquoted (its message's buffer) is taken as it is. */
	size_t n = (size_t)sprintf(text, "%s",
	                           "\"display_time\",\"thread_id\",\"t_entry\",\"t_exit\",\"");
	memset(text + n, 'x', 1000);
	strcpy(text + n + 1000, "\"\n1,7,10,20,1\n");
	assert_int_equal(tm_file_write(path, text), 0);
	assert_int_equal(side_cpu_read(path, NULL, &f), -1);
	if (!strstr(f.diag.error,
	            ":1: error: wrong column header: column 1 is \"\"display_time\"\""))
		fail_msg("%s", f.diag.error);
	side_cpu_destroy(&f);
	tm_dir_remove(dir);
}

/*
 * The footers' words are whole words: "session_end" and "gate_tripped"
 * with more letters after them are other comments (nothing), blanks or a
 * tab after them are theirs; "# gpu_gate_tripped=" is a trip with 1 only.
 */
static void test_read_footer_words(void **state)
{
	(void)state;
	static const char cpu[] = "display_time,thread_id,t_entry,t_exit\n1,7,10,20\n";
	static const char gpu[] = "display_time,gpu_ticks,gpu_period_ns,valid\n1,5,1.0,1\n";
	char dir[256], path[512], text[512];
	struct side_cpu_file c;
	struct side_gpu_file g;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/x.csv", dir);
	snprintf(text, sizeof(text), "%s# session_ended dropped_queue_full=5\n"
	         "# gate_trippedness display_time=7\n", cpu);
	assert_int_equal(tm_file_write(path, text), 0);
	if (side_cpu_read(path, NULL, &c) != 0)
		fail_msg("%s", c.diag.error);
	assert_false(c.meta.has_session_end);
	assert_int_equal(c.meta.dropped_queue_full, 0);
	assert_int_equal(c.meta.gate_trip_count, 0);
	side_cpu_destroy(&c);

	snprintf(text, sizeof(text), "%s# session_end\tdropped_queue_full=6\n"
	         "# gate_tripped\tdisplay_time=7\n", cpu);
	assert_int_equal(tm_file_write(path, text), 0);
	if (side_cpu_read(path, NULL, &c) != 0)
		fail_msg("%s", c.diag.error);
	assert_true(c.meta.has_session_end);
	assert_int_equal(c.meta.dropped_queue_full, 6);
	assert_int_equal(c.meta.gate_trip_count, 1);
	assert_int_equal(c.meta.gate_trips[0], 7);
	side_cpu_destroy(&c);

	for (int tripped = 0; tripped < 2; tripped++) {
		snprintf(text, sizeof(text), "%s# gpu_gate_tripped=%d\n", gpu, tripped);
		assert_int_equal(tm_file_write(path, text), 0);
		if (side_gpu_read(path, NULL, &g) != 0)
			fail_msg("%s", g.diag.error);
		assert_int_equal(g.meta.gate_tripped_unknown_frame, tripped);
		side_gpu_destroy(&g);
	}
	tm_dir_remove(dir);
}

/*
 * The statistics of a merged file's columns (columns.c, `xrlm stats` and
 * the workbook): negative_target_frames counts the frames below 0, not
 * those at 0; a median interval of 0 gives no frame rate (0), not an
 * infinite one; a blank (NAN) cell is left out of its column only.
 */
static void test_columns_summary(void **state)
{
	(void)state;
	for (int streaming = 0; streaming < 2; streaming++) {
		struct columns c;
		struct merge_summary s;
		memset(&s, 0, sizeof(s));
		if (streaming)
			assert_int_equal(columns_create_stream(&c, NULL), 0);
		else
			assert_int_equal(columns_create(&c, 0), 0);
		assert_int_equal(columns_add(&c, 0.0, 1, NAN, NAN, 0), 0);
		assert_int_equal(columns_add(&c, -1.0, 2, 5, NAN, 0), 0);
		assert_int_equal(columns_add(&c, 3.0, NAN, 7, 1, 0), 0);
		assert_int_equal(columns_summarize(&c, &s), 0);
		assert_int_equal(s.frame_count, 3);
		assert_int_equal(s.negative_target_frames, 1);
		assert_int_equal(s.gpu_frame_count, 2);
		assert_int_equal(s.target_cpu_pct.count, 2);
		assert_int_equal(s.target_gpu_pct.count, 1);
		assert_true(s.frame_interval_us.median == 0 && s.frame_rate_hz == 0);
		columns_destroy(&c);
	}
}

/* ---- spill ---- */

/* Appends @p n items i (as uint64_t) to @p sp and reads them all back. */
static void spill_round_trip(struct spill *sp, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t *slot = spill_append(sp);
		assert_non_null(slot);
		*slot = i * 2654435761u;
	}
	assert_int_equal(spill_flush(sp), 0);
	uint64_t got[1000];
	for (uint64_t first = 0; first < n; first += 1000) {
		size_t k = n - first < 1000 ? (size_t)(n - first) : 1000;
		assert_int_equal(spill_read(sp, first, k, got), 0);
		for (size_t i = 0; i < k; i++)
			assert_int_equal(got[i], (first + i) * 2654435761u);
	}
}

/*
 * An item patched in the file, at an offset inside it (a joined record's
 * frame interval, set when the next row comes, after a flush took it):
 * the patched field changes, the others stay.
 */
static void test_spill_patch(void **state)
{
	(void)state;
	struct pair {
		uint64_t key, value;
	};
	char dir[256];
	struct spill sp;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(spill_init(&sp, sizeof(struct pair), 64, dir), 0);
	for (uint64_t i = 0; i < 1000; i++) {
		struct pair *slot = spill_append(&sp);
		assert_non_null(slot);
		*slot = (struct pair){i, 0};
		if (i == 0)
			continue;
		uint64_t v = i * 7;
		assert_int_equal(spill_patch(&sp, i - 1, offsetof(struct pair, value), &v, sizeof(v)), 0);
	}
	assert_true(sp.fd >= 0); /* the patches went to the file too */
	assert_int_equal(spill_flush(&sp), 0);
	for (uint64_t i = 0; i + 1 < 1000; i++) {
		struct pair got;
		assert_int_equal(spill_read(&sp, i, 1, &got), 0);
		assert_int_equal(got.key, i);
		assert_int_equal(got.value, (i + 1) * 7);
	}
	spill_destroy(&sp);
	tm_dir_remove(dir);
}

/* Memory starts small and doubles up to the bound; past it, the file. */
/* ---- the join's window ---- */

struct tw_row {
	uint64_t key;
	uint64_t pos; /* place in the source */
};

struct tw_source {
	const struct tw_row *rows;
	size_t n, next, batch;
};

static uint64_t tw_hash(const void *row)
{
	return ((const struct tw_row *)row)->key * 0x9e3779b97f4a7c15ull;
}

static bool tw_same(const void *a, const void *b)
{
	return ((const struct tw_row *)a)->key == ((const struct tw_row *)b)->key;
}

static int tw_pull(void *ctx, const void **rows, size_t *n)
{
	struct tw_source *s = ctx;

	*n = s->n - s->next < s->batch ? s->n - s->next : s->batch;
	*rows = s->rows + s->next;
	s->next += *n;
	return s->next < s->n ? 1 : 0;
}

/*
 * Rows far out of order (whole blocks of 1500 reversed: up to 1499 rows
 * from their place, beyond the scan ahead of the cursor, within the
 * window) are all found through the index, the earliest of a repeated key
 * first; a key the source lacks is not found; and rows well behind the
 * cursor are dropped, so memory stays bounded, without losing any that
 * can still match. The same with a lazy window (*state), which pulls
 * rows only as a lookup needs them.
 */
static void test_window_far_rows(void **state)
{
	const bool lazy = *(const bool *)*state;
	enum { N = 30000, BLOCK = 1500 };
	struct tw_row *rows = malloc(N * sizeof(*rows));
	assert_non_null(rows);
	for (size_t i = 0; i < N; i++) {
		size_t b = i / BLOCK * BLOCK, k = b + (BLOCK - 1 - i % BLOCK);
		/* Every 100th key is written twice, in neighbouring places. */
		rows[i].key = k % 100 == 1 ? k - 1 : k;
		rows[i].pos = i;
	}
	struct tw_source src = {.rows = rows, .n = N, .batch = 333};
	const struct window_source ws = {.row_size = sizeof(struct tw_row), .hash = tw_hash,
	                                 .same = tw_same, .pull = tw_pull, .ctx = &src, .lazy = lazy};
	struct window w;
	assert_int_equal(window_init(&w, &ws), 0);

	for (uint64_t key = 0; key < N; key++) {
		const struct tw_row k = {.key = key}, *got;
		const void *found;
		bool twice = key % 100 == 0, absent = key % 100 == 1;
		uint64_t m = window_take(&w, &k, &found);
		if (absent) {
			assert_int_equal(m, WINDOW_NONE);
			continue;
		}
		assert_int_not_equal(m, WINDOW_NONE);
		got = found;
		assert_int_equal(got->key, key);
		assert_int_equal(m, got->pos);
		if (!twice)
			continue;
		/* The two rows of the key: the earlier one came first. */
		uint64_t m2 = window_take(&w, &k, &found);
		assert_int_not_equal(m2, WINDOW_NONE);
		assert_true(m < m2);
		assert_int_equal(((const struct tw_row *)found)->key, key);
	}
	assert_int_equal(window_drain(&w), 0);
	assert_int_equal(w.total, N);
	assert_true(w.cap <= 4 * (WINDOW_AHEAD + WINDOW_BEHIND));
	window_destroy(&w);
	free(rows);
}

static bool window_lazy[] = {false, true};

/*
 * A lazy window pulls only what a lookup needs (rows in order: JOIN_SCAN
 * past the cursor, not WINDOW_AHEAD), so its source may be another
 * thread's progress; an eager one holds WINDOW_AHEAD rows ahead.
 */
static void test_window_lazy_pulls(void **state)
{
	(void)state;
	enum { N = 20000 };
	struct tw_row *rows = malloc(N * sizeof(*rows));
	assert_non_null(rows);
	for (size_t i = 0; i < N; i++)
		rows[i] = (struct tw_row){.key = i, .pos = i};
	for (int lazy = 0; lazy < 2; lazy++) {
		struct tw_source src = {.rows = rows, .n = N, .batch = 64};
		const struct window_source ws = {.row_size = sizeof(struct tw_row), .hash = tw_hash,
		                                 .same = tw_same, .pull = tw_pull, .ctx = &src,
		                                 .lazy = lazy};
		struct window w;
		assert_int_equal(window_init(&w, &ws), 0);
		for (uint64_t key = 0; key < 1000; key++) {
			const struct tw_row k = {.key = key};
			const void *found;
			assert_int_equal(window_take(&w, &k, &found), key);
			if (lazy)
				assert_true(src.next <= key + 1 + JOIN_SCAN + src.batch);
			else
				assert_true(src.next >= key + WINDOW_AHEAD);
		}
		/* A key missing from the rows near the cursor: both look WINDOW_AHEAD on. */
		const struct tw_row far = {.key = 1000 + WINDOW_AHEAD - 2}, beyond = {.key = N - 1};
		const void *found;
		assert_int_equal(window_take(&w, &far, &found), far.key);
		assert_true(src.next >= 1000 + WINDOW_AHEAD);
		assert_int_equal(window_take(&w, &beyond, &found), WINDOW_NONE);
		/* The rows never pulled are pulled by the drain, and counted. */
		assert_true(src.next < N);
		assert_int_equal(window_drain(&w), 0);
		assert_int_equal(w.total, N);
		window_destroy(&w);
	}
	free(rows);
}

/*
 * Rows the other side lacks before the ones it has (post's frames that
 * pre's full queue dropped), more than the scan ahead of the cursor and
 * fewer than the window holds ahead: the cursor moves past the first
 * match, found far ahead, so the window follows the rows after it and
 * every one of them is matched, eager or lazy.
 */
static void test_window_rows_skipped(void **state)
{
	(void)state;
	enum { SKIPPED = 3000, N = SKIPPED + 20000 };
	struct tw_row *rows = malloc(N * sizeof(*rows));
	assert_non_null(rows);
	for (size_t i = 0; i < N; i++)
		rows[i] = (struct tw_row){.key = i < SKIPPED ? 1000000 + i : i - SKIPPED, .pos = i};
	for (int lazy = 0; lazy < 2; lazy++) {
		struct tw_source src = {.rows = rows, .n = N, .batch = 100};
		const struct window_source ws = {.row_size = sizeof(struct tw_row), .hash = tw_hash,
		                                 .same = tw_same, .pull = tw_pull, .ctx = &src,
		                                 .lazy = lazy};
		struct window w;
		assert_int_equal(window_init(&w, &ws), 0);
		for (uint64_t key = 0; key < N - SKIPPED; key++) {
			const struct tw_row k = {.key = key};
			const void *found;
			if (window_take(&w, &k, &found) != key + SKIPPED)
				fail_msg("lazy %d: key %llu not matched", lazy, (unsigned long long)key);
		}
		assert_int_equal(window_drain(&w), 0);
		assert_int_equal(w.total, N);
		window_destroy(&w);
	}
	free(rows);
}

static void test_spill_grows(void **state)
{
	(void)state;
	char dir[256];
	struct spill sp;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(spill_init(&sp, sizeof(uint64_t), 100000, dir), 0);
	assert_int_equal(sp.mem_cap, SPILL_FIRST_BYTES / sizeof(uint64_t));
	spill_round_trip(&sp, 50000);
	assert_int_equal(sp.mem_cap, 65536); /* 8192 doubled three times */
	assert_int_equal(sp.fd, -1);         /* all in memory: no file */
	spill_destroy(&sp);

	assert_int_equal(spill_init(&sp, sizeof(uint64_t), 20000, dir), 0);
	spill_round_trip(&sp, 123457);
	assert_int_equal(sp.mem_cap, 20000); /* grown to the bound, not past it */
	assert_true(sp.fd >= 0);
	/* The file is closed with the spill (it holds the disk space). */
	int fd = sp.fd;
	spill_destroy(&sp);
	assert_int_equal(fcntl(fd, F_GETFD), -1);

	/* A bound below the first allocation: the memory is the bound. */
	assert_int_equal(spill_init(&sp, sizeof(uint64_t), 50, dir), 0);
	assert_int_equal(sp.mem_cap, 50);
	spill_round_trip(&sp, 1234);
	assert_int_equal(sp.mem_cap, 50);
	spill_destroy(&sp);
	tm_dir_remove(dir);
}

/* The appender of test_spill_shared: N items, published every 37 and at the end. */
#define SHARED_ITEMS 200000

static void *shared_appender(void *arg)
{
	struct spill *sp = arg;

	for (uint64_t i = 0; i < SHARED_ITEMS; i++) {
		uint64_t *slot = spill_append(sp);
		if (!slot)
			break;
		*slot = i * 2654435761u;
		if (i % 37 == 36)
			spill_publish(sp, false);
	}
	spill_publish(sp, true);
	return NULL;
}

/*
 * A shared spill read while it is appended to: every item, in order, once,
 * through a flush every 50 items (the memory's bound), so the appender
 * often reuses the memory the reader copies from; the reader's end comes
 * with the appender's. Under TSan (the merge tests run there) a copy
 * outside the lock is a reported race (2 runs of 3 with the copy moved
 * out of it).
 */
static void test_spill_shared(void **state)
{
	(void)state;
	char dir[256];
	struct spill sp;
	pthread_t appender;
	uint64_t got[500], next = 0;
	size_t n;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(spill_init(&sp, sizeof(uint64_t), 50, dir), 0);
	assert_int_equal(spill_share(&sp), 0);
	assert_int_equal(pthread_create(&appender, NULL, shared_appender, &sp), 0);
	do {
		assert_int_equal(spill_read_published(&sp, next, 1 + next % 500, got, &n), 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(got[i], (next + i) * 2654435761u);
		next += n;
	} while (n > 0);
	pthread_join(appender, NULL);
	assert_int_equal(next, SHARED_ITEMS);
	assert_true(sp.fd >= 0); /* it went through the file */
	spill_destroy(&sp);
	tm_dir_remove(dir);
}

/*
 * The appender of test_spill_shared_readers, as the join appends its
 * records: item i is set to i when appended, and to its final value when
 * item i + 1 is (the frame interval a record gets from the next row);
 * items but the last are published every 7, and the memory is flushed
 * every 997 while the readers copy.
 */
static void *patching_appender(void *arg)
{
	struct spill *sp = arg;

	for (uint64_t i = 0; i < SHARED_ITEMS; i++) {
		uint64_t *slot = spill_append(sp);
		if (!slot)
			break;
		*slot = i;
		if (i > 0) {
			uint64_t final = (i - 1) * 2654435761u;
			if (spill_patch(sp, i - 1, 0, &final, sizeof(final)) != 0)
				break;
		}
		if (i % 7 == 6)
			spill_publish_to(sp, i, false);
		if (i % 997 == 996 && spill_flush(sp) != 0)
			break;
	}
	uint64_t last = (uint64_t)(SHARED_ITEMS - 1) * 2654435761u;
	spill_patch(sp, SHARED_ITEMS - 1, 0, &last, sizeof(last));
	spill_publish(sp, true);
	return NULL;
}

/* A reader of test_spill_shared_readers: counts the items read with their final value. */
static void *checking_reader(void *arg)
{
	struct spill *sp = arg;
	uint64_t got[300], next = 0, good = 0;
	size_t n;

	do {
		if (spill_read_published(sp, next, 1 + next % 300, got, &n) != 0)
			break;
		for (size_t i = 0; i < n; i++)
			good += got[i] == (next + i) * 2654435761u;
		next += n;
	} while (n > 0);
	return (void *)(uintptr_t)good;
}

/*
 * Three readers of a shared spill whose appender patches its last item
 * and flushes beside them (the statistics reading the join's records):
 * each reads every item once, never one before its patch (a count
 * published past the patched items fails this), and under TSan a flush
 * outside the lock is a reported race.
 */
static void test_spill_shared_readers(void **state)
{
	(void)state;
	char dir[256];
	struct spill sp;
	pthread_t appender, reader[3];

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(spill_init(&sp, sizeof(uint64_t), 4096, dir), 0);
	assert_int_equal(spill_share(&sp), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&reader[i], NULL, checking_reader, &sp), 0);
	assert_int_equal(pthread_create(&appender, NULL, patching_appender, &sp), 0);
	pthread_join(appender, NULL);
	for (int i = 0; i < 3; i++) {
		void *good;
		pthread_join(reader[i], &good);
		assert_int_equal((uintptr_t)good, SHARED_ITEMS);
	}
	assert_int_equal(sp.count, SHARED_ITEMS);
	assert_true(sp.fd >= 0); /* it went through the file */
	spill_destroy(&sp);
	tm_dir_remove(dir);
}

/* ---- the rows writer ---- */

/* What a test's fill sees: the rows it may format. */
struct ready_fill {
	size_t ready; /* set by the test, read by the workers: atomics */
	int too_early; /* rows formatted before they were ready */
	int calls;
};

/* The test fills' rows: row i is "i\n", as merged_write_fill_fn formats them. */
static size_t numbered_rows(size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	char *p = buf;

	for (; first < last && (size_t)(p - buf) + MERGED_ROW_MAX <= cap; first++)
		p += sprintf(p, "%zu\n", first);
	*used = (size_t)(p - buf);
	return first;
}

/* Checks that @p in holds rows 0 to @p count - 1 of numbered_rows() and nothing after. */
static void check_numbered_rows(FILE *in, size_t count)
{
	char line[64];

	for (size_t i = 0; i < count; i++) {
		assert_non_null(fgets(line, sizeof(line), in));
		assert_int_equal(strtoull(line, NULL, 10), i);
	}
	assert_null(fgets(line, sizeof(line), in));
}

/* merged_write_fill_fn: numbered rows; counts rows asked for before they were ready. */
static size_t ready_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	struct ready_fill *f = ctx;

	__atomic_add_fetch(&f->calls, 1, __ATOMIC_SEQ_CST);
	if (last > __atomic_load_n(&f->ready, __ATOMIC_SEQ_CST))
		__atomic_add_fetch(&f->too_early, 1, __ATOMIC_SEQ_CST);
	return numbered_rows(first, last, buf, cap, used);
}

/*
 * Rows are formatted only once ready, by any number of workers, and reach
 * the file after the summary, in order; a cancelled writer stops without
 * writing and without waiting for rows that never become ready.
 */
static void test_rows_writer(void **state)
{
	(void)state;
	char dir[256], path[512], msg[256];
	const size_t count = 20000;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	for (unsigned threads = 1; threads <= 8; threads += 3) {
		struct merged_writer o;
		struct merged_rows rows;
		struct ready_fill f = {0};

		workers_set_max(threads);
		unlink(path);
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		merged_write_rows_start(&rows, &o, count, 0, ready_fill, &f);
		for (size_t r = 1000; r <= count; r += 1000) {
			__atomic_store_n(&f.ready, r, __ATOMIC_SEQ_CST);
			merged_write_rows_ready(&rows, r);
			usleep(200);
		}
		o.len = (size_t)sprintf(o.buf, "# summary\n");
		merged_write_rows_finish(&rows);
		assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);
		assert_int_equal(f.too_early, 0);

		FILE *in = fopen(path, "r");
		char line[64];
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof(line), in));
		assert_string_equal(line, "# summary\n");
		check_numbered_rows(in, count);
		fclose(in);

		/* Cancelled with every row formatted and given, the file never
		 * opened to them: no write, no hang. */
		struct ready_fill all = {.ready = count};
		unlink(path);
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		merged_write_rows_start(&rows, &o, count, count, ready_fill, &all);
		usleep(2000);
		merged_write_rows_cancel(&rows);
		assert_int_equal(lseek(o.fd, 0, SEEK_END), 0);
		merged_write_abort(&o);
		assert_int_equal(access(path, F_OK), -1);

		/* Cancelled with nothing ready: no fill, no file, no hang. */
		struct ready_fill none = {0};
		unlink(path);
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		merged_write_rows_start(&rows, &o, count, 0, ready_fill, &none);
		merged_write_rows_cancel(&rows);
		merged_write_abort(&o);
		assert_int_equal(none.calls, 0);
		assert_int_equal(access(path, F_OK), -1);
	}
	workers_set_max(WORKERS_DEFAULT);

	/* One row, not ready: not formatted, however long the writer is given
	 * (the merge's rows are all ready at once, or none: a row formatted
	 * before would lack its every-function cells' frames). */
	struct merged_writer o;
	struct merged_rows rows;
	struct ready_fill one = {0};
	assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
	merged_write_rows_start(&rows, &o, 1, 0, ready_fill, &one);
	for (int i = 0; i < 100 && __atomic_load_n(&one.calls, __ATOMIC_SEQ_CST) == 0; i++)
		usleep(1000);
	merged_write_rows_cancel(&rows);
	merged_write_abort(&o);
	assert_int_equal(one.calls, 0);
	tm_dir_remove(dir);
}

/* merged_write_fill_fn: numbered rows from 1000 on (those before went as a prefix). */
static size_t after_prefix_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                                size_t *used)
{
	(void)ctx;
	char *p = buf;

	for (; first < last && (size_t)(p - buf) + MERGED_ROW_MAX <= cap; first++)
		p += sprintf(p, "%zu\n", 1000 + first);
	*used = (size_t)(p - buf);
	return first;
}

/*
 * Rows formatted before the writer started (the rows formatted early)
 * go after the summary and before the writer's first row, in the order
 * given, in pieces of any size (empty ones too) and number (more than one
 * writev() takes); with no rows of its own the writer starts no thread
 * and still writes them.
 */
static void test_rows_writer_prefix(void **state)
{
	(void)state;
	char dir[256], path[512], msg[256];
	/* Rows 0 to 999 in pieces of 1, 10, 100 and 889 rows. */
	static char text[8000];
	const size_t cuts[] = {0, 1, 11, 111, 1000};
	size_t at[5], len = 0;

	for (size_t i = 0; i < 1000; i++) {
		for (int c = 0; c < 5; c++)
			if (cuts[c] == i)
				at[c] = len;
		len += (size_t)sprintf(text + len, "%zu\n", i);
	}
	at[4] = len;
	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	for (size_t later = 0; later <= 5000; later += 5000) {
		struct merged_writer o;
		struct merged_rows rows;

		workers_set_max(4);
		unlink(path);
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		merged_write_rows_start(&rows, &o, later, later, after_prefix_fill, NULL);
		assert_int_equal(rows.started, later > 0);
		for (int c = 0; c < 4; c++)
			assert_int_equal(merged_write_rows_prefix(&rows, text + at[c], at[c + 1] - at[c]), 0);
		o.len = (size_t)sprintf(o.buf, "# summary\n");
		merged_write_rows_finish(&rows);
		assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);

		FILE *in = fopen(path, "r");
		char line[64];
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof(line), in));
		assert_string_equal(line, "# summary\n");
		check_numbered_rows(in, 1000 + later);
		fclose(in);
	}

	/* Each row a piece, each followed by an empty one: 2000 pieces, more
	 * than IOV_MAX, the last one empty. */
	struct merged_writer o;
	struct merged_rows rows;
	unlink(path);
	assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
	merged_write_rows_start(&rows, &o, 0, 0, after_prefix_fill, NULL);
	for (size_t i = 0, off = 0, n; i < 1000; i++, off += n) {
		n = (size_t)(strchr(text + off, '\n') + 1 - (text + off));
		assert_int_equal(merged_write_rows_prefix(&rows, text + off, n), 0);
		assert_int_equal(merged_write_rows_prefix(&rows, text + off + n, 0), 0);
	}
	assert_true(rows.prefix_n > IOV_MAX);
	o.len = (size_t)sprintf(o.buf, "# summary\n");
	merged_write_rows_finish(&rows);
	assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);
	FILE *in = fopen(path, "r");
	char line[64];
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	assert_string_equal(line, "# summary\n");
	check_numbered_rows(in, 1000);
	fclose(in);
	workers_set_max(WORKERS_DEFAULT);
	tm_dir_remove(dir);
}

/* merge_early_fill_fn: numbered rows, their frames final at once. */
static size_t early_numbered(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                             size_t *used, int *state)
{
	(void)ctx;
	*state = 1;
	return numbered_rows(first, last, buf, cap, used);
}

/* merged_write_fill_fn: numbered rows after the *(size_t *)ctx formatted early. */
static size_t later_numbered(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                             size_t *used)
{
	size_t early = *(const size_t *)ctx;

	return numbered_rows(early + first, early + last, buf, cap, used) - early;
}

/* merge_early_at_fn: *(off_t *)ctx, or not known yet when it is negative. */
static int given_at(void *ctx, off_t *at)
{
	*at = *(const off_t *)ctx;
	return *at >= 0;
}

/* merge_early_fill_fn: numbered rows, their frames final once *(atomic_bool *)ctx is. */
static size_t early_when_final(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                               size_t *used, int *state)
{
	if (!atomic_load((atomic_bool *)ctx)) {
		*state = 0;
		*used = 0;
		return first;
	}
	*state = 1;
	return numbered_rows(first, last, buf, cap, used);
}

/*
 * The sandwich's end (merge_early_final()) while most blocks are not taken
 * yet (ten blocks, four threads waiting for their frames): every block is
 * still formatted early, none left to the merged file's writers.
 */
static void test_early_rows_all_after_final(void **state)
{
	(void)state;
	const size_t rows = 10 * MERGE_EARLY_BLOCK_ROWS;
	atomic_bool final = false;
	struct merge_early e;

	workers_set_max(4);
	merge_early_start(&e, rows, early_when_final, &final);
	assert_true(e.started);
	assert_int_equal(e.threads, MERGE_EARLY_THREADS);
	assert_int_equal(merge_early_final(&e), rows); /* before any block is formatted */
	atomic_store(&final, true);
	assert_int_equal(merge_early_finish(&e, true), rows);
	for (size_t b = 0; b < e.blocks; b++) {
		char first[32];
		int n = snprintf(first, sizeof(first), "%zu\n", b * MERGE_EARLY_BLOCK_ROWS);
		assert_true(atomic_load(&e.block[b].done));
		assert_memory_equal(e.block[b].buf, first, (size_t)n);
	}
	merge_early_destroy(&e);
	workers_set_max(WORKERS_DEFAULT);
}

/*
 * Rows formatted early and written ahead of the summary
 * (merge_early_write()) at a guess of its length: kept where they are when
 * the guess was right, written again in their turn otherwise (a longer
 * guess left bytes past the file's end, which are cut; a shorter one wrote
 * over the summary's place), and when the rows formatted early are thrown
 * away (a broken bound: merge.c gives none); not written ahead when the
 * sandwich ends before the guess. The file's bytes are the same every
 * time: the summary, then every row once, in order.
 */
static void test_early_rows_written_ahead(void **state)
{
	(void)state;
	char dir[256], path[512], msg[256], line[64];
	const struct {
		off_t guess; /* the summary has 10 bytes; -1: never guessed */
		bool thrown; /* the rows formatted early are not given */
	} cases[] = {{10, false}, {13, false}, {4, false}, {-1, false}, {10, true}};
	/* Blocks of 512, 512 and 276 rows, all early: a longer guess ends past the rows. */
	const size_t early_rows = 1300, total = 1300;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	workers_set_max(4);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct merge_early e;
		struct merged_writer o;
		struct merged_rows rows;
		off_t guess = cases[c].guess;
		size_t first_later;

		unlink(path);
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		merge_early_start(&e, early_rows, early_numbered, NULL);
		assert_true(e.started);
		if (guess < 0) {
			first_later = merge_early_final(&e); /* the sandwich's end comes first */
			merge_early_write(&e, o.fd, given_at, &guess);
			assert_int_equal(e.written, 0);
		} else {
			merge_early_write(&e, o.fd, given_at, &guess);
			assert_int_equal(e.written, e.blocks);
			first_later = merge_early_final(&e);
			assert_int_equal(first_later, early_rows);
		}
		assert_int_equal(e.write_error, 0);
		if (cases[c].thrown)
			first_later = merge_early_finish(&e, false);
		else /* every row was formatted early, the last block's 276 too */
			assert_int_equal(merge_early_finish(&e, true), early_rows);
		size_t later = total - first_later;
		merged_write_rows_start(&rows, &o, later, later, later_numbered, &first_later);
		o.len = (size_t)sprintf(o.buf, "# summary\n");
		assert_int_equal(merge_early_give(&e, first_later, &rows), 0);
		bool kept = guess == 10 && !cases[c].thrown;
		assert_int_equal(rows.ahead, kept ? e.written_bytes : 0);
		assert_int_equal(rows.prefix_n, kept ? 0 : (first_later + 511) / 512);
		merged_write_rows_finish(&rows);
		assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);
		merge_early_destroy(&e);

		FILE *in = fopen(path, "r");
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof(line), in));
		assert_string_equal(line, "# summary\n");
		check_numbered_rows(in, total); /* and nothing after them */
		fclose(in);
	}
	workers_set_max(WORKERS_DEFAULT);
	tm_dir_remove(dir);
}

/* What a test's fill saw of the block holding row 0, and of the longest. */
struct first_fill {
	size_t first_block; /* rows asked for from row 0 (0: not yet) */
	size_t longest;     /* the most rows asked for at once (atomic) */
};

/* merged_write_fill_fn: numbered rows; keeps the size of the range that starts at row 0. */
static size_t first_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	struct first_fill *f = ctx;
	size_t n = last - first, seen = __atomic_load_n(&f->longest, __ATOMIC_SEQ_CST);

	if (first == 0)
		f->first_block = last;
	while (n > seen && !__atomic_compare_exchange_n(&f->longest, &seen, n, false,
	                                                 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	return numbered_rows(first, last, buf, cap, used);
}

/*
 * Rows all ready at once (as with calls files): the first block is a
 * small one, whatever the count, so that the file's writes start early;
 * the blocks double up to the writer's rows per block and no further;
 * every row reaches the file once, in order, across the blocks' growth.
 */
static void test_rows_writer_first_block(void **state)
{
	(void)state;
	char dir[256], path[512], msg[256];
	const size_t counts[] = {1, 511, 512, 513, 1535, 1536, 1537, 3584, 40000, 200000};

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	for (unsigned threads = 1; threads <= 8; threads += 7) {
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			size_t count = counts[k];
			struct merged_writer o;
			struct merged_rows rows;
			struct first_fill f = {0};

			workers_set_max(threads);
			unlink(path);
			assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
			merged_write_rows_start(&rows, &o, count, count, first_fill, &f);
			merged_write_rows_finish(&rows);
			assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);
			assert_true(f.first_block >= 1);
			assert_true(f.first_block <= MERGED_BLOCK_MIN);
			assert_true(f.longest <= rows.block_items);

			FILE *in = fopen(path, "r");
			assert_non_null(in);
			check_numbered_rows(in, count);
			fclose(in);
		}
	}
	workers_set_max(WORKERS_DEFAULT);
	tm_dir_remove(dir);
}

/* Row i of long_fill: "i" and spaces to ROW_LONG bytes with its newline. */
#define ROW_LONG 900

/* merged_write_fill_fn: long numbered rows, so that a block outgrows its buffer. */
static size_t long_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	char *p = buf;

	(void)ctx;
	for (; first < last && (size_t)(p - buf) + MERGED_ROW_MAX <= cap; first++)
		p += sprintf(p, "%-*zu\n", ROW_LONG - 1, first);
	*used = (size_t)(p - buf);
	return first;
}

/* merge_early_fill_fn: long_fill()'s rows, their frames final at once. */
static size_t early_long(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                         size_t *used, int *state)
{
	*state = 1;
	return long_fill(ctx, first, last, buf, cap, used);
}

/*
 * What goes early: with MERGE_EARLY_MIN_WORKERS threads or more, a session
 * of at most MERGE_EARLY_BYTES' rows; of a longer one (its files' length
 * guessed short) the first of them only, the rest left to the file's
 * writers. Rows longer than a block's room assumed still go early, in a
 * buffer grown for them.
 */
static void test_early_rows_bounds(void **state)
{
	(void)state;
	const size_t most = MERGE_EARLY_BYTES / MERGE_EARLY_ROW_BYTES;
	struct merge_early e;

	workers_set_max(MERGE_EARLY_MIN_WORKERS - 1);
	assert_false(merge_early_wanted(1000));
	assert_int_equal(merge_early_bytes(1000), 0);
	workers_set_max(MERGE_EARLY_MIN_WORKERS);
	assert_true(merge_early_wanted(most));
	assert_false(merge_early_wanted(most + 1));
	assert_int_equal(merge_early_bytes(1000), 1000 * MERGE_EARLY_ROW_BYTES);

	merge_early_start(&e, 3 * most, early_numbered, NULL);
	assert_true(e.started);
	assert_int_equal(merge_early_final(&e), most);
	assert_int_equal(merge_early_finish(&e, true), most);
	merge_early_destroy(&e);

	merge_early_start(&e, 1300, early_long, NULL);
	assert_true(e.started);
	assert_int_equal(merge_early_final(&e), 1300);
	assert_int_equal(merge_early_finish(&e, true), 1300);
	for (size_t b = 0; b < e.blocks; b++) {
		size_t rows = b + 1 < e.blocks ? MERGE_EARLY_BLOCK_ROWS : 1300 % MERGE_EARLY_BLOCK_ROWS;
		assert_int_equal(e.block[b].len, rows * ROW_LONG);
		assert_int_equal(strtoull(e.block[b].buf, NULL, 10), b * MERGE_EARLY_BLOCK_ROWS);
	}
	merge_early_destroy(&e);
	workers_set_max(WORKERS_DEFAULT);
}

/*
 * Blocks longer than their buffer (MERGED_BLOCK_BUF) go to the file in
 * pieces, each before the next block's bytes, whoever writes them; the
 * room reserved ahead is cut to what was written, more or less than it.
 */
static void test_rows_writer_pieces(void **state)
{
	(void)state;
	char dir[256], path[512], msg[256], line[ROW_LONG + 16];
	const size_t count = 20000; /* 2 workers: blocks of 5000 rows, 4.5 MB */
	const off_t reserve_bytes[] = {0, 100000, 40000000}; /* less, more than written */

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	for (unsigned threads = 1; threads <= 2; threads++) {
		struct merged_writer o;
		struct merged_rows rows;
		struct stat st;

		workers_set_max(threads);
		unlink(path);
		struct out_reserve room;
		assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
		out_file_reserve_start(&room, o.fd, reserve_bytes[threads]);
		merged_write_rows_start(&rows, &o, count, count, long_fill, NULL);
		o.len = (size_t)sprintf(o.buf, "# summary\n");
		merged_write_rows_finish(&rows);
		assert_int_equal(out_file_reserve_finish(&room), 0);
		assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, strlen("# summary\n") + count * ROW_LONG);
		FILE *in = fopen(path, "r");
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof(line), in));
		assert_string_equal(line, "# summary\n");
		for (size_t i = 0; i < count; i++) {
			assert_non_null(fgets(line, sizeof(line), in));
			assert_int_equal(strlen(line), ROW_LONG);
			assert_int_equal(strtoull(line, NULL, 10), i);
		}
		assert_null(fgets(line, sizeof(line), in));
		fclose(in);
	}
	workers_set_max(WORKERS_DEFAULT);
	tm_dir_remove(dir);
}

/*
 * A reservation: cut to what was written when it ends (less or more than
 * reserved), and not tried past the file size limit.
 */
static void test_out_file_reserve(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct out_reserve r;
	struct stat st;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/r.csv", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	out_file_reserve_start(&r, fd, 16 << 20);
	assert_true(r.started);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	assert_int_equal(out_file_reserve_finish(&r), 0);
	assert_false(r.started);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 10);
	assert_int_equal(out_file_reserve_finish(&r), 0); /* again: nothing to do */

	struct rlimit old, small;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 1 << 20;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	out_file_reserve_start(&r, fd, 2 << 20);
	assert_false(r.started);
	assert_int_equal(out_file_reserve_finish(&r), 0);
	out_file_reserve_start(&r, fd, 1 << 20);
	assert_true(r.started);
	assert_int_equal(out_file_reserve_finish(&r), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 10); /* cut back to the write offset */
	close(fd);
	unlink(path);
	tm_dir_remove(dir);
}

/* ---- merge ---- */

/* Merges data files @p pre/@p post (+ optional GPU) into dir/out.csv. */
static int merge_data(const char *dir, const char *pre, const char *post, const char *gpu_pre,
                      const char *gpu_post, struct merge_summary *s, struct tm_log *log, char *out,
                      size_t out_size)
{
	struct merge_paths p = {
		.pre_csv = tm_data(pre),
		.post_csv = tm_data(post),
		.gpu_pre_csv = gpu_pre ? tm_data(gpu_pre) : NULL,
		.gpu_post_csv = gpu_post ? tm_data(gpu_post) : NULL,
	};
	snprintf(out, out_size, "%s/out.csv", dir);
	return merge_files(&p, out, s, tm_log_fn, log);
}

static void test_merge_exact_file(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-s1-pre.csv", "frames-s1-post.csv", "gpu-s1-pre.csv",
	                            "gpu-s1-post.csv", &s, &log, out, sizeof(out)),
	                 0);
	assert_int_equal(log.count, 0);
	char *got = tm_file_read(out);
	char *want = tm_file_read(tm_data("expected-merged-s1.csv"));
	assert_non_null(got);
	assert_non_null(want);
	assert_string_equal(got, want);
	assert_null(strchr(got, '\r'));

	/* The fourteen summary keys, in order, with '%' on the _pct_ lines. */
	static const char *keys[14] = {
		"frame_count", "target_cpu_ms_mean", "target_cpu_ms_min", "target_cpu_ms_max",
		"target_cpu_pct_mean", "target_cpu_pct_min", "target_cpu_pct_max", "gpu_frame_count",
		"target_gpu_ms_mean", "target_gpu_ms_min", "target_gpu_ms_max", "target_gpu_pct_mean",
		"target_gpu_pct_min", "target_gpu_pct_max",
	};
	const char *line = got;
	for (int i = 0; i < 14; i++) {
		const char *end = strchr(line, '\n');
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "# %s=", keys[i]);
		assert_memory_equal(line, prefix, strlen(prefix));
		bool pct = strstr(keys[i], "_pct_") != NULL;
		assert_int_equal(end[-1] == '%', pct);
		line = end + 1;
	}

	assert_int_equal(s.frame_count, 3);
	assert_int_equal(s.gpu_frame_count, 3);
	assert_int_equal(s.dropped_queue_full_pre, 2);
	assert_int_equal(s.gpu_ring_overflow_pre, 1);
	assert_string_equal(s.target_layer, "XR_APILAYER_XRLM_test_target");
	assert_double_equal(s.frame_interval_us.median, 11000, 0);
	/* Nothing but the result in the directory: the temp file is gone. */
	assert_int_equal(tm_dir_count(dir), 1);
	free(got);
	free(want);
	tm_dir_remove(dir);
}

/*
 * Each summary line writes its own statistic: with every value distinct,
 * a line that reads a neighbour's field (the p99 for the p95, the max for
 * the mean) or the wrong column's shows. A name's CR and LF become blanks,
 * and merged_write_summary_bytes() is the summary's length.
 */
static void test_summary_each_statistic(void **state)
{
	char dir[256], path[512], msg[256];
	struct merged_writer o;
	struct merge_summary s = {
		.frame_count = 9,
		.target_cpu_us = {.count = 9, .mean = 1000, .min = 2000, .max = 3000,
		                  .median = 4, .p95 = 5, .p99 = 6},
		.target_cpu_pct = {.count = 8, .mean = 7, .min = 8, .max = 9},
		.gpu_frame_count = 7,
		.target_gpu_us = {.count = 7, .mean = 10000, .min = 11000, .max = 12000,
		                  .median = 13, .p95 = 14, .p99 = 15},
		.target_gpu_pct = {.count = 6, .mean = 16, .min = 17, .max = 18},
		.frame_interval_us = {.count = 8, .median = 19},
		.frame_rate_hz = 20,
		.target_layer = "T\rU\nV",
		.gpu_mode = "gated",
	};
	(void)state;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	assert_int_equal(merged_write_open(&o, path, msg, sizeof(msg)), 0);
	merged_write_summary(&o, &s);
	assert_int_equal(merged_write_commit(&o, msg, sizeof(msg)), 0);
	char *got = tm_file_read(path);
	assert_non_null(got);
	assert_non_null(strstr(got, "# frame_count=9\n"
	                            "# target_cpu_ms_mean=1.0000\n"
	                            "# target_cpu_ms_min=2.0000\n"
	                            "# target_cpu_ms_max=3.0000\n"
	                            "# target_cpu_pct_mean=7.0000%\n"
	                            "# target_cpu_pct_min=8.0000%\n"
	                            "# target_cpu_pct_max=9.0000%\n"
	                            "# gpu_frame_count=7\n"
	                            "# target_gpu_ms_mean=10.0000\n"
	                            "# target_gpu_ms_min=11.0000\n"
	                            "# target_gpu_ms_max=12.0000\n"
	                            "# target_gpu_pct_mean=16.0000%\n"
	                            "# target_gpu_pct_min=17.0000%\n"
	                            "# target_gpu_pct_max=18.0000%\n"
	                            "# target_cpu_us_p50=4.000\n"
	                            "# target_cpu_us_p95=5.000\n"
	                            "# target_cpu_us_p99=6.000\n"
	                            "# target_gpu_us_p50=13.000\n"
	                            "# target_gpu_us_p95=14.000\n"
	                            "# target_gpu_us_p99=15.000\n"
	                            "# frame_interval_us_median=19.000\n"
	                            "# frame_rate_hz=20.000\n"));
	/* A name's line ends are blanks: one line per key whatever it holds. */
	assert_non_null(strstr(got, "\n# target_layer=T U V\n# gpu_mode=gated\n"));
	/* The summary's length, known before it is written (the rows written
	 * ahead of it go there: merge_early_write()). */
	assert_int_equal(merged_write_summary_bytes(&s), strlen(got));
	free(got);
	tm_dir_remove(dir);
}

/* Two interleaved threads, post out of order, one unmatched row per side. */
static void test_merge_join(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-s2-pre.csv", "frames-s2-post.csv", NULL, NULL, &s,
	                            &log, out, sizeof(out)),
	                 0);
	char *got = tm_file_read(out);
	assert_string_equal(tm_rows_of(got),
	                    /* the interval runs to the session's next frame,
	                     * whatever thread ends it */
	                    "100,1,5.000,100.000,60.000,40.000,800.0000,,,\n"
	                    "100,2,10995.000,50.000,30.000,20.000,0.1819,,,\n"
	                    /* the next pre frame (200,2) counts, though unmatched */
	                    "200,1,10.000,120.000,80.000,40.000,400.0000,,,\n"
	                    "300,1,20.000,90.000,70.000,20.000,100.0000,,,\n"
	                    /* the session's last frame has no interval */
	                    "300,2,,60.000,40.000,20.000,,,,\n");
	assert_int_equal(s.frame_count, 5);
	assert_int_equal(s.unmatched_pre, 1);
	assert_int_equal(s.unmatched_post, 1);
	assert_int_equal(s.dropped_queue_full_post, 3);
	assert_int_equal(s.target_cpu_pct.count, 4);
	assert_int_equal(s.gpu_frame_count, 0);
	assert_non_null(strstr(got, "\n# unmatched_pre=1\n# unmatched_post=1\n"));
	/* Shares of 800, 0.1819, 400 and 100 %: each line its own statistic. */
	assert_non_null(strstr(got, "\n# target_cpu_pct_mean=325.0455%\n# target_cpu_pct_min=0.1819%\n"
	                            "# target_cpu_pct_max=800.0000%\n"));
	/* Intervals of 5, 10995, 10 and 20 us: the rate of their median, 15 us. */
	assert_non_null(strstr(got, "\n# frame_interval_us_median=15.000\n# frame_rate_hz=66666.667\n"));
	free(got);
	tm_dir_remove(dir);
}

/*
 * unmatched_pre and unmatched_post are each side's own count: pre with two
 * frames post lacks, post with one pre lacks (s2's one each could not tell
 * them apart).
 */
static void test_merge_unmatched_each_side(void **state)
{
	(void)state;
	char dir[256], pre[512], post[512], out[512];
	struct merge_paths p = {.pre_csv = pre, .post_csv = post};
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	snprintf(pre, sizeof(pre), "%s/frames-u-pre.csv", dir);
	snprintf(post, sizeof(post), "%s/frames-u-post.csv", dir);
	snprintf(out, sizeof(out), "%s/frames-merged-u.csv", dir);
	assert_int_equal(tm_file_write(pre, "display_time,thread_id,t_entry,t_exit\n"
	                                    "1,7,1000,1500\n2,7,2000,2500\n3,7,3000,3500\n"
	                                    "4,7,4000,4500\n5,7,5000,5500\n"),
	                 0);
	assert_int_equal(tm_file_write(post, "display_time,thread_id,t_entry,t_exit\n"
	                                     "1,7,1100,1300\n2,8,2100,2300\n3,7,3100,3300\n"),
	                 0);
	assert_int_equal(merge_files(&p, out, &s, tm_log_fn, &log), 0);
	assert_int_equal(s.frame_count, 2);
	assert_int_equal(s.unmatched_pre, 3);
	assert_int_equal(s.unmatched_post, 1);
	char *got = tm_file_read(out);
	assert_non_null(got);
	assert_non_null(strstr(got, "\n# unmatched_pre=3\n# unmatched_post=1\n"));
	free(got);
	tm_dir_remove(dir);
}

/*
 * A frame whose GPU rows are both valid=0 has no GPU value: equal
 * periods (both 0) must not make a time of it.
 */
static void test_merge_gpu_both_invalid(void **state)
{
	(void)state;
	char dir[256], pre[512], post[512], gpre[512], gpost[512], out[512];
	struct merge_paths p = {.pre_csv = pre, .post_csv = post, .gpu_pre_csv = gpre,
	                        .gpu_post_csv = gpost};
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	snprintf(pre, sizeof(pre), "%s/frames-v-pre.csv", dir);
	snprintf(post, sizeof(post), "%s/frames-v-post.csv", dir);
	snprintf(gpre, sizeof(gpre), "%s/gpu-v-pre.csv", dir);
	snprintf(gpost, sizeof(gpost), "%s/gpu-v-post.csv", dir);
	snprintf(out, sizeof(out), "%s/frames-merged-v.csv", dir);
	assert_int_equal(tm_file_write(pre, "display_time,thread_id,t_entry,t_exit\n10,5,1000,1100\n"), 0);
	assert_int_equal(tm_file_write(post, "display_time,thread_id,t_entry,t_exit\n10,5,1010,1060\n"),
	                 0);
	assert_int_equal(tm_file_write(gpre, "display_time,gpu_ticks,gpu_period_ns,valid\n10,1000,1,0\n"),
	                 0);
	assert_int_equal(tm_file_write(gpost, "display_time,gpu_ticks,gpu_period_ns,valid\n10,3000,1,0\n"),
	                 0);
	assert_int_equal(merge_files(&p, out, &s, tm_log_fn, &log), 0);
	assert_int_equal(s.frame_count, 1);
	assert_int_equal(s.gpu_frame_count, 0);
	char *got = tm_file_read(out);
	assert_non_null(got);
	assert_string_equal(tm_rows_of(got), "10,5,,0.100,0.050,0.050,,,,,,,,,,,,,,,,,0\n");
	free(got);
	tm_dir_remove(dir);
}

static void test_merge_gpu_rules(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-s3-pre.csv", "frames-s3-post.csv", "gpu-s3-pre.csv",
	                            "gpu-s3-post.csv", &s, &log, out, sizeof(out)),
	                 0);
	char *got = tm_file_read(out);
	assert_string_equal(tm_rows_of(got),
	                    "10,5,1000.000,0.100,0.050,0.050,0.0050,2.000,0.2000,,,,,,,,,,,,,2.000,0\n" /* valid */
	                    "20,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n" /* pre valid=0 */
	                    "30,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n" /* periods differ */
	                    "40,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n" /* negative */
	                    "50,5,1000.000,0.100,0.050,0.050,0.0050,5.250,0.5250,,,,,,,,,,,,,5.250,0\n" /* 52.5 ns */
	                    "60,5,,0.100,0.050,0.050,,,,,,,,,,,,,,,,,0\n"); /* no post GPU row */
	assert_int_equal(s.gpu_frame_count, 2);
	assert_double_equal(s.target_gpu_us.mean, 3.625, 1e-12);
	assert_int_equal(s.gpu_ring_overflow_post, 4);
	/* GPU files without bracket measurements: nothing subtracted, empty line. */
	assert_false(s.has_gpu_bracket);
	assert_non_null(strstr(got, "\n# gpu_bracket_ns=\n"));
	free(got);
	tm_dir_remove(dir);
}

/*
 * GPU files that go on far past the frames files' last frame (rows no
 * frame matches, more than a window holds ahead): each is read to its
 * end, where its session_end line is, and its rows all counted.
 */
static void test_merge_gpu_rows_after_frames(void **state)
{
	(void)state;
	char dir[256], pre[512], post[512], gpre[512], gpost[512], out[512];
	struct merge_paths p = {.pre_csv = pre, .post_csv = post, .gpu_pre_csv = gpre,
	                        .gpu_post_csv = gpost};
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	snprintf(pre, sizeof(pre), "%s/frames-g-pre.csv", dir);
	snprintf(post, sizeof(post), "%s/frames-g-post.csv", dir);
	snprintf(gpre, sizeof(gpre), "%s/gpu-g-pre.csv", dir);
	snprintf(gpost, sizeof(gpost), "%s/gpu-g-post.csv", dir);
	snprintf(out, sizeof(out), "%s/frames-merged-g.csv", dir);
	assert_int_equal(tm_file_write(pre, "# side=pre\ndisplay_time,thread_id,t_entry,t_exit\n"
	                                    "10,5,1000,1100\n20,5,2000,2100\n"),
	                 0);
	assert_int_equal(tm_file_write(post, "# side=post\ndisplay_time,thread_id,t_entry,t_exit\n"
	                                     "10,5,1010,1060\n20,5,2010,2060\n"),
	                 0);
	FILE *a = fopen(gpre, "w"), *b = fopen(gpost, "w");
	assert_non_null(a);
	assert_non_null(b);
	fprintf(a, "# side=pre\ndisplay_time,gpu_ticks,gpu_period_ns,valid\n");
	fprintf(b, "# side=post\ndisplay_time,gpu_ticks,gpu_period_ns,valid\n");
	for (int i = 1; i <= 10002; i++) {
		fprintf(a, "%d,%d,1,1\n", i * 10, i * 1000);
		fprintf(b, "%d,%d,1,1\n", i * 10, i * 1000 + 500);
	}
	fprintf(a, "# session_end gpu_ring_overflow=6\n");
	fprintf(b, "# session_end gpu_ring_overflow=7\n");
	assert_int_equal(fclose(a), 0);
	assert_int_equal(fclose(b), 0);
	assert_int_equal(merge_files(&p, out, &s, tm_log_fn, &log), 0);
	assert_int_equal(s.frame_count, 2);
	assert_int_equal(s.gpu_frame_count, 2);
	assert_int_equal(s.gpu_ring_overflow_pre, 6);
	assert_int_equal(s.gpu_ring_overflow_post, 7);
	tm_dir_remove(dir);
}

/* A merge that matches no frame is an error, not an empty merged file. */
/* The bracket correction's arithmetic: subtract, round as written, never below 0. */
static void test_gpu_correct(void **state)
{
	(void)state;
	assert_double_equal(join_gpu_correct(2.0, 500), 1.5, 0);
	assert_double_equal(join_gpu_correct(1021.4, 21400), 1000.0, 1e-9);
	assert_double_equal(join_gpu_correct(5.2504, 0), 5.25, 0);    /* rounded to 3 decimals */
	assert_double_equal(join_gpu_correct(9.6, 21400), 0.0, 0);    /* nothing submitted */
	assert_double_equal(join_gpu_correct(0.0, 0), 0.0, 0);
	assert_true(isnan(join_gpu_correct(NAN, 500)));
	assert_double_equal(join_gpu_correct(5.2504, NAN), 5.25, 0); /* none measured yet */
}

/*
 * The summary's gpu_bracket_ns is the mean over every frame with a GPU
 * value: a frame before pre's first measurement counts as corrected by 0
 * (bracket-late/: 10 none, 50 with 3000: 1500), and a measured 0 is a
 * value, not an empty line (bracket-zero/).
 */
static void test_merge_gpu_bracket_mean(void **state)
{
	(void)state;
	static const struct {
		const char *gpu_pre;
		const char *rows_10_50[2];
		uint64_t mean;
		const char *line;
	} cases[] = {
		{"bracket-late/gpu-s3-pre.csv",
		 {"10,5,1000.000,0.100,0.050,0.050,0.0050,2.000,0.2000,,,,,,,,,,,,,2.000,0\n",
		  "50,5,1000.000,0.100,0.050,0.050,0.0050,2.250,0.2250,,,,,,,,,,,,,5.250,0\n"},
		 1500, "\n# gpu_bracket_ns=1500\n"},
		{"bracket-zero/gpu-s3-pre.csv",
		 {"10,5,1000.000,0.100,0.050,0.050,0.0050,2.000,0.2000,,,,,,,,,,,,,2.000,0\n",
		  "50,5,1000.000,0.100,0.050,0.050,0.0050,5.250,0.5250,,,,,,,,,,,,,5.250,0\n"},
		 0, "\n# gpu_bracket_ns=0\n"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char dir[256], out[512];
		struct tm_log log = {0};
		struct merge_summary s;
		tm_dir_create(dir, sizeof(dir));
		assert_int_equal(merge_data(dir, "frames-s3-pre.csv", "frames-s3-post.csv",
		                            cases[i].gpu_pre, "gpu-s3-post.csv", &s, &log, out,
		                            sizeof(out)),
		                 0);
		char *got = tm_file_read(out);
		for (int k = 0; k < 2; k++)
			if (!strstr(got, cases[i].rows_10_50[k]))
				fail_msg("%s: no row %s in\n%s", cases[i].gpu_pre, cases[i].rows_10_50[k],
				         tm_rows_of(got));
		assert_true(s.has_gpu_bracket);
		assert_int_equal(s.gpu_bracket_ns, cases[i].mean);
		assert_non_null(strstr(got, cases[i].line));
		free(got);
		tm_dir_remove(dir);
	}
}

/*
 * Pre's `# gpu_bracket_ns=` lines (data/bracket/) apply to the rows below them: each frame
 * loses the bracket in effect, target_gpu_raw_us keeps what was read, and
 * the summary gives the mean bracket of the frames with a GPU value.
 */
static void test_merge_gpu_bracket(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-s3-pre.csv", "frames-s3-post.csv",
	                            "bracket/gpu-s3-pre.csv", "gpu-s3-post.csv", &s, &log, out, sizeof(out)),
	                 0);
	char *got = tm_file_read(out);
	/* After the calls columns (blank without calls files), in place; gate_tripped last. */
	assert_non_null(strstr(got, "\ndisplay_time,thread_id,frame_interval_us,pre_us,post_us,"
	                            "target_us,target_cpu_pct_of_frame,target_gpu_us,"
	                            "target_gpu_pct_of_frame,target_wait_us,"));
	assert_non_null(strstr(got, ",app_submit_us,target_gpu_raw_us,gate_tripped\n"));
	assert_string_equal(tm_rows_of(got),
	                    /* 2.0 read, 2.5 bracket: a frame with nothing of the target's */
	                    "10,5,1000.000,0.100,0.050,0.050,0.0050,0.000,0.0000,,,,,,,,,,,,,2.000,0\n"
	                    "20,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "30,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "40,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    /* 5.25 read, the second bracket (3.0) in effect */
	                    "50,5,1000.000,0.100,0.050,0.050,0.0050,2.250,0.2250,,,,,,,,,,,,,5.250,0\n"
	                    "60,5,,0.100,0.050,0.050,,,,,,,,,,,,,,,,,0\n");
	assert_true(s.has_gpu_bracket);
	assert_int_equal(s.gpu_bracket_ns, 2750);
	assert_non_null(strstr(got, "\n# gpu_bracket_ns=2750\n"));
	assert_double_equal(s.target_gpu_us.mean, 1.125, 1e-12);
	free(got);

	/* A bracket that is not a count of ns is an error, with its line. */
	char bad[512];
	snprintf(bad, sizeof(bad), "%s/gpu-bad-pre.csv", dir);
	FILE *f = fopen(bad, "w");
	assert_non_null(f);
	fputs("# gpu_clock=vulkan\n# side=pre\ndisplay_time,gpu_ticks,gpu_period_ns,valid\n"
	      "# gpu_bracket_ns=-5\n10,1000,1,1\n", f);
	fclose(f);
	struct side_gpu_file g;
	assert_int_equal(side_gpu_read(bad, "pre", &g), -1);
	assert_non_null(strstr(g.diag.error, "gpu-bad-pre.csv:4: error:"));
	assert_non_null(strstr(g.diag.error, "gpu_bracket_ns"));
	side_gpu_destroy(&g);
	tm_dir_remove(dir);
}

static void test_merge_empty_session(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-empty-pre.csv", "frames-empty-post.csv", NULL, NULL,
	                            &s, &log, out, sizeof(out)),
	                 -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "frames-empty-pre.csv: error: no frame recorded"));
	assert_int_equal(tm_dir_count(dir), 0);
	tm_dir_remove(dir);
}

static void test_merge_truncated(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "frames-trunc-pre.csv", "frames-trunc-post.csv", NULL, NULL,
	                            &s, &log, out, sizeof(out)),
	                 0);
	assert_int_equal(log.count, 2);
	assert_non_null(strstr(log.all, "frames-trunc-pre.csv:10: warning:"));
	assert_non_null(strstr(log.all, "frames-trunc-post.csv:10: warning:"));
	assert_int_equal(s.frame_count, 2);
	assert_int_equal(s.truncated_rows, 2);
	char *got = tm_file_read(out);
	assert_non_null(strstr(got, "\n# truncated_rows=2\n"));
	free(got);
	tm_dir_remove(dir);
}

/*
 * Past a file size limit the merge reports EFBIG and removes its temporary
 * file; SIGXFSZ (default action: kill) must not end the process, since the
 * in-layer merge runs inside the host application.
 */
static void test_merge_file_size_limit(void **state)
{
	(void)state;
	char dir[256], pre[512], post[512], out[512];
	struct merge_paths p = {.pre_csv = pre, .post_csv = post};
	struct tm_log log = {0};
	struct rlimit old, small;

	tm_dir_create(dir, sizeof(dir));
	snprintf(pre, sizeof(pre), "%s/frames-big-pre.csv", dir);
	snprintf(post, sizeof(post), "%s/frames-big-post.csv", dir);
	snprintf(out, sizeof(out), "%s/frames-merged-big.csv", dir);
	FILE *a = fopen(pre, "w"), *b = fopen(post, "w");
	assert_non_null(a);
	assert_non_null(b);
	fprintf(a, "# side=pre\ndisplay_time,thread_id,t_entry,t_exit\n");
	fprintf(b, "# side=post\ndisplay_time,thread_id,t_entry,t_exit\n");
	for (int i = 0; i < 3000; i++) {
		fprintf(a, "%d,7,%d,%d\n", i, i * 1000, i * 1000 + 500);
		fprintf(b, "%d,7,%d,%d\n", i, i * 1000 + 100, i * 1000 + 300);
	}
	assert_int_equal(fclose(a), 0);
	assert_int_equal(fclose(b), 0);

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 16384;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	int ret = merge_files(&p, out, NULL, tm_log_fn, &log);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);

	assert_int_equal(ret, -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "frames-merged-big.csv: error: cannot write: File too large"));
	assert_int_equal(tm_dir_count(dir), 2); /* the inputs only */

	/* A limit below the summary's length: this thread's write of it
	 * fails, and the SIGXFSZ it left pending is taken before the mask is
	 * restored (else delivered then, it ends this process). */
	small.rlim_cur = 512;
	log = (struct tm_log){0};
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	ret = merge_files(&p, out, NULL, tm_log_fn, &log);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(log.last, "frames-merged-big.csv: error: cannot write: File too large"));
	assert_int_equal(tm_dir_count(dir), 2);

	/* The same with SIGXFSZ blocked by the caller: the signal is left
	 * pending for it, not taken. */
	sigset_t xfsz, pending;
	const struct timespec now = {0, 0};
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, &xfsz, NULL), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	ret = merge_files(&p, out, NULL, tm_log_fn, &log);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(ret, -1);
	assert_int_equal(sigpending(&pending), 0);
	assert_true(sigismember(&pending, SIGXFSZ));
	assert_int_equal(sigtimedwait(&xfsz, NULL, &now), SIGXFSZ);
	assert_int_equal(pthread_sigmask(SIG_UNBLOCK, &xfsz, NULL), 0);

	/* A file that cannot be created: the caller's mask is as it was. */
	struct merged_writer o;
	char msg[256], missing[600];
	sigset_t mask;
	snprintf(missing, sizeof(missing), "%s/missing/out.csv", dir);
	assert_int_equal(merged_write_open(&o, missing, msg, sizeof(msg)), -1);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, NULL, &mask), 0);
	assert_false(sigismember(&mask, SIGXFSZ));
	tm_dir_remove(dir);
}

static void test_merge_refuses_overwrite(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/out.csv", dir);
	assert_int_equal(tm_file_write(out, "keep me\n"), 0);
	assert_int_equal(merge_data(dir, "frames-s1-pre.csv", "frames-s1-post.csv", NULL, NULL, &s,
	                            &log, out, sizeof(out)),
	                 -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "out.csv: error: already exists"));
	char *got = tm_file_read(out);
	assert_string_equal(got, "keep me\n");
	assert_int_equal(tm_dir_count(dir), 1);
	free(got);

	/* A symlink in the way is not followed or replaced either. */
	unlink(out);
	char target[600];
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	assert_int_equal(symlink(target, out), 0);
	log = (struct tm_log){0};
	assert_int_equal(merge_data(dir, "frames-s1-pre.csv", "frames-s1-post.csv", NULL, NULL, &s,
	                            &log, out, sizeof(out)),
	                 -1);
	struct stat st;
	assert_int_equal(stat(target, &st), -1);
	tm_dir_remove(dir);
}

/* A bad input: one log line naming the file and line, no output, no temp. */
static void test_merge_error_logged_once(void **state)
{
	(void)state;
	char dir[256], out[512];
	struct tm_log log = {0};

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(merge_data(dir, "bad-row-pre.csv", "frames-s1-post.csv", NULL, NULL, NULL,
	                            &log, out, sizeof(out)),
	                 -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "bad-row-pre.csv:9: error:"));
	assert_int_equal(tm_dir_count(dir), 0);

	/* Swapped sides are caught by the side= header. */
	log = (struct tm_log){0};
	assert_int_equal(merge_data(dir, "frames-s1-post.csv", "frames-s1-pre.csv", NULL, NULL, NULL,
	                            &log, out, sizeof(out)),
	                 -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "frames-s1-post.csv:3: error:"));

	/* Into a directory that does not exist. */
	struct merge_paths p = {.pre_csv = tm_data("frames-s1-pre.csv"), .post_csv = tm_data("frames-s1-post.csv")};
	log = (struct tm_log){0};
	snprintf(out, sizeof(out), "%s/missing/out.csv", dir);
	assert_int_equal(merge_files(&p, out, NULL, tm_log_fn, &log), -1);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "missing/out.csv: error:"));
	tm_dir_remove(dir);
}

static void test_sibling_paths(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct merge_siblings sib;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/gpu-42-20260101T000000-pre.csv", dir);
	assert_int_equal(tm_file_write(path, ""), 0);
	snprintf(path, sizeof(path), "%s/frames-42-20260101T000000-pre.csv", dir);

	assert_int_equal(merge_sibling_paths(path, NULL, &sib), 0);
	char want[600];
	snprintf(want, sizeof(want), "%s/gpu-42-20260101T000000-pre.csv", dir);
	assert_string_equal(sib.gpu_pre_csv, want);
	assert_string_equal(sib.gpu_post_csv, ""); /* does not exist */
	snprintf(want, sizeof(want), "%s/frames-42-20260101T000000-post.csv", dir);
	assert_string_equal(sib.post_csv, want);
	snprintf(want, sizeof(want), "%s/frames-merged-42-20260101T000000.csv", dir);
	assert_string_equal(sib.merged_csv, want);

	assert_int_equal(merge_sibling_paths("frames-1-pre.csv", NULL, &sib), 0);
	assert_string_equal(sib.merged_csv, "frames-merged-1.csv");
	assert_int_equal(merge_sibling_paths("/x/other.csv", NULL, &sib), -1);
	assert_int_equal(merge_sibling_paths("/x/frames--pre.csv", NULL, &sib), -1);
	tm_dir_remove(dir);
}

/* ---- reading a merged file back, row by row ---- */

struct each_seen {
	int keys;
	char frame_count[32];
	int rows;
	double target_us[4];
	bool interval_blank[4];
	int gate_tripped[4];
};

static int each_summary(void *ctx, const char *key, const char *value, char *msg, size_t size)
{
	struct each_seen *e = ctx;
	(void)msg;
	(void)size;
	e->keys++;
	if (strcmp(key, "frame_count") == 0)
		snprintf(e->frame_count, sizeof(e->frame_count), "%s", value);
	return 0;
}

static int each_row(void *ctx, const struct merged_values *r, char *msg, size_t size)
{
	struct each_seen *e = ctx;
	if (e->rows >= 3) {
		snprintf(msg, size, "too many rows");
		return -1;
	}
	e->target_us[e->rows] = r->target_us;
	e->interval_blank[e->rows] = isnan(r->frame_interval_us);
	e->gate_tripped[e->rows] = r->gate_tripped;
	e->rows++;
	return 0;
}

static void test_merged_read_each(void **state)
{
	(void)state;
	struct merged_read_cb cb = {.summary = each_summary, .row = each_row};
	struct each_seen e = {0};
	struct csvr_diag diag;

	assert_int_equal(merged_read_each(tm_data("expected-merged-s1.csv"), &cb, &e, &diag), 0);
	assert_int_equal(e.rows, 3);
	assert_string_equal(e.frame_count, "3");
	assert_true(e.keys >= 14);
	assert_double_equal(e.target_us[0], 20.0, 0);
	assert_double_equal(e.target_us[2], 15.0, 0);
	assert_false(e.interval_blank[0]);
	assert_true(e.interval_blank[2]);
	assert_int_equal(e.gate_tripped[0], 0);

	/* A file written before the gate_tripped column: blank (-1). */
	memset(&e, 0, sizeof(e));
	assert_int_equal(merged_read_each(tm_data("merged-v1-s1.csv"), &cb, &e, &diag), 0);
	assert_int_equal(e.rows, 3);
	assert_int_equal(e.gate_tripped[0], -1);
	assert_double_equal(e.target_us[2], 15.0, 0);

	/* A file with gate_tripped tenth, before it moved last: found there. */
	memset(&e, 0, sizeof(e));
	assert_int_equal(merged_read_each(tm_data("merged-v2-s1.csv"), &cb, &e, &diag), 0);
	assert_int_equal(e.rows, 3);
	assert_int_equal(e.gate_tripped[0], 0);
	assert_double_equal(e.target_us[2], 15.0, 0);

	/* A callback's refusal is an error naming the file and line. */
	e.rows = 3;
	assert_int_equal(merged_read_each(tm_data("expected-merged-s1.csv"), &cb, &e, &diag), -1);
	assert_non_null(strstr(diag.error, "expected-merged-s1.csv:"));
	assert_non_null(strstr(diag.error, "too many rows"));
}

#define TM_FIRST_COLUMNS                                                                       \
	"display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,"                 \
	"target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame"
#define TM_CALLS_AFTER_WAIT                                                                    \
	",target_begin_us,target_end_us,target_locate_views_us,target_sync_actions_us,"         \
	"target_swapchain_us,target_other_us,target_total_us,app_wait_us,app_cpu_us,"          \
	"app_render_us,app_submit_us"
#define TM_CALLS_COLUMNS ",target_wait_us" TM_CALLS_AFTER_WAIT

/* A merged file with @p header, two rows: gate_tripped (@p gate_col) 0, then 1. */
static void write_gate_file(const char *path, const char *header, int gate_col)
{
	char text[2048];
	int ncols = 1;
	size_t used = (size_t)snprintf(text, sizeof(text), "# frame_count=2\n%s\n", header);

	for (const char *p = header; *p; p++)
		ncols += *p == ',';
	for (int row = 0; row < 2; row++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used,
		                         "%d,7,,50.000,30.000,20.000,,,", (row + 1) * 1000);
		for (int c = 9; c < ncols; c++)
			used += (size_t)snprintf(text + used, sizeof(text) - used, ",%s",
			                         c == gate_col ? (row ? "1" : "0") : "");
		used += (size_t)snprintf(text + used, sizeof(text) - used, "\n");
	}
	assert_int_equal(tm_file_write(path, text), 0);
}

/* gate_tripped is read where the file has it: tenth in older files, last now. */
static void test_merged_read_gate_column(void **state)
{
	(void)state;
	static const struct {
		const char *header;
		int gate_col;
	} cases[] = {
		{TM_FIRST_COLUMNS ",gate_tripped", 9},
		{TM_FIRST_COLUMNS TM_CALLS_COLUMNS ",gate_tripped", 21},
		{TM_FIRST_COLUMNS TM_CALLS_COLUMNS ",target_gpu_raw_us,gate_tripped", 22},
		{TM_FIRST_COLUMNS ",gate_tripped" TM_CALLS_COLUMNS, 9},
		{TM_FIRST_COLUMNS ",gate_tripped" TM_CALLS_COLUMNS ",target_gpu_raw_us", 9},
	};
	char dir[256], path[512];
	struct merged_read_cb cb = {.row = each_row};
	struct csvr_diag diag;

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/m.csv", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_gate_file(path, cases[i].header, cases[i].gate_col);
		struct each_seen e = {0};
		assert_int_equal(merged_read_each(path, &cb, &e, &diag), 0);
		assert_int_equal(e.rows, 2);
		assert_int_equal(e.gate_tripped[0], 0);
		assert_int_equal(e.gate_tripped[1], 1);
	}
	/* A layout no writer had (gate_tripped among the calls columns) is refused. */
	write_gate_file(path, TM_FIRST_COLUMNS ",target_wait_us,gate_tripped" TM_CALLS_AFTER_WAIT,
	                10);
	struct each_seen e = {0};
	assert_int_equal(merged_read_each(path, &cb, &e, &diag), -1);
	assert_non_null(strstr(diag.error, "m.csv:2: error: wrong column header: column 11 is "
	                                   "\"gate_tripped\", expected \"target_begin_us\""));
	tm_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_fixed),
		cmocka_unit_test(test_fmt_integers_as_printf),
		cmocka_unit_test(test_fmt_fixed_digits),
		cmocka_unit_test(test_fmt_round_reads_back),
		cmocka_unit_test(test_fmt_ns_as_us_value),
		cmocka_unit_test(test_stats_known),
		cmocka_unit_test(test_stats_random_against_sort),
		cmocka_unit_test(test_stats_stream_against_compute),
		cmocka_unit_test(test_read_cpu_valid),
		cmocka_unit_test(test_read_cpu_mixed_large),
		cmocka_unit_test(test_read_cpu_other_clock_freq),
		cmocka_unit_test(test_read_gpu_valid),
		cmocka_unit_test(test_read_wrong_side),
		cmocka_unit_test(test_read_truncated),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_rejects_bad_numbers),
		cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_read_integers),
		cmocka_unit_test(test_read_field_messages),
		cmocka_unit_test(test_read_comment_lines),
		cmocka_unit_test(test_read_footer_words),
		cmocka_unit_test(test_columns_summary),
		cmocka_unit_test(test_spill_grows),
		cmocka_unit_test(test_spill_patch),
		cmocka_unit_test(test_spill_shared),
		cmocka_unit_test(test_spill_shared_readers),
		cmocka_unit_test_prestate(test_window_far_rows, &window_lazy[0]),
		cmocka_unit_test_prestate(test_window_far_rows, &window_lazy[1]),
		cmocka_unit_test(test_window_lazy_pulls),
		cmocka_unit_test(test_window_rows_skipped),
		cmocka_unit_test(test_rows_writer),
		cmocka_unit_test(test_rows_writer_first_block),
		cmocka_unit_test(test_rows_writer_pieces),
		cmocka_unit_test(test_rows_writer_prefix),
		cmocka_unit_test(test_early_rows_written_ahead),
		cmocka_unit_test(test_early_rows_all_after_final),
		cmocka_unit_test(test_early_rows_bounds),
		cmocka_unit_test(test_out_file_reserve),
		cmocka_unit_test(test_merge_exact_file),
		cmocka_unit_test(test_summary_each_statistic),
		cmocka_unit_test(test_merge_join),
		cmocka_unit_test(test_merge_unmatched_each_side),
		cmocka_unit_test(test_merge_gpu_both_invalid),
		cmocka_unit_test(test_merge_gpu_rules),
		cmocka_unit_test(test_merge_gpu_rows_after_frames),
		cmocka_unit_test(test_gpu_correct),
		cmocka_unit_test(test_merge_gpu_bracket),
		cmocka_unit_test(test_merge_gpu_bracket_mean),
		cmocka_unit_test(test_merge_empty_session),
		cmocka_unit_test(test_merge_truncated),
		cmocka_unit_test(test_merge_refuses_overwrite),
		cmocka_unit_test(test_merge_file_size_limit),
		cmocka_unit_test(test_merge_error_logged_once),
		cmocka_unit_test(test_sibling_paths),
		cmocka_unit_test(test_merged_read_each),
		cmocka_unit_test(test_merged_read_gate_column),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
