/*
 * xrlm's heap tuning; see heap.h.
 */
#include "heap.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Heap laid out (not touched) at start and advised for huge pages. */
#define HEAP_RESERVE ((size_t)90 << 20)
/* Below glibc's 32 MiB ceiling: every buffer of the merge comes from the heap. */
#define HEAP_MMAP_THRESHOLD ((size_t)32 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define PAGE ((uintptr_t)4096)
/* glibc's default number of mmap()ed buffers at once. */
#define HEAP_MMAP_MAX 65536

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
	/* Failures only cost speed: each setting is a hint. */
	mallopt(M_ARENA_MAX, 1); /* reader and writer threads use the same heap */
	mallopt(M_MMAP_THRESHOLD, (int)HEAP_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * HEAP_RESERVE)); /* kept, advised */
	mallopt(M_TOP_PAD, (int)HUGE_PAGE);
	/*
	 * The heap's first chunk header goes in the last 4 KiB page below a
	 * huge-page boundary, so that nothing above the boundary is touched
	 * before it is advised: a 2 MiB range with one 4 KiB page mapped in it
	 * is faulted 4 KiB at a time from then on.
	 */
	uintptr_t brk_now = (uintptr_t)sbrk(0);
	if (brk_now == (uintptr_t)-1)
		return;
	uintptr_t want = ((brk_now + PAGE + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)) - PAGE;
	if (want > brk_now && sbrk((intptr_t)(want - brk_now)) == (void *)-1)
		return;
	/* The heap is grown once, untouched but for that header, advised, and
	 * given back to malloc: the merge's buffers are then carved from it. */
	mallopt(M_MMAP_MAX, 0); /* this one block too comes from the heap */
	void *block = malloc(HEAP_RESERVE);
	mallopt(M_MMAP_MAX, HEAP_MMAP_MAX);
	if (!block)
		return;
	advise_huge(block, HEAP_RESERVE);
	free(block);
}
