/*
 * The merge's large blocks; see mem.h.
 */
#include "mem.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool mem_map_large;

/* Before every block: 16 bytes, so the block keeps malloc's alignment. */
struct mem_head {
	size_t bytes;  /* the caller's size */
	size_t mapped; /* the mapping's length; 0: from malloc */
};

/* The mapping's length for @p bytes; 0 when it would overflow. */
static size_t map_length(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (bytes > SIZE_MAX - sizeof(struct mem_head) - page)
		return 0;
	return (sizeof(struct mem_head) + bytes + page - 1) / page * page;
}

/* Is a block of @p bytes to be a mapping of its own? */
static bool wants_map(size_t bytes)
{
	return mem_map_large && bytes >= MEM_MAP_BYTES;
}

/* A new mapping for @p bytes, its head filled; NULL when out of memory. */
static struct mem_head *map_new(size_t bytes)
{
	size_t len = map_length(bytes);
	if (!len) {
		errno = ENOMEM;
		return NULL;
	}
	struct mem_head *h = mmap(NULL, len, PROT_READ | PROT_WRITE,
	                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	*h = (struct mem_head){.bytes = bytes, .mapped = len};
	return h;
}

void *mem_alloc(size_t bytes)
{
	if (wants_map(bytes)) {
		struct mem_head *h = map_new(bytes);
		return h ? h + 1 : NULL;
	}
	if (bytes > SIZE_MAX - sizeof(struct mem_head)) {
		errno = ENOMEM;
		return NULL;
	}
	struct mem_head *h = malloc(sizeof(*h) + bytes);
	if (!h)
		return NULL;
	*h = (struct mem_head){.bytes = bytes};
	return h + 1;
}

void *mem_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	/* A fresh mapping is zeroed already. */
	if (wants_map(n * size))
		return mem_alloc(n * size);
	void *p = mem_alloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

/* Releases block head @p h as it was made. */
static void head_free(struct mem_head *h)
{
	if (h->mapped)
		munmap(h, h->mapped);
	else
		free(h);
}

/*
 * @p h's block moved into a new mapping for @p bytes, its contents copied
 * up to the smaller size and @p h released; NULL when out of memory (@p h
 * kept). A mapping grows this way too, not with mremap():
 * ThreadSanitizer does not see a mapping mremap moves, and took the next
 * block the kernel placed where it had been for the same memory written
 * by two threads (a false race that stopped its runs). The blocks grow by
 * doubling: the copies cost at most their final size, on the in-layer
 * merge's background thread.
 */
static void *move_to_map(struct mem_head *h, size_t bytes)
{
	struct mem_head *q = map_new(bytes);
	if (!q)
		return NULL;
	memcpy(q + 1, h + 1, h->bytes < bytes ? h->bytes : bytes);
	head_free(h);
	return q + 1;
}

void *mem_realloc(void *p, size_t bytes)
{
	if (!p)
		return mem_alloc(bytes);
	struct mem_head *h = (struct mem_head *)p - 1;
	/* A mapping stays one, resized in place while its pages suffice. */
	if (h->mapped && map_length(bytes) == h->mapped) {
		h->bytes = bytes;
		return p;
	}
	if (h->mapped || wants_map(bytes))
		return move_to_map(h, bytes);
	if (bytes > SIZE_MAX - sizeof(*h)) {
		errno = ENOMEM;
		return NULL;
	}
	struct mem_head *q = realloc(h, sizeof(*q) + bytes);
	if (!q)
		return NULL;
	q->bytes = bytes;
	return q + 1;
}

void mem_free(void *p)
{
	if (p)
		head_free((struct mem_head *)p - 1);
}
