/*
 * rel_ring_stress: the frame ring (layer/xl_ring.h) under contention.
 *
 * Three producer threads push records into a small ring (so it wraps and
 * fills all the time) while one consumer pops. Checks: every record that
 * was claimed is popped exactly once, in each producer's order, with its
 * contents intact; claimed + dropped (ring full) = pushed. Run under TSan
 * by scripts/run-sanitizers: any race in claim/publish/pop is a report.
 */
#include "xl_ring.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define PRODUCERS 3
#define PER_PRODUCER 300000u
#define CAPACITY 64u

struct producer {
	struct xl_ring *ring;
	uint32_t id;
	uint64_t claimed;
	uint64_t dropped;
	pthread_t thread;
};

static atomic_uint producers_left = PRODUCERS;

static void *produce(void *arg)
{
	struct producer *p = arg;
	for (uint32_t i = 0; i < PER_PRODUCER; i++) {
		struct xl_ring_slot *slot = xl_ring_claim(p->ring);
		if (!slot) {
			p->dropped++;
			if (i % 64 == 0)
				sched_yield();
			continue;
		}
		/* A delay between claim and publish: the consumer must wait. */
		if (i % 97 == 0)
			sched_yield();
		slot->rec = (struct xl_frame_record){
			.display_time = (int64_t)p->claimed,
			.t_entry = i,
			.t_exit = (uint64_t)i * 3u,
			.thread_id = p->id,
			.session_id = p->id + 1,
		};
		xl_ring_publish(slot);
		p->claimed++;
	}
	atomic_fetch_sub(&producers_left, 1);
	return NULL;
}

/* Checks one popped record against what its producer must have written next. */
static int check(const struct xl_frame_record *r, uint64_t next[PRODUCERS])
{
	if (r->thread_id >= PRODUCERS || r->session_id != r->thread_id + 1 ||
	    r->t_exit != r->t_entry * 3u) {
		fprintf(stderr, "FAIL: corrupt record (thread %u session %u)\n", r->thread_id,
		        r->session_id);
		return -1;
	}
	if ((uint64_t)r->display_time != next[r->thread_id]) {
		fprintf(stderr, "FAIL: producer %u: record %lld popped, %llu expected\n",
		        r->thread_id, (long long)r->display_time,
		        (unsigned long long)next[r->thread_id]);
		return -1;
	}
	next[r->thread_id]++;
	return 0;
}

static int consume(struct xl_ring *ring, uint64_t next[PRODUCERS])
{
	struct xl_frame_record r;
	for (;;) {
		/* Read "all done" before draining: nothing can be published after. */
		bool done = atomic_load(&producers_left) == 0;
		while (xl_ring_pop(ring, &r))
			if (check(&r, next) != 0)
				return -1;
		if (done)
			return 0;
		sched_yield();
	}
}

int main(void)
{
	struct xl_ring ring;
	struct producer prod[PRODUCERS];
	uint64_t next[PRODUCERS] = {0};

	if (xl_ring_create(&ring, CAPACITY) != 0) {
		fprintf(stderr, "FAIL: xl_ring_create\n");
		return 1;
	}
	for (uint32_t i = 0; i < PRODUCERS; i++) {
		prod[i] = (struct producer){.ring = &ring, .id = i};
		if (pthread_create(&prod[i].thread, NULL, produce, &prod[i]) != 0) {
			fprintf(stderr, "FAIL: pthread_create\n");
			return 1;
		}
	}
	int rc = consume(&ring, next);
	for (uint32_t i = 0; i < PRODUCERS; i++)
		pthread_join(prod[i].thread, NULL);
	xl_ring_destroy(&ring);
	if (rc != 0)
		return 1;

	for (uint32_t i = 0; i < PRODUCERS; i++) {
		printf("producer %u: %llu claimed and popped, %llu dropped (ring full)\n", i,
		       (unsigned long long)prod[i].claimed, (unsigned long long)prod[i].dropped);
		if (prod[i].claimed + prod[i].dropped != PER_PRODUCER || next[i] != prod[i].claimed) {
			fprintf(stderr, "FAIL: producer %u: %llu popped of %llu claimed\n", i,
			        (unsigned long long)next[i], (unsigned long long)prod[i].claimed);
			return 1;
		}
		if (prod[i].claimed == 0) {
			fprintf(stderr, "FAIL: producer %u never got a slot\n", i);
			return 1;
		}
	}
	printf("PASS\n");
	return 0;
}
