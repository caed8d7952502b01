/*
 * Unit tests of the project's one number parser (layer/u_parse.c): the
 * span parsers under the CSV readers and the whole-string parsers and
 * environment readers of the layers' settings.
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

#include "u_parse.h"

static enum u_parse_result span_u64(const char *s, uint64_t *v)
{
	return u_parse_span_u64(s, strlen(s), v);
}

static enum u_parse_result span_i64(const char *s, int64_t *v)
{
	return u_parse_span_i64(s, strlen(s), v);
}

static enum u_parse_result span_f64(const char *s, double *v)
{
	return u_parse_span_f64(s, strlen(s), v);
}

static void test_span_u64(void **state)
{
	(void)state;
	uint64_t v = 0;

	assert_int_equal(span_u64("0", &v), U_PARSE_OK);
	assert_int_equal(v, 0);
	assert_int_equal(span_u64("1234567890123456", &v), U_PARSE_OK); /* two 8-digit blocks */
	assert_int_equal(v, 1234567890123456ull);
	assert_int_equal(span_u64("18446744073709551615", &v), U_PARSE_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(span_u64("18446744073709551616", &v), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(span_u64("123456789012345678901", &v), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(span_u64("-5", &v), U_PARSE_NEGATIVE);
	assert_int_equal(span_u64("", &v), U_PARSE_EMPTY);
	assert_int_equal(span_u64("-", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_u64("12a", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_u64("1234567a", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_u64("+5", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_u64(" 5", &v), U_PARSE_NOT_A_NUMBER);
	/* The span ends where it is told to, not at a NUL. */
	assert_int_equal(u_parse_span_u64("42,7", 2, &v), U_PARSE_OK);
	assert_int_equal(v, 42);
}

static void test_span_i64(void **state)
{
	(void)state;
	int64_t v = 0;

	assert_int_equal(span_i64("-9223372036854775808", &v), U_PARSE_OK);
	assert_true(v == INT64_MIN);
	assert_int_equal(span_i64("9223372036854775807", &v), U_PARSE_OK);
	assert_true(v == INT64_MAX);
	assert_int_equal(span_i64("9223372036854775808", &v), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(span_i64("-9223372036854775809", &v), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(span_i64("-", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_i64("--5", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_i64("", &v), U_PARSE_EMPTY);
}

static void test_span_f64(void **state)
{
	(void)state;
	double v = 0;
	const char *same_as_strtod[] = {"0", "-0", "1.5", "0.1", "123456.789", "1e3", "2E-3", "+7",
	                                "0.000001", "12345678901234567890", "1.7976931348623157e308",
	                                "3.14159265358979323846", ".5", "5."};

	for (size_t i = 0; i < sizeof(same_as_strtod) / sizeof(same_as_strtod[0]); i++) {
		assert_int_equal(span_f64(same_as_strtod[i], &v), U_PARSE_OK);
		assert_memory_equal(&v, &(double){strtod(same_as_strtod[i], NULL)}, sizeof(v));
	}
	assert_int_equal(span_f64("nan", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64("inf", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64("0x10", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64("1,5", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64("1.5 ", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64(".", &v), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(span_f64("1e999", &v), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(span_f64("", &v), U_PARSE_EMPTY);
}

static void test_whole_string(void **state)
{
	(void)state;
	uint64_t u = 0;
	double d = 0;

	assert_int_equal(u_parse_u64("+12", 0, 100, &u), U_PARSE_OK);
	assert_int_equal(u, 12);
	assert_int_equal(u_parse_u64("+", 0, 100, &u), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(u_parse_u64("+-5", 0, 100, &u), U_PARSE_NOT_A_NUMBER);
	assert_int_equal(u_parse_u64("-5", 0, 100, &u), U_PARSE_NEGATIVE);
	assert_int_equal(u_parse_u64("101", 0, 100, &u), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(u_parse_u64("  ", 0, 100, &u), U_PARSE_EMPTY);
	assert_int_equal(u_parse_double("-5", 0, 100, &d), U_PARSE_NEGATIVE);
	assert_int_equal(u_parse_double("-5", -10, 100, &d), U_PARSE_OK);
	assert_int_equal(u_parse_double("-50", -10, 100, &d), U_PARSE_OUT_OF_RANGE);
	assert_int_equal(u_parse_double("2.5", 0, 100, &d), U_PARSE_OK);
	assert_true(d == 2.5);
	assert_string_equal(u_parse_result_str(U_PARSE_NEGATIVE), "is negative");
}

static void keep_message(void *ctx, const char *message)
{
	snprintf(ctx, 512, "%s", message);
}

/* What a user reads for XRLM_RECORD_FRAMES=-5 and friends. */
static void test_env_messages(void **state)
{
	(void)state;
	char msg[512] = "";

	setenv("XRLM_TEST_U_PARSE", "-5", 1);
	assert_int_equal(u_env_u64("XRLM_TEST_U_PARSE", 7, 1, 1000, keep_message, msg), 7);
	assert_string_equal(msg, "XRLM_TEST_U_PARSE=\"-5\" is negative (expected a whole number "
	                         "from 1 to 1000); using the default 7");
	assert_true(u_env_double("XRLM_TEST_U_PARSE", 1.5, 0, 60, keep_message, msg) == 1.5);
	assert_string_equal(msg, "XRLM_TEST_U_PARSE=\"-5\" is negative (expected a number from 0 "
	                         "to 60); using the default 1.5");
	setenv("XRLM_TEST_U_PARSE", "5x", 1);
	assert_int_equal(u_env_u64("XRLM_TEST_U_PARSE", 7, 1, 1000, keep_message, msg), 7);
	assert_non_null(strstr(msg, "\"5x\" is not a number"));
	unsetenv("XRLM_TEST_U_PARSE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_u64),
		cmocka_unit_test(test_span_i64),
		cmocka_unit_test(test_span_f64),
		cmocka_unit_test(test_whole_string),
		cmocka_unit_test(test_env_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
