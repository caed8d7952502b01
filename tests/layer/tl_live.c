/*
 * Unit tests of the live view's GPU pairing (layer/xl_live.c, behind `xrlm
 * ctl watch`): pre's and post's timestamps of one frame give the ticks
 * between them, across the wrap of a clock narrower than 64 bits (as the
 * merge); a backwards pair, or two clocks (periods or widths that differ),
 * gives nothing; a 64-bit pair as always.
 *
 * And its CPU pairing: pre's bracket less post's less the bracket
 * correction, for the same session, frame and thread only, each entry
 * paired once; past XL_LIVE_VALUES a second's mean still counts every
 * frame; the CPU and GPU percentiles each of their own values; nothing
 * kept while nobody watches, or from before the last watcher left.
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

/* Pre's and post's CPU brackets of one frame on thread @p tid, pre's first. */
static void cpu_frame(int64_t display_time, uint32_t tid, uint64_t pre_ns, uint64_t post_ns)
{
	xl_live_cpu(&live, 0, 1, display_time, tid, 1000, 1000 + pre_ns);
	xl_live_cpu(&live, 1, 1, display_time, tid, 5000, 5000 + post_ns);
}

static void test_cpu_pairs(void **state)
{
	(void)state;
	struct xl_live_second sec;

	atomic_store(&live.bracket_correction_ns, 100);
	cpu_frame(10, 7, 3100, 1000);    /* 3100 - 1000 - 100 = 2 us */
	/* Post's first, another frame: 4 us. */
	xl_live_cpu(&live, 1, 1, 20, 7, 0, 2000);
	xl_live_cpu(&live, 0, 1, 20, 7, 0, 6100);
	/* Another thread, session or frame: no pair. */
	xl_live_cpu(&live, 0, 1, 30, 7, 0, 9000);
	xl_live_cpu(&live, 1, 1, 30, 8, 0, 1000);
	xl_live_cpu(&live, 1, 2, 30, 7, 0, 1000);
	xl_live_cpu(&live, 1, 1, 31, 7, 0, 1000);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, 2);
	assert_true(sec.cpu_mean_us == 3.0);
	/* Pre's entry of frame 30 pairs once: with the first post entry that matches. */
	xl_live_cpu(&live, 1, 1, 30, 7, 0, 2100);
	xl_live_cpu(&live, 1, 1, 30, 7, 0, 2100);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, 1);
	assert_true(sec.cpu_mean_us == 6.8);
	atomic_store(&live.bracket_correction_ns, 0);
}

static void test_many_and_percentiles(void **state)
{
	(void)state;
	struct xl_live_second sec;

	/* More frames than values kept: CPU 1 us each but 101 us for the last 200. */
	for (int i = 0; i < XL_LIVE_VALUES + 200; i++)
		cpu_frame(100 + i, 1, i < XL_LIVE_VALUES ? 1000 : 101000, 0);
	/* GPU: 5 us each (5 ticks of 1 us). */
	for (int i = 0; i < 10; i++)
		frame(100 + i, 5, 64, 10, 64, 1000.0f);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, XL_LIVE_VALUES + 200);
	/* Every frame's value in the mean: 4096 x 1 + 200 x 101. */
	assert_true(sec.cpu_mean_us == (XL_LIVE_VALUES + 200.0 * 101) / (XL_LIVE_VALUES + 200));
	assert_true(sec.cpu_p99_us == 1.0);
	assert_int_equal(sec.gpu_frames, 10);
	assert_true(sec.gpu_p99_us == 5.0);
	/* Two periods: two clocks. */
	frame(200, 5, 64, 10, 64, 1000.0f);
	xl_live_gpu(&live, 1, 1, 201, 10, 64, 2.0f);
	xl_live_gpu(&live, 0, 1, 201, 5, 64, 1.0f);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.gpu_frames, 1);
}

static void test_unwatched(void **state)
{
	(void)state;
	struct xl_live_second sec;

	/* Nobody watching: nothing kept, nothing to pair with later. */
	xl_live_watch(&live, -1);
	xl_live_cpu(&live, 0, 1, 10, 1, 0, 5000);
	xl_live_watch(&live, 1);
	xl_live_cpu(&live, 1, 1, 10, 1, 0, 1000);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, 0);
	/* The last watcher leaving forgets what was pending and counted. */
	xl_live_cpu(&live, 0, 1, 20, 1, 0, 5000);
	cpu_frame(21, 1, 5000, 1000);
	xl_live_watch(&live, -1);
	xl_live_watch(&live, 1);
	xl_live_cpu(&live, 1, 1, 20, 1, 0, 1000);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, 0);
	/* A second watcher leaving does not. */
	xl_live_watch(&live, 1);
	xl_live_cpu(&live, 0, 1, 30, 1, 0, 5000);
	xl_live_watch(&live, -1);
	xl_live_cpu(&live, 1, 1, 30, 1, 0, 1000);
	xl_live_take(&live, &sec, scratch);
	assert_int_equal(sec.frames, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_across_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unusable_pairs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_pairs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_and_percentiles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwatched, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
