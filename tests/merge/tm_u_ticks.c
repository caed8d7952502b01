/*
 * Unit tests of the one subtraction of GPU timestamps (layer/u_ticks.c),
 * shared by the layers and xrlm: a wrap between two timestamps is undone
 * whatever the width, half the range or more forward is backwards, and
 * 64 bits (or a width a file did not give) reads as every reader always
 * read it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "u_ticks.h"

static void test_mask(void **state)
{
	(void)state;
	assert_true(u_ticks_mask(1) == 1);
	assert_true(u_ticks_mask(8) == 0xff);
	assert_true(u_ticks_mask(36) == 0xfffffffffull);
	assert_true(u_ticks_mask(63) == INT64_MAX);
	assert_true(u_ticks_mask(64) == UINT64_MAX);
	/* Not a narrower counter: the full width. */
	assert_true(u_ticks_mask(0) == UINT64_MAX);
	assert_true(u_ticks_mask(65) == UINT64_MAX);
}

/* Every width: a step of d ticks from any start, wrapped or not, reads d. */
static void test_delta_every_width(void **state)
{
	(void)state;
	for (unsigned bits = 2; bits <= 64; bits++) {
		uint64_t mask = u_ticks_mask(bits), half = (mask >> 1) + 1;
		const uint64_t starts[] = {0, 1, half - 1, half, mask - 1, mask};
		/* Negated in unsigned arithmetic: -2^63 has no positive twin. */
		const int64_t steps[] = {0, 1, -1, (int64_t)(half - 1), (int64_t)(0 - (half - 1)),
		                         (int64_t)(0 - half)};
		for (size_t s = 0; s < 6; s++)
			for (size_t d = 0; d < 6; d++) {
				uint64_t a = starts[s], b = (a + (uint64_t)steps[d]) & mask;
				if (u_ticks_delta(b, a, bits) != steps[d])
					fail_msg("%u bits: %llu -> %llu read %lld, want %lld", bits,
					         (unsigned long long)a, (unsigned long long)b,
					         (long long)u_ticks_delta(b, a, bits), (long long)steps[d]);
			}
	}
}

static void test_delta_examples(void **state)
{
	(void)state;
	/* 8 bits: 250 -> 4 is 10 ticks on, 4 -> 250 10 back. */
	assert_int_equal(u_ticks_delta(4, 250, 8), 10);
	assert_int_equal(u_ticks_delta(250, 4, 8), -10);
	/* ANV's 36 bits, a wrap every ~1 h at 52 ns. */
	assert_int_equal(u_ticks_delta(100, 0xfffffff00ull, 36), 356);
	/* 64 bits: the plain signed difference, as the trace always had it. */
	assert_int_equal(u_ticks_delta(5, UINT64_MAX, 64), 6);
	assert_int_equal(u_ticks_delta(0, 1, 64), -1);
	/* High bits beyond the width do not count. */
	assert_int_equal(u_ticks_delta(0x1000 | 4, 250, 8), 10);
	/* 1 bit: 0 or -1 only. */
	assert_int_equal(u_ticks_delta(1, 0, 1), -1);
	assert_int_equal(u_ticks_delta(1, 1, 1), 0);
}

static void test_since(void **state)
{
	(void)state;
	uint64_t d = 77;

	/* Across the wrap: forward. */
	assert_true(u_ticks_since(4, 250, 8, &d));
	assert_true(d == 10);
	/* The other way: backwards, @p out untouched. */
	d = 77;
	assert_false(u_ticks_since(250, 4, 8, &d));
	assert_true(d == 77);
	/* Half the range forward reads as backwards; one less is forward. */
	assert_false(u_ticks_since(128, 0, 8, &d));
	assert_true(u_ticks_since(127, 0, 8, &d));
	assert_true(d == 127);
	assert_true(u_ticks_since(0x10, 0xffffffff0ull, 36, &d));
	assert_true(d == 0x20);
	/* 64 bits never wrap: post < pre is backwards, however close to the
	 * top pre is, and any forward difference stands (as before). */
	assert_false(u_ticks_since(5, UINT64_MAX, 64, &d));
	assert_true(u_ticks_since(UINT64_MAX, 0, 64, &d));
	assert_true(d == UINT64_MAX);
	/* A width no file gave (0): the same. */
	assert_false(u_ticks_since(5, UINT64_MAX, 0, &d));
	assert_true(u_ticks_since(7, 5, 0, &d));
	assert_true(d == 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_delta_every_width),
		cmocka_unit_test(test_delta_examples),
		cmocka_unit_test(test_since),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
