/*
 * The frame-record ring; see xl_ring.h. The algorithm is the classic bounded
 * queue with a sequence number per slot: a slot whose seq equals the
 * producer's position is free, seq == position + 1 is published, and the
 * consumer frees it by moving seq one lap ahead.
 */
#include "xl_ring.h"

#include <stdlib.h>

int xl_ring_create(struct xl_ring *ring, size_t capacity)
{
	/* At least 8 slots: aligned_alloc needs a multiple of 64 bytes. */
	if (capacity < 8 || (capacity & (capacity - 1)) != 0)
		return -1;
	ring->slots = aligned_alloc(64, capacity * sizeof(*ring->slots));
	if (!ring->slots)
		return -1;
	for (size_t i = 0; i < capacity; i++)
		atomic_init(&ring->slots[i].seq, i);
	ring->mask = capacity - 1;
	atomic_init(&ring->tail, 0);
	ring->head = 0;
	return 0;
}

void xl_ring_destroy(struct xl_ring *ring)
{
	free(ring->slots);
	ring->slots = NULL;
}

bool xl_ring_pop(struct xl_ring *ring, struct xl_frame_record *out)
{
	struct xl_ring_slot *slot = &ring->slots[ring->head & ring->mask];
	uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
	if (seq != ring->head + 1)
		return false; /* empty, or the next slot is claimed but not yet published */
	*out = slot->rec;
	atomic_store_explicit(&slot->seq, ring->head + ring->mask + 1, memory_order_release);
	ring->head++;
	return true;
}
