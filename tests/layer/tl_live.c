/*
 * Unit tests of the live view's GPU pairing (layer/xl_live.c, behind `xrlm
 * ctl watch`): pre's and post's timestamps of one frame give the ticks
 * between them, across the wrap of a clock narrower than 64 bits (as the
 * merge); a backwards pair, or two clocks (periods or widths that differ),
 * gives nothing; a 64-bit pair as always.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_live.h"

#include <stdlib.h>

static struct xl_live live;
static double scratch[2 * XL_LIVE_VALUES];

static int setup(void **state)
{
	(void)state;
	xl_live_init(&live);
	xl_live_watch(&live, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	xl_live_watch(&live, -1);
	xl_live_fini(&live);
	return 0;
}

/* Pre's and post's samples of frame @p display_time, post's first (the writers race). */
static void frame(int64_t display_time, uint64_t pre, unsigned pre_bits, uint64_t post,
                  unsigned post_bits, float period_ns)
{
	xl_live_gpu(&live, 1, 1, display_time, post, post_bits, period_ns);
	xl_live_gpu(&live, 0, 1, display_time, pre, pre_bits, period_ns);
}

/* The second's GPU frames and their mean (µs). */
static uint64_t take(double *mean_us)
{
	struct xl_live_second sec;

	xl_live_take(&live, &sec, scratch);
	*mean_us = sec.gpu_mean_us;
	return sec.gpu_frames;
}

static void test_across_wrap(void **state)
{
	(void)state;
	double mean;

	/* A 12-bit clock of 1 µs ticks: 4090 -> 6 is 12 ticks, 4095 -> 3 is 4. */
	frame(10, 4090, 12, 6, 12, 1000.0f);
	frame(20, 4095, 12, 3, 12, 1000.0f);
	assert_int_equal(take(&mean), 2);
	assert_true(mean == 8.0);
	/* ANV's 36 bits. */
	frame(30, 0xffffffff0ull, 36, 0x10, 36, 1000.0f);
	assert_int_equal(take(&mean), 1);
	assert_true(mean == 32.0);
}

static void test_unusable_pairs(void **state)
{
	(void)state;
	double mean;

	frame(10, 2000, 12, 10, 12, 1000.0f);        /* 2106 on: more than half, backwards */
	frame(20, 6, 12, 4090, 36, 1000.0f);         /* two widths: two clocks */
	frame(30, 5, 64, 3, 64, 1.0f);               /* 64 bits never wrap: backwards */
	assert_int_equal(take(&mean), 0);
	frame(40, 5, 64, 3005, 64, 1.0f);            /* and in order, as always */
	assert_int_equal(take(&mean), 1);
	assert_true(mean == 3.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_across_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unusable_pairs, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
