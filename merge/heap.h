/*
 * xrlm's heap, set up for a tool that touches tens of MB of short-lived
 * buffers (the merge's windows, spills, writers): one arena, no mmap per
 * buffer, freed memory kept, and the heap backed by transparent huge pages
 * where the kernel allows them (madvise mode). On VMs where a page fault
 * costs 10-40 us (this project's build machine: 4 KiB faults were more than
 * half of a 10^4-frame merge), one 2 MiB fault replaces 512 of them. For
 * xrlm alone: the layers never tune their host application's allocator.
 */
#ifndef XRLM_HEAP_H
#define XRLM_HEAP_H

#include <stddef.h>

/* Tunes malloc and advises huge pages for its heap. Call once, first thing in main(). */
void heap_setup(void);

/*
 * Starts faulting in the first @p bytes of the heap (at most what
 * heap_setup() laid out) on up to @p threads threads, so that clearing its
 * fresh pages (a 2 MiB page takes 130-380 us on these VMs) happens beside
 * the work that will use them rather than inside it. Only page tables are
 * filled (MADV_POPULATE_WRITE): the memory's contents are not touched, so
 * malloc may hand it out meanwhile. Does nothing where the kernel lacks
 * it, without heap_setup(), or when already started. Call
 * heap_prefault_finish() before exiting.
 *
 * The heap's first @p small bytes are then taken back from huge pages and
 * not faulted in ahead: the buffers a merge's first threads take there
 * fault 4 KiB at a time as they are touched, instead of waiting for a
 * 2 MiB page to be cleared. Call before the heap's first use after
 * heap_setup(), or @p small does nothing for the pages already there.
 */
void heap_prefault_start(size_t bytes, unsigned threads, size_t small);

/* Joins what heap_prefault_start() started (nothing started: returns at once). */
void heap_prefault_finish(void);

#endif /* XRLM_HEAP_H */
