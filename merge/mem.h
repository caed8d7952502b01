/*
 * The merge's large blocks (spills' memory, windows, row blocks, read
 * buffers): from malloc, or, inside an application (mem_map_large, set by
 * the post layer), from a mapping of their own once MEM_MAP_BYTES or
 * larger.
 *
 * Why: glibc mmaps a block from 128 KiB, and freeing one raises its mmap
 * threshold to the block's size (up to 32 MiB) and its trim threshold to
 * twice that, for the whole process. Inside an application the merge's
 * first freed buffers (4-8 MiB) did so; from then on each merge's buffers
 * came from the threads' malloc arenas, whose free tops below the raised
 * trim threshold (~13 MiB each) are given back neither by free() nor by
 * malloc_trim(). Which arenas a merge's threads get depends on what runs
 * beside it (an exiting application's writer threads give theirs up), so
 * the host's resident memory grew with the number of arenas the merges
 * had touched, most at exit. Blocks that never pass through malloc leave
 * both thresholds where the application's own use put them.
 *
 * A block of one of these functions is resized and freed only by them.
 */
#ifndef XRLM_MEM_H
#define XRLM_MEM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Blocks from here on are mappings of their own under mem_map_large: half
 * glibc's default mmap threshold, so that no block malloc serves, its
 * header included, reaches it.
 */
#define MEM_MAP_BYTES (64u << 10)

/*
 * Set by the post layer (its merge runs inside an application) before its
 * merge thread starts; `xrlm` leaves it false: its heap is set up for
 * these blocks (heap.c). A block made either way is freed correctly
 * whatever the flag says later.
 */
extern bool mem_map_large;

/* A block of @p bytes, or NULL (errno ENOMEM). */
void *mem_alloc(size_t bytes);

/* A zeroed block of @p n items of @p size bytes, or NULL (errno ENOMEM). */
void *mem_calloc(size_t n, size_t size);

/*
 * @p p (NULL: none) resized to @p bytes, its contents kept up to the
 * smaller size; NULL, @p p untouched, when out of memory.
 */
void *mem_realloc(void *p, size_t bytes);

/* Frees @p p (NULL: nothing). */
void mem_free(void *p);

#endif /* XRLM_MEM_H */
