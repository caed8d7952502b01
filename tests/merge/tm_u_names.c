/*
 * Unit tests of the session file-name scheme (layer/u_names.c): every name
 * the builders write parses back to what built it, and names that only
 * look like ours are refused; a tag as long as the parsed name holds is
 * taken, one byte more refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "u_names.h"

static const char *const kinds[] = {U_NAMES_FRAMES, U_NAMES_GPU, U_NAMES_FUNCTIONS,
                                    U_NAMES_CALLS};
static const char *const sides[] = {U_NAMES_PRE, U_NAMES_POST, NULL};
static const char *const tags[] = {"4242-20260101T000000", "4242-20260101T000000-3", "s1",
                                   "a-b"};

/* Builds the name of (kind, tag, side) in @p dir (may be NULL). */
static int build(char *out, size_t size, const char *dir, const char *kind, const char *tag,
                 const char *side)
{
	return side ? u_names_side_file(out, size, dir, kind, tag, side)
	            : u_names_merged_file(out, size, dir, kind, tag);
}

static void test_round_trip(void **state)
{
	(void)state;
	char path[256];
	struct u_names_parsed n;

	for (size_t k = 0; k < 4; k++)
		for (size_t s = 0; s < 3; s++)
			for (size_t t = 0; t < 4; t++) {
				const char *dir = t % 2 ? "/tmp/out dir" : NULL;
				int len = build(path, sizeof(path), dir, kinds[k], tags[t], sides[s]);
				assert_int_equal(len, (int)strlen(path));
				assert_true(u_names_parse(path, &n));
				assert_string_equal(n.kind, kinds[k]);
				assert_true(u_names_is(&n, kinds[k], sides[s]));
				assert_string_equal(n.tag, tags[t]);
				assert_int_equal(n.dir_len, dir ? (int)strlen(dir) + 1 : 0);
			}
}

static void test_exact_names(void **state)
{
	(void)state;
	char path[64];

	assert_int_equal(u_names_side_file(path, sizeof(path), "d", U_NAMES_FRAMES, "7", U_NAMES_PRE),
	                 18);
	assert_string_equal(path, "d/frames-7-pre.csv");
	assert_true(u_names_merged_file(path, sizeof(path), NULL, U_NAMES_FUNCTIONS, "7") > 0);
	assert_string_equal(path, "functions-merged-7.csv");
	assert_true(u_names_side_file(path, sizeof(path), NULL, U_NAMES_CALLS, "7", U_NAMES_POST) > 0);
	assert_string_equal(path, "calls-7-post.csv");
	assert_true(u_names_side_file(path, sizeof(path), NULL, U_NAMES_GPU, "7", U_NAMES_POST) > 0);
	assert_string_equal(path, "gpu-7-post.csv");
}

static void test_builders_refuse(void **state)
{
	(void)state;
	char path[24];

	/* A tag with a '/' would write into another directory. */
	assert_int_equal(
		u_names_side_file(path, sizeof(path), NULL, U_NAMES_FRAMES, "../x", U_NAMES_PRE), -1);
	assert_int_equal(u_names_merged_file(path, sizeof(path), NULL, U_NAMES_FRAMES, "a/b"), -1);
	assert_int_equal(u_names_side_file(path, sizeof(path), NULL, U_NAMES_FRAMES, "", U_NAMES_PRE),
	                 -1);
	/* Exactly full is too long: the '\0' needs a byte. */
	assert_int_equal(u_names_side_file(path, 17, NULL, U_NAMES_FRAMES, "12", U_NAMES_PRE), -1);
	assert_int_equal(u_names_side_file(path, 18, NULL, U_NAMES_FRAMES, "12", U_NAMES_PRE), 17);
}

static void test_near_misses(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"frames--pre.csv",      "frames-x-mid.csv",   "frames-x-pre.txt", "frames-x-pre.csv.bak",
		"frames-x-pre",         "frames-merged-.csv", "frames-merged.csv", "framesx-1-pre.csv",
		"frame-1-pre.csv",      "stats-1-pre.csv",    "frames-a/b-pre.csv", "dir/frames-",
		"frames-1-pre.csv/",    "-1-pre.csv",         "frames-pre.csv",    "gpu-merged-",
		"",                     "frames-1-PRE.csv",   "frames-1-xpre.csv",
		"frames-merged-x.txt",  "frames-merged-x.csvx",
	};
	struct u_names_parsed n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (u_names_parse(bad[i], &n))
			fail_msg("\"%s\" parsed as %s/%s tag \"%s\"", bad[i], n.kind,
			         n.side ? n.side : "merged", n.tag);
}

static void test_parse_forms(void **state)
{
	(void)state;
	struct u_names_parsed n;

	/* The per-side form wins: this is a pre file of tag "merged-x". */
	assert_true(u_names_parse("frames-merged-x-pre.csv", &n));
	assert_true(u_names_is(&n, U_NAMES_FRAMES, U_NAMES_PRE));
	assert_string_equal(n.tag, "merged-x");
	assert_true(u_names_parse("a/b/gpu-9-post.csv", &n));
	assert_true(u_names_is(&n, U_NAMES_GPU, U_NAMES_POST));
	assert_false(u_names_is(&n, U_NAMES_GPU, U_NAMES_PRE));
	assert_false(u_names_is(&n, U_NAMES_GPU, NULL));
	assert_false(u_names_is(&n, U_NAMES_FRAMES, U_NAMES_POST));
	assert_int_equal(n.dir_len, 4);

	char sib[64];
	assert_int_equal(
		u_names_sibling(sib, sizeof(sib), "a/b/gpu-9-post.csv", &n, U_NAMES_FUNCTIONS, NULL), 26);
	assert_string_equal(sib, "a/b/functions-merged-9.csv");
	assert_int_equal(
		u_names_sibling(sib, 4, "a/b/gpu-9-post.csv", &n, U_NAMES_FRAMES, U_NAMES_PRE), -1);
}

/* A tag of U_NAMES_TAG_MAX - 1 bytes is taken whole; one byte more, refused. */
static void test_longest_tag(void **state)
{
	(void)state;
	char name[U_NAMES_TAG_MAX + 32], tag[U_NAMES_TAG_MAX + 1];
	struct u_names_parsed n;

	memset(tag, 'x', U_NAMES_TAG_MAX - 1);
	tag[U_NAMES_TAG_MAX - 1] = '\0';
	snprintf(name, sizeof(name), "frames-%s-pre.csv", tag);
	assert_true(u_names_parse(name, &n));
	assert_string_equal(n.tag, tag);
	snprintf(name, sizeof(name), "frames-merged-%s.csv", tag);
	assert_true(u_names_parse(name, &n));
	assert_string_equal(n.tag, tag);
	memset(tag, 'x', U_NAMES_TAG_MAX);
	tag[U_NAMES_TAG_MAX] = '\0';
	snprintf(name, sizeof(name), "frames-%s-pre.csv", tag);
	assert_false(u_names_parse(name, &n));
	snprintf(name, sizeof(name), "frames-merged-%s.csv", tag);
	assert_false(u_names_parse(name, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_exact_names),
		cmocka_unit_test(test_builders_refuse),
		cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_longest_tag),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
