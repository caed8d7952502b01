/*
 * Unit tests of quote_path(): ordinary names as they are, others escaped
 * so that no control byte reaches a terminal and no two names look alike,
 * and a long escaped name cut inside its buffer; and csvr_quote_field(),
 * a bad field quoted in a reader's message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "csvr.h"
#include "quote.h"

static void test_ordinary_unchanged(void **state)
{
	static const char *const names[] = {
		"", "a.csv", "/tmp/d/frames-1-20261101T100000-pre.csv", "b \"q\" <x>.csv",
		"caf\xc3\xa9 'x' $y.csv",
	};
	char buf[QUOTE_PATH_MAX];
	(void)state;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_ptr_equal(quote_path(buf, names[i]), names[i]);
}

static void test_control_bytes_escaped(void **state)
{
	char buf[QUOTE_PATH_MAX];
	(void)state;

	assert_string_equal(quote_path(buf, "a\033[31mb"), "a\\033[31mb");
	assert_string_equal(quote_path(buf, "x\ny\rz\tw"), "x\\ny\\rz\\tw");
	assert_string_equal(quote_path(buf, "\001\037\177"), "\\001\\037\\177");
	/* With an escape in it, a backslash is escaped too: unambiguous. */
	assert_string_equal(quote_path(buf, "a\\033\033"), "a\\\\033\\033");
}

static void test_backslash_escaped(void **state)
{
	char buf[QUOTE_PATH_MAX];
	(void)state;

	/* "a\033b" as typed must not read as "a", ESC, "b". */
	assert_string_equal(quote_path(buf, "a\\033b"), "a\\\\033b");
}

/*
 * C1 controls: U+009B is CSI to a terminal that reads UTF-8 (VTE, xterm),
 * the byte 0x9b to one that reads 8 bits; either recolours it as ESC [
 * does. UTF-8 whose continuation bytes fall in 0x80..0x9f is left alone.
 */
static void test_c1_controls_escaped(void **state)
{
	char buf[QUOTE_PATH_MAX];
	(void)state;

	assert_string_equal(quote_path(buf, "a\xc2\x9b" "31mb"), "a\\302\\23331mb");
	assert_string_equal(quote_path(buf, "x\xc2\x85y"), "x\\302\\205y");
	assert_string_equal(quote_path(buf, "a\x9b" "31m"), "a\\23331m");
	/* "€" (e2 82 ac), "é" (c3 a9), U+00A0 (c2 a0), a 4-byte emoji: as they are. */
	static const char *const utf8 = "\xe2\x82\xac \xc3\xa9 \xc2\xa0 \xf0\x9f\x98\x80.csv";
	assert_ptr_equal(quote_path(buf, utf8), utf8);
	/* A continuation byte after a sequence's end is a stray C1 byte again. */
	assert_string_equal(quote_path(buf, "\xc3\xa9\x9b"), "\xc3\xa9\\233");
}

static void test_long_name_cut(void **state)
{
	char name[4096], buf[QUOTE_PATH_MAX + 16];
	(void)state;

	memset(name, '\033', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(buf, 'G', sizeof(buf));
	const char *q = quote_path(buf, name);
	size_t n = strlen(q);
	assert_true(n < QUOTE_PATH_MAX);
	assert_int_equal(buf[QUOTE_PATH_MAX], 'G'); /* nothing written past the buffer */
	assert_string_equal(q + n - 3, "...");
	assert_int_equal((n - 3) % 4, 0); /* whole escapes only */
	for (size_t i = 0; i < n; i++)
		assert_true((unsigned char)q[i] >= 0x20 && q[i] != 0x7f);
}

/* The text of the given form after quote_text(). */
static const char *as_text(char *buf, size_t size, const char *s)
{
	snprintf(buf, size, "%s", s);
	quote_text(buf);
	return buf;
}

/*
 * A file's text for a table: every control one '?', C1 ones too (a
 * function name "xrWait<U+009B>2JFrame" must not clear the screen), a
 * backslash and other UTF-8 as they are.
 */
static void test_text_controls_replaced(void **state)
{
	char buf[64];
	(void)state;

	assert_string_equal(as_text(buf, sizeof(buf), "a\\b \"q\""), "a\\b \"q\""); /* a backslash as it is */
	assert_string_equal(as_text(buf, sizeof(buf), "a\033[31m\nb\177"), "a?[31m?b?");
	assert_string_equal(as_text(buf, sizeof(buf), "xrWait\xc2\x9b" "2JFrame"), "xrWait?2JFrame");
	assert_string_equal(as_text(buf, sizeof(buf), "a\x9b" "2J"), "a?2J");
	assert_string_equal(as_text(buf, sizeof(buf), "\xe2\x82\xac \xc3\xa9\x9b \xc2\xa0"),
	                    "\xe2\x82\xac \xc3\xa9? \xc2\xa0");
	assert_string_equal(as_text(buf, sizeof(buf), ""), "");
}

/* quote_path_to(): a bounded array, in place, cut to the buffer. */
static void test_path_to(void **state)
{
	char buf[QUOTE_PATH_MAX], name[4] = {'a', '\033', 'b', 'c'}; /* no NUL */
	(void)state;

	assert_string_equal(quote_path_to(buf, sizeof(buf), name, sizeof(name)), "a\\033bc");
	assert_string_equal(quote_path_to(buf, sizeof(buf), "plain", (size_t)-1), "plain");
	char in_place[32] = "x\ny";
	assert_string_equal(quote_path_to(in_place, sizeof(in_place), in_place, (size_t)-1), "x\\ny");
	char small[4];
	assert_string_equal(quote_path_to(small, sizeof(small), "abcdef", (size_t)-1), "abc");
}

/*
 * csvr_quote_field(), a bad field in a reader's message: its first 40
 * bytes, "..." when there are more, '?' for every byte that is not
 * printable ASCII (DEL and the bytes above it too), cut to its buffer.
 */
static void test_quote_field(void **state)
{
	char buf[64], small[8];
	const char *forty = "0123456789012345678901234567890123456789";
	(void)state;

	csvr_quote_field(buf, sizeof(buf), " a~\x1f\x7f\x80\xff", 7);
	assert_string_equal(buf, " a~????");
	csvr_quote_field(buf, sizeof(buf), forty, 40);
	assert_string_equal(buf, forty);
	csvr_quote_field(buf, sizeof(buf), "01234567890123456789012345678901234567890", 41);
	assert_string_equal(buf, "0123456789012345678901234567890123456789...");
	csvr_quote_field(buf, sizeof(buf), "a\0b", 3);
	assert_string_equal(buf, "a?b");
	csvr_quote_field(small, sizeof(small), forty, 40);
	assert_string_equal(small, "012");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary_unchanged),
		cmocka_unit_test(test_control_bytes_escaped),
		cmocka_unit_test(test_backslash_escaped),
		cmocka_unit_test(test_c1_controls_escaped),
		cmocka_unit_test(test_long_name_cut),
		cmocka_unit_test(test_text_controls_replaced),
		cmocka_unit_test(test_path_to),
		cmocka_unit_test(test_quote_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
