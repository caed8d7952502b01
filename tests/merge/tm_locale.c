/*
 * The merge must not depend on the locale: a host application may have set
 * LC_NUMERIC to a comma locale. Runs merges under de_DE.UTF-8 (generated
 * by the merge_locale_setup test into $LOCPATH) and compares the bytes with
 * the C-locale golden file. Fails, never skips, when the locale is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "tm_common.h"

#define COMMA_LOCALE "de_DE.UTF-8"

static void assert_comma_locale_active(void)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%.1f", 1.5);
	/* Proves the test can catch a locale-dependent printf or strtod. */
	assert_string_equal(buf, "1,5");
	assert_true(strtod("52.5", NULL) != 52.5);
}

/* Merges s1 (and s3, whose GPU period needs the slow strtod path). */
static void merge_and_compare(void)
{
	char dir[256], out[512];
	struct tm_log log = {0};
	struct merge_paths p = {
		.pre_csv = tm_data("frames-s1-pre.csv"),
		.post_csv = tm_data("frames-s1-post.csv"),
		.gpu_pre_csv = tm_data("gpu-s1-pre.csv"),
		.gpu_post_csv = tm_data("gpu-s1-post.csv"),
	};

	tm_dir_create(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/out.csv", dir);
	assert_int_equal(merge_files(&p, out, NULL, tm_log_fn, &log), 0);
	char *got = tm_file_read(out);
	char *want = tm_file_read(tm_data("expected-merged-s1.csv"));
	assert_non_null(got);
	assert_non_null(want);
	assert_string_equal(got, want);
	free(got);
	free(want);

	struct merge_paths p3 = {
		.pre_csv = tm_data("frames-s3-pre.csv"),
		.post_csv = tm_data("frames-s3-post.csv"),
		.gpu_pre_csv = tm_data("gpu-s3-pre.csv"),
		.gpu_post_csv = tm_data("gpu-s3-post.csv"),
	};
	struct merge_summary s;
	snprintf(out, sizeof(out), "%s/out3.csv", dir);
	assert_int_equal(merge_files(&p3, out, &s, tm_log_fn, &log), 0);
	assert_int_equal(s.gpu_frame_count, 2);
	got = tm_file_read(out);
	assert_non_null(strstr(got, "\n10,5,1000.000,0.100,0.050,0.050,0.0050,2.000,0.2000,,,,,,,,,,,,,2.000,0\n"));
	free(got);
	tm_dir_remove(dir);
}

static void test_global_comma_locale(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, COMMA_LOCALE))
		fail_msg("locale %s is not available (LOCPATH=%s): the merge_locale_setup "
		         "test generates it",
		         COMMA_LOCALE, getenv("LOCPATH") ? getenv("LOCPATH") : "(unset)");
	assert_comma_locale_active();
	merge_and_compare();
	setlocale(LC_ALL, "C");
}

static void *thread_with_comma_locale(void *arg)
{
	locale_t loc = newlocale(LC_ALL_MASK, COMMA_LOCALE, (locale_t)0);
	(void)arg;
	if (!loc)
		return "newlocale failed";
	uselocale(loc);
	assert_comma_locale_active();
	merge_and_compare();
	uselocale(LC_GLOBAL_LOCALE);
	freelocale(loc);
	return NULL;
}

/* The layer runs on a host thread that may have its own uselocale(). */
static void test_thread_comma_locale(void **state)
{
	(void)state;
	pthread_t t;
	void *err = NULL;
	assert_int_equal(pthread_create(&t, NULL, thread_with_comma_locale, NULL), 0);
	assert_int_equal(pthread_join(t, &err), 0);
	if (err)
		fail_msg("%s", (const char *)err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_comma_locale),
		cmocka_unit_test(test_thread_comma_locale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
