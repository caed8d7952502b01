/*
 * Unit tests of the GPU bracket correction's tracking (layer/xl_bracket_track.c):
 * the median of the window (one value, two, an odd count, the oldest
 * dropped past XL_BRACKET_WINDOW); a measurement off the median by more
 * than a quarter of it (XL_BRACKET_STEP_MIN_NS at least) is a doubt and
 * moves nothing, nor do two in a row; the third in a row off the same way
 * restarts the window from those three, up or down, whatever the ring's
 * position; doubts the other way do not add up; an empty window reads 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_bracket_track.h"

static void take_n(struct xl_bracket_track *t, int64_t ns, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(xl_bracket_track_take(t, ns), XL_BRACKET_STEADY);
}

static void test_median(void **state)
{
	(void)state;
	struct xl_bracket_track t = {0};

	assert_int_equal(xl_bracket_track_median(&t), 0);
	assert_int_equal(xl_bracket_track_count(&t), 0);
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	assert_int_equal(xl_bracket_track_take(&t, 19000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_median(&t), 18500); /* two: their mean */
	assert_int_equal(xl_bracket_track_take(&t, 17000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	take_n(&t, 20000, XL_BRACKET_WINDOW - 3);
	assert_int_equal(xl_bracket_track_count(&t), XL_BRACKET_WINDOW);
	/* 18000 19000 17000 and six of 20000: 20000. */
	assert_int_equal(xl_bracket_track_median(&t), 20000);
	/* Past the window the oldest go: three of 17500 replace 18000 19000 17000. */
	take_n(&t, 17500, 3);
	assert_int_equal(xl_bracket_track_count(&t), XL_BRACKET_WINDOW);
	assert_int_equal(xl_bracket_track_median(&t), 20000);
	take_n(&t, 17500, 2); /* five of 17500, four of 20000 */
	assert_int_equal(xl_bracket_track_median(&t), 17500);
}

static void test_strays(void **state)
{
	(void)state;
	struct xl_bracket_track t = {0};

	take_n(&t, 18000, XL_BRACKET_WINDOW);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	take_n(&t, 18000, XL_BRACKET_WINDOW);
	/* A doubt the other way starts its own count. */
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 1000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	assert_int_equal(xl_bracket_track_count(&t), XL_BRACKET_WINDOW);
}

/* A quarter of the median, or XL_BRACKET_STEP_MIN_NS where that is more. */
static void test_bound(void **state)
{
	(void)state;
	struct xl_bracket_track t = {0};

	take_n(&t, 18000, XL_BRACKET_WINDOW);
	assert_int_equal(xl_bracket_track_take(&t, 22500), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&t, 13500), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&t, 22501), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 13499), XL_BRACKET_DOUBT);

	struct xl_bracket_track s = {0};
	take_n(&s, 1000, XL_BRACKET_WINDOW);
	assert_int_equal(xl_bracket_track_take(&s, 1000 + XL_BRACKET_STEP_MIN_NS),
	                 XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&s, 0), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&s, 1001 + XL_BRACKET_STEP_MIN_NS),
	                 XL_BRACKET_DOUBT);
}

/* The GPU's clocks drop: the bracket steps from 18 to 35 us, and back. */
static void test_step(void **state)
{
	(void)state;
	struct xl_bracket_track t = {0};

	/* Twenty first: the ring has turned, the restart must find the last three. */
	take_n(&t, 18000, 20);
	assert_int_equal(xl_bracket_track_take(&t, 34000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 37000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	assert_int_equal(xl_bracket_track_take(&t, 35000), XL_BRACKET_RESTART);
	assert_int_equal(xl_bracket_track_count(&t), XL_BRACKET_CONFIRM);
	assert_int_equal(xl_bracket_track_median(&t), 35000);
	assert_int_equal(xl_bracket_track_take(&t, 38000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_count(&t), XL_BRACKET_CONFIRM + 1);
	assert_int_equal(xl_bracket_track_median(&t), 36000); /* 34 35 37 38 */
	take_n(&t, 35000, XL_BRACKET_WINDOW);
	assert_int_equal(xl_bracket_track_median(&t), 35000);

	/* And down again. */
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_DOUBT);
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_RESTART);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
}

/* From the first measurement on: a second far from the first is a doubt. */
static void test_early(void **state)
{
	(void)state;
	struct xl_bracket_track t = {0};

	assert_int_equal(xl_bracket_track_take(&t, 90000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_DOUBT);
	/* The median of 90000 and 18000 is 54000: 18000 is still off it. */
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_DOUBT);
	/* 18000 18000 90000: 18000, and this one is not off it. */
	assert_int_equal(xl_bracket_track_take(&t, 18000), XL_BRACKET_STEADY);
	assert_int_equal(xl_bracket_track_median(&t), 18000);
	assert_int_equal(xl_bracket_track_count(&t), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median), cmocka_unit_test(test_strays),
		cmocka_unit_test(test_bound),  cmocka_unit_test(test_step),
		cmocka_unit_test(test_early),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
