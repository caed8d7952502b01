/*
 * xrlm's heap tuning; see heap.h.
 */
#include "heap.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Heap laid out (not touched) at start and advised for huge pages. */
#define HEAP_RESERVE_BLOCKS 3
#define HEAP_BLOCK ((size_t)30 << 20)
/* Below glibc's 32 MiB ceiling: every buffer of the merge comes from the heap. */
#define HEAP_MMAP_THRESHOLD ((size_t)32 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Advises the whole 2 MiB pages inside [p, p + n). */
static void advise_huge(void *p, size_t n)
{
	uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

void heap_setup(void)
{
	void *block[HEAP_RESERVE_BLOCKS];

	/* Failures only cost speed: each setting is a hint. */
	mallopt(M_ARENA_MAX, 1); /* reader and writer threads use the same heap */
	mallopt(M_MMAP_THRESHOLD, (int)HEAP_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * HEAP_RESERVE_BLOCKS * HEAP_BLOCK)); /* kept, advised */
	mallopt(M_TOP_PAD, (int)HUGE_PAGE);
	/* The heap is grown once, untouched (no RSS), advised, and given back
	 * to malloc: the merge's buffers are then carved from it. */
	for (int i = 0; i < HEAP_RESERVE_BLOCKS; i++)
		block[i] = malloc(HEAP_BLOCK);
	for (int i = 0; i < HEAP_RESERVE_BLOCKS; i++)
		if (block[i])
			advise_huge(block[i], HEAP_BLOCK);
	for (int i = HEAP_RESERVE_BLOCKS - 1; i >= 0; i--)
		free(block[i]);
}
