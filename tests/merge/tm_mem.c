/*
 * Unit tests of the merge's large blocks (merge/mem.c): with
 * mem_map_large, a block from MEM_MAP_BYTES on is a mapping of its own
 * (malloc's statistics do not see it), contents kept when it grows from
 * malloc into a mapping, within its mapping, and when it shrinks; zeroed
 * by mem_calloc either way; freed right whatever the flag says by then.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mem.h"

/* Fills @p n bytes of @p p with a pattern from @p from on. */
static void fill(unsigned char *p, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 3);
}

static void check(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 7 + 3))
			fail_msg("byte %zu changed", i);
}

/* Bytes malloc holds for its callers, mmapped blocks included. */
static size_t malloc_bytes(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

static void test_grow_keeps_contents(void **state)
{
	(void)state;
	mem_map_large = true;
	size_t small = 1000, big = 3 * MEM_MAP_BYTES, bigger = 64 * MEM_MAP_BYTES;
	unsigned char *p = mem_alloc(small);
	assert_non_null(p);
	fill(p, 0, small);
	p = mem_realloc(p, big); /* malloc to a mapping */
	assert_non_null(p);
	check(p, small);
	fill(p, small, big);
	p = mem_realloc(p, bigger); /* from one mapping to another */
	assert_non_null(p);
	check(p, big);
	fill(p, big, bigger);
	p = mem_realloc(p, small); /* shrinks, still a mapping */
	assert_non_null(p);
	check(p, small);
	mem_free(p);
	mem_map_large = false;
}

static void test_large_blocks_are_not_malloc_s(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	skip(); /* the sanitizer's allocator keeps no mallinfo2() */
#endif
	mem_map_large = true;
	size_t before = malloc_bytes();
	void *p = mem_alloc(8 * MEM_MAP_BYTES);
	assert_non_null(p);
	memset(p, 1, 8 * MEM_MAP_BYTES);
	/* Not a block malloc holds, mapped or not. */
	assert_true(malloc_bytes() < before + MEM_MAP_BYTES);
	mem_free(p);

	mem_map_large = false;
	p = mem_alloc(8 * MEM_MAP_BYTES);
	assert_non_null(p);
	assert_true(malloc_bytes() >= before + 8 * MEM_MAP_BYTES);
	mem_free(p);
}

static void test_calloc_zeroed(void **state)
{
	(void)state;
	for (int map = 0; map <= 1; map++) {
		mem_map_large = map;
		size_t sizes[] = {16, MEM_MAP_BYTES - 1, MEM_MAP_BYTES, 5 * MEM_MAP_BYTES + 3};
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			unsigned char *p = mem_calloc(sizes[s], 1);
			assert_non_null(p);
			for (size_t i = 0; i < sizes[s]; i++)
				if (p[i])
					fail_msg("byte %zu of %zu not zero (map %d)", i, sizes[s], map);
			mem_free(p);
		}
	}
	mem_map_large = false;
}

/* A block is freed and resized as it was made, whatever the flag says now. */
static void test_flag_changed_between(void **state)
{
	(void)state;
	mem_map_large = true;
	unsigned char *mapped = mem_alloc(2 * MEM_MAP_BYTES);
	mem_map_large = false;
	unsigned char *plain = mem_alloc(2 * MEM_MAP_BYTES);
	assert_non_null(mapped);
	assert_non_null(plain);
	fill(mapped, 0, 2 * MEM_MAP_BYTES);
	mapped = mem_realloc(mapped, 4 * MEM_MAP_BYTES);
	assert_non_null(mapped);
	check(mapped, 2 * MEM_MAP_BYTES);
	mem_map_large = true;
	mem_free(plain);
	mem_free(mapped);
	mem_free(NULL);
	mem_map_large = false;
}

static void test_overflow(void **state)
{
	(void)state;
	for (int map = 0; map <= 1; map++) {
		mem_map_large = map;
		assert_null(mem_alloc(SIZE_MAX - 8));
		assert_null(mem_calloc(SIZE_MAX / 2, 3));
		void *p = mem_alloc(100);
		assert_non_null(p);
		assert_null(mem_realloc(p, SIZE_MAX - 8)); /* p untouched */
		mem_free(p);
	}
	mem_map_large = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_keeps_contents),
		cmocka_unit_test(test_large_blocks_are_not_malloc_s),
		cmocka_unit_test(test_calloc_zeroed),
		cmocka_unit_test(test_flag_changed_between),
		cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
