/*
 * The per-thread call rings; see xl_ring.h. Each ring is the classic
 * single-producer single-consumer queue: the producer alone moves tail
 * (release, after writing the record), the consumer alone moves head
 * (release, after reading it); each reads the other's index with acquire.
 */
#include "xl_ring.h"

#include <sys/mman.h>
#include <unistd.h>

__thread struct xl_ring_thread xl_ring_tls __attribute__((tls_model("initial-exec")));

/* Pools of later instances must not match a thread's claim in an earlier one. */
static _Atomic uint32_t last_generation;

int xl_ring_pool_create(struct xl_ring_pool *pool, size_t capacity)
{
	if (capacity < 8 || (capacity & (capacity - 1)) != 0)
		return -1;
	/* Anonymous pages: none is backed until it is touched or populated. */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes = XL_RING_THREADS * capacity * sizeof(*pool->memory);
	bytes = (bytes + page - 1) / page * page;
	void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memory == MAP_FAILED)
		return -1;
	pool->memory = memory;
	pool->memory_bytes = bytes;
	for (size_t i = 0; i < XL_RING_THREADS; i++) {
		struct xl_ring *ring = &pool->rings[i];
		ring->slots = pool->memory + i * capacity;
		ring->mask = capacity - 1;
		atomic_init(&ring->tail, 0);
		atomic_init(&ring->head, 0);
		ring->head_seen = 0;
		ring->calls = 0;
		ring->open = false;
		ring->populated = 0;
	}
	atomic_init(&pool->claimed, 0);
	atomic_init(&pool->backed, false);
	/* Never 0: a thread that has claimed nothing holds generation 0. */
	do
		pool->generation = atomic_fetch_add(&last_generation, 1) + 1;
	while (pool->generation == 0);
	return 0;
}

void xl_ring_pool_destroy(struct xl_ring_pool *pool)
{
	if (pool->memory)
		munmap(pool->memory, pool->memory_bytes);
	pool->memory = NULL;
	pool->generation = 0;
}

void xl_ring_register(struct xl_ring_pool *pool)
{
	struct xl_ring_thread *me = &xl_ring_tls;
	if (!me->tid)
		me->tid = (uint32_t)gettid();
	uint32_t i = atomic_fetch_add_explicit(&pool->claimed, 1, memory_order_relaxed);
	me->ring = i < XL_RING_THREADS ? &pool->rings[i] : NULL;
	me->generation = pool->generation;
}

/* The record at @p ring's head, or NULL when it is empty. */
static const struct xl_call_record *peek(struct xl_ring *ring)
{
	uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	if (atomic_load_explicit(&ring->tail, memory_order_acquire) == head)
		return NULL;
	return &ring->slots[head & ring->mask];
}

static bool older(const struct xl_call_record *a, const struct xl_call_record *b)
{
	return a->session_id != b->session_id ? a->session_id < b->session_id
	                                      : a->t_entry < b->t_entry;
}

bool xl_ring_pool_pop(struct xl_ring_pool *pool, struct xl_call_record *out)
{
	uint32_t claimed = atomic_load_explicit(&pool->claimed, memory_order_relaxed);
	uint32_t n = claimed < XL_RING_THREADS ? claimed : XL_RING_THREADS;
	struct xl_ring *best = NULL;
	const struct xl_call_record *best_rec = NULL;

	for (uint32_t i = 0; i < n; i++) {
		const struct xl_call_record *rec = peek(&pool->rings[i]);
		if (rec && (!best_rec || older(rec, best_rec))) {
			best = &pool->rings[i];
			best_rec = rec;
		}
	}
	if (!best)
		return false;
	*out = *best_rec;
	uint64_t head = atomic_load_explicit(&best->head, memory_order_relaxed);
	atomic_store_explicit(&best->head, head + 1, memory_order_release);
	return true;
}

/* The page that holds @p rec's `touched` field (a 2-byte field never straddles one). */
static uintptr_t touched_page(const struct xl_call_record *rec, uintptr_t page_size)
{
	return (uintptr_t)&rec->touched & ~(page_size - 1);
}

/*
 * Backs the pages of @p ring's first @p upto records (capped at its end):
 * one write a page, to a field the producer never writes, so the consumer
 * writing ahead of it races with nothing.
 */
static void populate(struct xl_ring *ring, uint64_t upto, uintptr_t page_size)
{
	if (upto > ring->mask + 1)
		upto = ring->mask + 1;
	uintptr_t last = ring->populated ? touched_page(&ring->slots[ring->populated - 1], page_size) : 0;
	for (uint64_t k = ring->populated; k < upto; k++) {
		uintptr_t page = touched_page(&ring->slots[k], page_size);
		if (page != last) {
			*(volatile uint16_t *)&ring->slots[k].touched = 0;
			last = page;
		}
	}
	if (upto > ring->populated)
		ring->populated = upto;
}

void xl_ring_pool_populate(struct xl_ring_pool *pool)
{
	uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	uint32_t claimed = atomic_load_explicit(&pool->claimed, memory_order_relaxed);
	uint32_t n = claimed < XL_RING_THREADS ? claimed + 1 : XL_RING_THREADS;
	for (uint32_t i = 0; i < n; i++) {
		struct xl_ring *ring = &pool->rings[i];
		uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
		bool next = i == claimed && i > 0;
		populate(ring, next ? XL_RING_POPULATE_NEXT : tail + XL_RING_POPULATE_AHEAD, page_size);
	}
	atomic_store_explicit(&pool->backed, true, memory_order_release);
}

bool xl_ring_pool_backed(void *pool)
{
	return atomic_load_explicit(&((struct xl_ring_pool *)pool)->backed, memory_order_acquire);
}

uint32_t xl_ring_pool_unserved(struct xl_ring_pool *pool)
{
	uint32_t claimed = atomic_load_explicit(&pool->claimed, memory_order_relaxed);
	return claimed > XL_RING_THREADS ? claimed - XL_RING_THREADS : 0;
}
