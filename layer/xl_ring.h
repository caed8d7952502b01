/*
 * A bounded, lock-free, multi-producer single-consumer ring of frame
 * records: the only thing the frame thread touches besides the clock.
 *
 * Producers (any thread calling xrEndFrame) claim a slot, fill it and
 * publish it; the one consumer (the side's writer thread) pops published
 * slots in order. A full ring makes the claim fail at once: the caller drops
 * the record and counts it. Nothing here allocates, locks or makes a system
 * call after xl_ring_create().
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

/* One bracketed xrEndFrame call, as both sides record it. */
struct xl_frame_record {
	int64_t display_time; /* XrFrameEndInfo::displayTime */
	uint64_t t_entry;     /* CLOCK_MONOTONIC ns */
	uint64_t t_exit;      /* CLOCK_MONOTONIC ns */
	uint32_t thread_id;   /* Linux TID of the calling thread */
	uint32_t session_id;  /* the recording session it belongs to */
};

struct xl_ring_slot {
	_Atomic uint64_t seq;
	struct xl_frame_record rec;
};

struct xl_ring {
	struct xl_ring_slot *slots;
	uint64_t mask;
	/* Producers and consumer on separate cache lines. */
	_Alignas(64) _Atomic uint64_t tail;
	_Alignas(64) uint64_t head;
};

/* Allocates a ring of @p capacity slots (a power of two). 0 on success. */
int xl_ring_create(struct xl_ring *ring, size_t capacity);

/* Frees the slots. No producer or consumer may be running. */
void xl_ring_destroy(struct xl_ring *ring);

/*
 * Claims the next free slot, or returns NULL when the ring is full.
 * The claimed slot must be published with xl_ring_publish() promptly:
 * the consumer waits for it before reading later slots.
 */
static inline struct xl_ring_slot *xl_ring_claim(struct xl_ring *ring)
{
	uint64_t pos = atomic_load_explicit(&ring->tail, memory_order_relaxed);
	for (;;) {
		struct xl_ring_slot *slot = &ring->slots[pos & ring->mask];
		uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
		int64_t diff = (int64_t)(seq - pos);
		if (diff == 0) {
			if (atomic_compare_exchange_weak_explicit(&ring->tail, &pos, pos + 1,
			                                          memory_order_relaxed,
			                                          memory_order_relaxed))
				return slot;
		} else if (diff < 0) {
			return NULL; /* full: the consumer has not freed this slot yet */
		} else {
			pos = atomic_load_explicit(&ring->tail, memory_order_relaxed);
		}
	}
}

/* Makes a claimed slot, with @p slot->rec filled in, visible to the consumer. */
static inline void xl_ring_publish(struct xl_ring_slot *slot)
{
	/* The slot's position is seq (what claim saw); published means seq + 1. */
	uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	atomic_store_explicit(&slot->seq, seq + 1, memory_order_release);
}

/* Consumer only: copies the oldest published record into @p out. */
bool xl_ring_pop(struct xl_ring *ring, struct xl_frame_record *out);

#endif /* XL_RING_H */
