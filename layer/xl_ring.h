/*
 * The call records and the rings that carry them from the application's
 * threads to the side's writer: the only thing a recording thread touches
 * besides the clock.
 *
 * Each thread that records gets a ring of its own, a bounded
 * single-producer single-consumer queue: the producer (that thread) and the
 * consumer (the writer) share nothing but the ring's two indices, so no
 * recording thread ever contends with another. The rings are a pool
 * allocated at instance creation; a thread claims one with one atomic add
 * the first time it records (registration: no lock, no allocation) and
 * keeps it for the instance's life. A thread beyond the pool, or one whose
 * ring is full, drops the record and the caller counts it. Nothing here
 * allocates, locks or makes a system call after xl_ring_pool_create(),
 * except one gettid() when a thread first records.
 *
 * The claim and the publish are separate so that the post side can claim
 * inside its bracket (the cost cancels out) and publish after its clock read
 * (only a few stores land outside the bracket, in the pre side's).
 */
#ifndef XL_RING_H
#define XL_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One bracketed call, as a side records it. */
struct xl_call_record {
	uint64_t t_entry;     /* CLOCK_MONOTONIC ns */
	uint64_t t_exit;      /* CLOCK_MONOTONIC ns */
	uint64_t seq;         /* the thread's call number on this ring: a gap is a drop */
	int64_t frame_id;     /* xrWaitFrame calls of the XrSession when it began (xl_call.h) */
	int64_t display_time; /* xrEndFrame: XrFrameEndInfo::displayTime; else 0 */
	uint32_t thread_id;   /* Linux TID of the calling thread */
	uint32_t session_id;  /* the recording session it belongs to */
	int32_t result;       /* the XrResult the chain returned */
	uint16_t fn;          /* enum xl_fn_id */
	uint16_t touched;     /* the consumer's alone, written to back the page (xl_ring_pool_populate) */
};

/* One thread's ring. */
struct xl_ring {
	struct xl_call_record *slots;
	uint64_t mask;
	/* The producer's line: tail is the next position it writes. */
	_Alignas(64) _Atomic uint64_t tail;
	uint64_t head_seen; /* the producer's last look at head */
	uint64_t calls;     /* claims on this ring, full or not: the next seq */
	bool open;          /* a record is claimed and not yet published */
	/* The consumer's line. */
	_Alignas(64) _Atomic uint64_t head;
	uint64_t populated; /* records whose pages the consumer has backed */
};

/* Threads that can record at once, and records per thread (a power of two). */
#define XL_RING_THREADS 32
/*
 * 32768 records (1.8 MB, backed as used, half a ring ahead): 30 s of frames
 * at 1 kHz if the writer stalls.
 */
#define XL_RING_CAPACITY (1u << 15)
/*
 * Records past a producer's tail whose pages the consumer backs: half a
 * ring (896 KB), 4 ms of an unpaced loop's 4 M records a second, twice the
 * writer's poll.
 */
#define XL_RING_POPULATE_AHEAD (XL_RING_CAPACITY / 2)
/*
 * Records of the next ring to be claimed that are backed before its
 * thread's first record (2 ms of that loop, the writer's poll); the first
 * ring, which a recording usually starts on, gets XL_RING_POPULATE_AHEAD.
 */
#define XL_RING_POPULATE_NEXT (XL_RING_CAPACITY / 16)

struct xl_ring_pool {
	struct xl_ring rings[XL_RING_THREADS];
	struct xl_call_record *memory; /* all rings' slots, one mapping */
	size_t memory_bytes;           /* its length, whole pages */
	uint32_t generation;           /* tells this pool's claims from an earlier one's */
	_Atomic uint32_t claimed;      /* registrations, also those beyond the pool */
	_Atomic bool backed;           /* the consumer's first xl_ring_pool_populate() is done */
};

/*
 * What a thread keeps for itself. initial-exec: in a dlopen'ed library the
 * default (global-dynamic) model goes through __tls_get_addr, which
 * allocates the thread's block on its first access from each thread: a
 * malloc on the frame thread. initial-exec puts these 16 bytes in the static
 * TLS block every thread already has (glibc keeps spare room in it for
 * dlopen'ed libraries; keep this small so that room never runs out), read
 * with one %fs-relative load.
 */
struct xl_ring_thread {
	struct xl_ring *ring; /* NULL: beyond the pool */
	uint32_t generation;  /* the pool ring was claimed from; 0: none yet */
	uint32_t tid;         /* Linux TID, 0 until the first registration */
};
extern __thread struct xl_ring_thread xl_ring_tls __attribute__((tls_model("initial-exec")));

/*
 * Allocates the pool's rings of @p capacity records each (a power of two,
 * at least 8). 0 on success, -1 when out of memory.
 */
int xl_ring_pool_create(struct xl_ring_pool *pool, size_t capacity);

/* Frees the rings. No producer or consumer may be running. */
void xl_ring_pool_destroy(struct xl_ring_pool *pool);

/* Claims a ring of @p pool for the calling thread; see xl_ring_mine(). */
void xl_ring_register(struct xl_ring_pool *pool);

/*
 * The calling thread's ring in @p pool, claimed on its first call; NULL
 * when the pool has none left for it (drop and count).
 */
static inline struct xl_ring *xl_ring_mine(struct xl_ring_pool *pool)
{
	if (__builtin_expect(xl_ring_tls.generation != pool->generation, 0))
		xl_ring_register(pool);
	return xl_ring_tls.ring;
}

/* The calling thread's Linux TID (after its first xl_ring_mine()). */
static inline uint32_t xl_ring_thread_id(void)
{
	return xl_ring_tls.tid;
}

/*
 * Producer only: the next free record of @p ring, with its seq filled in,
 * or NULL when the ring is full or a claimed record is not published yet
 * (a call nested in another of the same side on this thread: it would get
 * the same slot). Publish it with xl_ring_publish() before the next claim.
 */
static inline struct xl_call_record *xl_ring_claim(struct xl_ring *ring)
{
	uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
	uint64_t seq = ring->calls++;
	if (ring->open)
		return NULL;
	if (tail - ring->head_seen > ring->mask) {
		ring->head_seen = atomic_load_explicit(&ring->head, memory_order_acquire);
		if (tail - ring->head_seen > ring->mask)
			return NULL; /* full: the writer has not caught up */
	}
	struct xl_call_record *rec = &ring->slots[tail & ring->mask];
	rec->seq = seq;
	ring->open = true;
	return rec;
}

/* Producer only: hands the claimed record, filled in, to the consumer. */
static inline void xl_ring_publish(struct xl_ring *ring)
{
	uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
	ring->open = false;
	atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
}

/*
 * Consumer only: copies the next record into @p out, taking across the
 * threads' rings the oldest by (session, entry time), so that a session's
 * records come before the next session's. False when every ring is empty.
 */
bool xl_ring_pool_pop(struct xl_ring_pool *pool, struct xl_call_record *out);

/*
 * Consumer only: backs the pages of every claimed ring up to
 * XL_RING_POPULATE_AHEAD records past its producer, and the first ones of
 * the next ring to be claimed, by writing each page's first `touched`
 * field, so that a recording thread's first lap through its ring takes no
 * page fault: one costs microseconds on the application's thread (~10 on a
 * VM, where even a page the kernel has mapped with MADV_POPULATE_WRITE
 * costs ~5 until something writes it), and post's lands inside pre's
 * bracket, outside its own, where it reads as the target's time.
 */
void xl_ring_pool_populate(struct xl_ring_pool *pool);

/*
 * Whether the consumer's first xl_ring_pool_populate() on @p pool (a
 * struct xl_ring_pool, given as void * for xl_thread_wait()) is done: the
 * first ring's pages are backed.
 */
bool xl_ring_pool_backed(void *pool);

/* Threads that found no ring left in @p pool (their records were dropped). */
uint32_t xl_ring_pool_unserved(struct xl_ring_pool *pool);

#endif /* XL_RING_H */
