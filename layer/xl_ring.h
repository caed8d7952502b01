/*
 * The call records and the rings that carry them from the application's
 * threads to the side's writer: the only thing a recording thread touches
 * besides the clock.
 *
 * Each thread that records gets a ring of its own, a bounded
 * single-producer single-consumer queue: the producer (that thread) and the
 * consumer (the writer) share nothing but the ring's two indices, so no
 * recording thread ever contends with another. The rings are a pool
 * allocated at instance creation; a thread takes a free one from the pool's
 * free set (an atomic bitmap: one load and one fetch-and) the first time it
 * records (registration: no lock, no allocation) and keeps it while it
 * lives. The consumer gives the ring of a thread that has exited back to
 * the free set once it has drained it (xl_ring_pool_reclaim()), so any
 * number of threads can record in an instance's life, XL_RING_THREADS of
 * them at once. A thread that finds no ring free, or whose ring is full,
 * drops the record and the caller counts it; the former looks at the free
 * set again (one atomic load) on its next call. Nothing here allocates,
 * locks or makes a system call on a recording thread after
 * xl_ring_pool_create(), except one gettid() when a thread first records.
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
	int64_t frame_id;     /* the frame it belongs to (xl_call.h) */
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
	/*
	 * The TID of the thread that holds it; 0 while free and until its new
	 * holder has stored its TID (the consumer then leaves it alone). Read
	 * by the consumer alone, to find rings whose thread has exited.
	 */
	_Atomic uint32_t owner;
	/* The producer's line: tail is the next position it writes. */
	_Alignas(64) _Atomic uint64_t tail;
	uint64_t head_seen; /* the producer's last look at head */
	uint64_t calls;     /* claims on this ring, full or not: the next seq */
	bool open;          /* a record is claimed and not yet published */
	/* The consumer's line. */
	_Alignas(64) _Atomic uint64_t head;
	uint64_t populated; /* records whose pages the consumer has backed */
};

/*
 * Threads that can record at once (at most 32: the free set is one 32-bit
 * word), and records per thread (a power of two).
 */
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
 * thread's first record (2 ms of that loop, the writer's poll); while no
 * ring is held, the lowest free one, which a recording usually starts on,
 * gets XL_RING_POPULATE_AHEAD.
 */
#define XL_RING_POPULATE_NEXT (XL_RING_CAPACITY / 16)
/*
 * The consumer looks for rings of exited threads (one system call per held
 * ring) on every this many calls of xl_ring_pool_reclaim(): 16 ms of the
 * writer's 2 ms passes while recording ...
 */
#define XL_RING_RECLAIM_EVERY 8
/*
 * ... and on every call while fewer rings than this are free, or a thread
 * waits for one: threads that come and go faster than that (a thread per
 * session, a job system's short-lived workers) find one free.
 */
#define XL_RING_RECLAIM_LOW (XL_RING_THREADS / 2)
/*
 * A drain that goes on (threads recording faster than the writer writes:
 * its loop pops until every ring is empty) also reclaims, every this many
 * records (a millisecond or two of the writer's work).
 */
#define XL_RING_RECLAIM_POPS 4096

struct xl_ring_pool {
	struct xl_ring rings[XL_RING_THREADS];
	struct xl_call_record *memory; /* all rings' slots, one mapping */
	size_t memory_bytes;           /* its length, whole pages */
	uint32_t generation;           /* tells this pool's claims from an earlier one's */
	/*
	 * Bit i set: rings[i] is free. Threads clear a bit to claim its ring
	 * (acquire), the consumer sets it again once the ring's thread has
	 * exited and the ring is drained and reset (release).
	 */
	_Atomic uint32_t free;
	_Atomic uint32_t unserved;     /* threads that found no ring free, once each */
	_Atomic bool wanted;           /* a thread found no ring free: reclaim now */
	_Atomic bool backed;           /* the consumer's first xl_ring_pool_populate() is done */
	/* The consumer's own, apart from what recording threads read. */
	_Alignas(64) uint32_t dead;    /* held rings whose thread has exited */
	uint32_t reclaim_calls;        /* xl_ring_pool_reclaim() calls, for its period */
	uint32_t pops;                 /* xl_ring_pool_pop() records, for XL_RING_RECLAIM_POPS */
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
	struct xl_ring *ring; /* NULL: none was free at its last look */
	uint32_t generation;  /* the pool it registered with; 0: none yet */
	uint32_t tid;         /* Linux TID, 0 until the first registration */
	/* The frame of this thread's last xrWaitFrame, xrBeginFrame or
	 * xrEndFrame (xl_call.h), valid while frame_epoch is the instance's. */
	uint32_t frame_epoch;
	uint64_t frame;
};
extern __thread struct xl_ring_thread xl_ring_tls __attribute__((tls_model("initial-exec")));

/*
 * Allocates the pool's rings of @p capacity records each (a power of two,
 * at least 8). 0 on success, -1 when out of memory.
 */
int xl_ring_pool_create(struct xl_ring_pool *pool, size_t capacity);

/* Frees the rings. No producer or consumer may be running. */
void xl_ring_pool_destroy(struct xl_ring_pool *pool);

/*
 * Claims a free ring of @p pool for the calling thread, on its first call
 * in @p pool and on each later one while it has none; see xl_ring_mine().
 */
void xl_ring_register(struct xl_ring_pool *pool);

/*
 * The calling thread's ring in @p pool, claimed on its first call; NULL
 * while the pool has none free for it (drop and count): it tries again on
 * its next call, with one atomic load while none is free.
 */
static inline struct xl_ring *xl_ring_mine(struct xl_ring_pool *pool)
{
	if (__builtin_expect(xl_ring_tls.generation != pool->generation || !xl_ring_tls.ring, 0))
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
 * Every XL_RING_RECLAIM_POPS records it first reclaims as
 * xl_ring_pool_reclaim() does when rings run short: the records popped
 * before are the caller's, handled, by then.
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

/*
 * Consumer only, after a drain (xl_ring_pool_pop() until false): gives
 * the rings of threads that have exited back to @p pool's free set, each
 * once it is empty, reset for its next thread. Looks for such threads
 * every XL_RING_RECLAIM_EVERY calls, and on every call while rings run
 * short (XL_RING_RECLAIM_LOW) or a thread waits for one: one tgkill(2) of
 * signal 0 per held ring (ESRCH: the thread is gone). The ring of an
 * exited thread whose TID a new thread got stays held until that one
 * exits too: only a delay.
 */
void xl_ring_pool_reclaim(struct xl_ring_pool *pool);

/*
 * Threads that found no ring free in @p pool, each counted once, also
 * those that got one later (their records meanwhile were dropped).
 */
uint32_t xl_ring_pool_unserved(struct xl_ring_pool *pool);

#endif /* XL_RING_H */
