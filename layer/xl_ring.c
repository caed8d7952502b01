/*
 * The per-thread call rings; see xl_ring.h. Each ring is the classic
 * single-producer single-consumer queue: the producer alone moves tail
 * (release, after writing the record), the consumer alone moves head
 * (release, after reading it); each reads the other's index with acquire.
 * A ring outlives its thread: the consumer finds that the thread has
 * exited, drains the ring, resets it and frees it (release on the free
 * set), and the next thread's claim (acquire) sees it reset.
 */
#include "xl_ring.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(XL_RING_THREADS >= 1 && XL_RING_THREADS <= 32, "the free set is a uint32_t");

/* Every ring of a pool, as a set. */
#define ALL_RINGS ((uint32_t)(((uint64_t)1 << XL_RING_THREADS) - 1))

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
		atomic_init(&ring->owner, 0);
		atomic_init(&ring->tail, 0);
		atomic_init(&ring->head, 0);
		ring->head_seen = 0;
		ring->calls = 0;
		ring->open = false;
		ring->populated = 0;
	}
	atomic_init(&pool->free, ALL_RINGS);
	atomic_init(&pool->unserved, 0);
	atomic_init(&pool->wanted, false);
	atomic_init(&pool->backed, false);
	pool->dead = 0;
	pool->reclaim_calls = 0;
	pool->pops = 0;
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

/*
 * Takes the lowest free ring of @p pool for thread @p tid, or NULL when
 * none is free. Lock-free: a fetch-and that finds its bit already taken
 * by another thread tries the next free one.
 */
static struct xl_ring *claim(struct xl_ring_pool *pool, uint32_t tid)
{
	uint32_t free = atomic_load_explicit(&pool->free, memory_order_relaxed);

	while (free) {
		uint32_t bit = free & -free;
		/* Acquire: pairs with the release that freed the ring, so that
		 * this thread sees the ring as the consumer reset it. */
		uint32_t was = atomic_fetch_and_explicit(&pool->free, ~bit, memory_order_acquire);
		if (was & bit) {
			struct xl_ring *ring = &pool->rings[__builtin_ctz(bit)];
			atomic_store_explicit(&ring->owner, tid, memory_order_relaxed);
			return ring;
		}
		free = was;
	}
	return NULL;
}

void xl_ring_register(struct xl_ring_pool *pool)
{
	struct xl_ring_thread *me = &xl_ring_tls;
	bool first = me->generation != pool->generation;

	if (!me->tid)
		me->tid = (uint32_t)gettid();
	me->generation = pool->generation;
	me->ring = claim(pool, me->tid);
	if (me->ring)
		return;
	if (first)
		atomic_fetch_add_explicit(&pool->unserved, 1, memory_order_relaxed);
	/* Loaded first: threads waiting together do not write the line each call. */
	if (!atomic_load_explicit(&pool->wanted, memory_order_relaxed))
		atomic_store_explicit(&pool->wanted, true, memory_order_relaxed);
}

/* The rings of @p pool that threads hold (claimed, not yet given back). */
static uint32_t held_rings(struct xl_ring_pool *pool)
{
	/* Relaxed: a ring claimed after the load has its records popped on
	 * the next pass; one whose records must be in this pass was claimed
	 * before the control word's state the writer read with acquire. */
	return ~atomic_load_explicit(&pool->free, memory_order_relaxed) & ALL_RINGS;
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

/*
 * Whether thread @p tid of this process has exited. Anything but ESRCH
 * (a seccomp filter refusing tgkill, say) reads as alive: the ring then
 * stays held, which is safe.
 */
static bool thread_gone(pid_t pid, uint32_t tid)
{
	return syscall(SYS_tgkill, pid, (pid_t)tid, 0) != 0 && errno == ESRCH;
}

/* Marks the held rings of @p pool whose thread has exited as dead. */
static void find_dead(struct xl_ring_pool *pool)
{
	pid_t pid = getpid();
	int saved = errno;

	for (uint32_t h = held_rings(pool) & ~pool->dead; h; h &= h - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(h);
		/* 0: being claimed (its thread has not stored its TID yet).
		 * Never a TID older than the claim: this thread wrote the 0
		 * before it freed the ring. */
		uint32_t tid = atomic_load_explicit(&pool->rings[i].owner, memory_order_relaxed);
		if (tid && thread_gone(pid, tid))
			pool->dead |= 1u << i;
	}
	errno = saved;
}

/*
 * Resets @p ring, empty and its thread gone, for the next thread to claim
 * it, and frees it. The producer's fields are written here, by the
 * consumer, and the next producer reads them only after its claim's
 * acquire, which pairs with the release below. Their last writer has
 * exited: its writes up to its last publish are ordered before this by
 * that publish (the release the emptiness test acquired), and those of a
 * claim after it that it never published (its ring full, or a call it
 * died inside) by its exit, in the kernel (see reclaim()); C11 and TSan
 * see only the former.
 */
static void give_back(struct xl_ring_pool *pool, uint32_t i)
{
	struct xl_ring *ring = &pool->rings[i];
	uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);

	/* tail == head already; both stay where they are (positions only). */
	ring->head_seen = head;
	ring->calls = 0; /* the next thread's seq starts at 0 */
	ring->open = false; /* a thread that died inside a call (cancelled) left it set */
	/* populated stays: the pages stay backed for the next thread. */
	atomic_store_explicit(&ring->owner, 0, memory_order_relaxed);
	pool->dead &= ~(1u << i);
	atomic_fetch_or_explicit(&pool->free, 1u << i, memory_order_release);
}

/* Whether fewer than XL_RING_RECLAIM_LOW rings of @p pool are free, or a thread waits. */
static bool short_of_rings(struct xl_ring_pool *pool)
{
	return atomic_load_explicit(&pool->wanted, memory_order_relaxed) ||
	       __builtin_popcount(~held_rings(pool) & ALL_RINGS) < XL_RING_RECLAIM_LOW;
}

/*
 * Gives back the rings of @p pool whose thread has exited and which are
 * empty; first, when @p look, finds such rings among those held.
 */
static void reclaim(struct xl_ring_pool *pool, bool look)
{
	if (look) {
		/* Cleared first: a thread that still finds none sets it again. */
		if (atomic_load_explicit(&pool->wanted, memory_order_relaxed))
			atomic_store_explicit(&pool->wanted, false, memory_order_relaxed);
		find_dead(pool);
		/*
		 * A thread's exit passes through full barriers in the kernel
		 * before its TID stops existing (its clear-TID futex wake, the
		 * tasklist lock); this one pairs with them, so that the
		 * emptiness test below sees every record it published.
		 */
		atomic_thread_fence(memory_order_seq_cst);
	}
	for (uint32_t d = pool->dead; d; d &= d - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(d);
		/* Not empty: records published just before the thread exited,
		 * after the drain; the next drain pops them first. */
		if (!peek(&pool->rings[i]))
			give_back(pool, i);
	}
}

bool xl_ring_pool_pop(struct xl_ring_pool *pool, struct xl_call_record *out)
{
	struct xl_ring *best = NULL;
	const struct xl_call_record *best_rec = NULL;

	if (++pool->pops >= XL_RING_RECLAIM_POPS) {
		pool->pops = 0;
		reclaim(pool, short_of_rings(pool));
	}

	/* A free ring is empty: it was drained before it was given back. */
	for (uint32_t held = held_rings(pool); held; held &= held - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(held);
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
	uint32_t held = held_rings(pool), free = ~held & ALL_RINGS;

	for (uint32_t h = held; h; h &= h - 1) {
		struct xl_ring *ring = &pool->rings[__builtin_ctz(h)];
		uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
		populate(ring, tail + XL_RING_POPULATE_AHEAD, page_size);
	}
	/* The next thread to register takes the lowest free ring; with none
	 * held, that is where a recording starts: give it a producer's share. */
	if (free)
		populate(&pool->rings[__builtin_ctz(free)],
		         held ? XL_RING_POPULATE_NEXT : XL_RING_POPULATE_AHEAD, page_size);
	atomic_store_explicit(&pool->backed, true, memory_order_release);
}

bool xl_ring_pool_backed(void *pool)
{
	return atomic_load_explicit(&((struct xl_ring_pool *)pool)->backed, memory_order_acquire);
}

void xl_ring_pool_reclaim(struct xl_ring_pool *pool)
{
	bool look = ++pool->reclaim_calls >= XL_RING_RECLAIM_EVERY || short_of_rings(pool);

	if (look)
		pool->reclaim_calls = 0;
	reclaim(pool, look);
}

uint32_t xl_ring_pool_unserved(struct xl_ring_pool *pool)
{
	return atomic_load_explicit(&pool->unserved, memory_order_relaxed);
}
