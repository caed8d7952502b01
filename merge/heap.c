/*
 * xrlm's heap tuning; see heap.h.
 */
#include "heap.h"
#include "thread.h"

#include <malloc.h>
#include <stdatomic.h>
#include <stdbool.h>
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
#define PREFAULT_THREADS_MAX 4
#ifndef MADV_POPULATE_WRITE
/* Linux 5.14's value, for older headers; an older kernel says EINVAL (prefault_work). */
#define MADV_POPULATE_WRITE 23
#endif

/* The block heap_setup() laid out: the heap's first HEAP_RESERVE bytes. */
static char *heap_base;

/*
 * The prefault threads and the huge pages they share out. The first
 * thread starts the others, so the caller pays for one thread's start.
 */
static struct {
	struct thread first;
	bool started;
	struct thread others[PREFAULT_THREADS_MAX - 1];
	unsigned other_count, threads;
	char *start;
	size_t pages;
	atomic_size_t next; /* the next page to fault in */
} prefault;

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
	heap_base = block;
	free(block);
}

/* Faults in the pages in turn, lowest first: malloc hands out the lowest first. */
static void *prefault_work(void *arg)
{
	(void)arg;
	for (;;) {
		size_t i = atomic_fetch_add(&prefault.next, 1);
		if (i >= prefault.pages)
			break;
		if (madvise(prefault.start + i * HUGE_PAGE, HUGE_PAGE, MADV_POPULATE_WRITE) != 0) {
			/* An old kernel (EINVAL): the others would fail the same way. */
			atomic_store(&prefault.next, prefault.pages);
			break;
		}
	}
	return NULL;
}

/* The first thread: starts the others, works, and joins them. */
static void *prefault_first(void *arg)
{
	while (prefault.other_count + 1 < prefault.threads &&
	       thread_start(&prefault.others[prefault.other_count], prefault_work, NULL) == 0)
		prefault.other_count++;
	prefault_work(arg);
	for (unsigned i = 0; i < prefault.other_count; i++)
		thread_join(&prefault.others[i]);
	prefault.other_count = 0;
	return NULL;
}

void heap_prefault_start(size_t bytes, unsigned threads, size_t small)
{
	if (!heap_base || prefault.started)
		return;
	/* Whole huge pages above the base's (malloc's first header is below it). */
	char *start = (char *)(((uintptr_t)heap_base + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	small = (small + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (small > HEAP_RESERVE / 2)
		small = HEAP_RESERVE / 2;
	if (small > 0 && madvise(start, small, MADV_NOHUGEPAGE) == 0)
		start += small;
	size_t room = HEAP_RESERVE - (size_t)(start - heap_base);
	if (bytes > room)
		bytes = room;
	prefault.start = start;
	prefault.pages = bytes / HUGE_PAGE;
	atomic_store(&prefault.next, 0);
	if (threads > PREFAULT_THREADS_MAX)
		threads = PREFAULT_THREADS_MAX;
	if (threads > prefault.pages)
		threads = (unsigned)prefault.pages;
	prefault.threads = threads;
	prefault.other_count = 0;
	prefault.started = threads > 0 &&
	                   thread_start(&prefault.first, prefault_first, NULL) == 0;
}

void heap_prefault_finish(void)
{
	if (!prefault.started)
		return;
	thread_join(&prefault.first);
	prefault.started = false;
}
