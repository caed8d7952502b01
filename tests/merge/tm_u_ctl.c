/*
 * Unit tests of the control socket's protocol helpers (layer/u_ctl.c),
 * shared by the pre layer's server and `xrlm ctl`: the escaping of values
 * and marks, the validation of a mark's text, the socket's names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "u_ctl.h"

static const char *escaped(const char *in, size_t len)
{
	static char out[U_CTL_ESCAPED_SIZE(64)];
	u_ctl_escape(in, len, out, sizeof(out));
	return out;
}

static void test_escape(void **state)
{
	(void)state;
	assert_string_equal(escaped("plain", 5), "plain");
	assert_string_equal(escaped("a b,c\"d\\e", 9), "a\\x20b\\x2cc\\x22d\\x5ce");
	assert_string_equal(escaped("\n\x7f\x01", 3), "\\x0a\\x7f\\x01");
	assert_string_equal(escaped("\0x", 2), "\\x00x");
	assert_string_equal(escaped("é", strlen("é")), "é"); /* UTF-8 kept */

	/* Cut at a whole escape, never in the middle of one. */
	char small[6];
	u_ctl_escape("ab cd", 5, small, sizeof(small));
	assert_string_equal(small, "ab");
}

static void test_unescape(void **state)
{
	(void)state;
	char out[64];
	u_ctl_unescape("a\\x20b\\x2cc\\x0a\\x7fz\\xzz\\x4", out, sizeof(out));
	/* Every escape decoded, control bytes too (the display quotes them); a broken one stays. */
	assert_string_equal(out, "a b,c\n\x7fz\\xzz\\x4");

	/* A round trip, and in place. */
	const char *text = "x \"y\",\\z \xc3\xa9 \xc2\x9b";
	char buf[U_CTL_ESCAPED_SIZE(32)];
	u_ctl_escape(text, strlen(text), buf, sizeof(buf));
	u_ctl_unescape(buf, buf, sizeof(buf));
	assert_string_equal(buf, text);

	/* Cut to the output's size, always terminated. */
	char small[4];
	u_ctl_unescape("abcdef", small, sizeof(small));
	assert_string_equal(small, "abc");
}

static void test_text_valid(void **state)
{
	(void)state;
	assert_true(u_ctl_text_valid("hello, world", 12));
	assert_true(u_ctl_text_valid("é€😀", strlen("é€😀")));
	assert_false(u_ctl_text_valid("tab\there", 8));
	assert_false(u_ctl_text_valid("del\x7f", 4));
	assert_false(u_ctl_text_valid("nul\0x", 5));
	assert_false(u_ctl_text_valid("\xc0\xaf", 2));         /* overlong '/' */
	assert_false(u_ctl_text_valid("\xe0\x80\xaf", 3));     /* overlong */
	assert_false(u_ctl_text_valid("\xed\xa0\x80", 3));     /* a surrogate */
	assert_false(u_ctl_text_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
	assert_false(u_ctl_text_valid("\xc2\x85", 2));         /* C1 control (NEL) */
	assert_false(u_ctl_text_valid("\xe2\x82", 2));         /* cut short */
	assert_false(u_ctl_text_valid("\x80", 1));             /* a lone continuation */
}

static void test_socket_names(void **state)
{
	(void)state;
	pid_t pid = 0;
	char path[64];

	assert_true(u_ctl_parse_socket_name("4037.sock", &pid));
	assert_int_equal(pid, 4037);
	assert_false(u_ctl_parse_socket_name("0.sock", &pid));
	assert_false(u_ctl_parse_socket_name("-1.sock", &pid));
	assert_false(u_ctl_parse_socket_name("12.sock.bak", &pid));
	assert_false(u_ctl_parse_socket_name("12", &pid));
	assert_false(u_ctl_parse_socket_name("99999999999.sock", &pid));
	assert_true(u_ctl_socket_path(path, sizeof(path), "/run/user/1000/xrlm", 42));
	assert_string_equal(path, "/run/user/1000/xrlm/42.sock");
	assert_false(u_ctl_socket_path(path, 10, "/run/user/1000/xrlm", 42));
}

static void test_dir(void **state)
{
	(void)state;
	char dir[64], why[128];

	setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
	assert_true(u_ctl_dir(dir, sizeof(dir), why, sizeof(why)));
	assert_string_equal(dir, "/run/user/1000/xrlm");
	setenv("XDG_RUNTIME_DIR", "run", 1);
	assert_false(u_ctl_dir(dir, sizeof(dir), why, sizeof(why)));
	assert_non_null(strstr(why, "not an absolute path"));
	unsetenv("XDG_RUNTIME_DIR");
	assert_false(u_ctl_dir(dir, sizeof(dir), why, sizeof(why)));
	assert_string_equal(why, "XDG_RUNTIME_DIR is not set");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_text_valid),
		cmocka_unit_test(test_socket_names),
		cmocka_unit_test(test_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
