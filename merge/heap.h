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

/* Tunes malloc and advises huge pages for its heap. Call once, first thing in main(). */
void heap_setup(void);

#endif /* XRLM_HEAP_H */
