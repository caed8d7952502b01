/*
 * rel_ring_stress: the per-thread call rings (layer/xl_ring.h) under load.
 *
 * Phase 1: producer threads each register on a pool of small rings (so they
 * wrap and fill all the time) and push records while one consumer pops
 * across all rings. Checks: every record claimed is popped exactly once, in
 * its producer's order, with its contents intact; its seq counts every
 * claim, so claimed + dropped (ring full) = pushed and the last seq seen is
 * the producer's last claim. Phase 2: the same threads register again on a
 * new pool (a new instance) and get a ring of it, and threads beyond the
 * pool get none. Run under TSan by scripts/run-sanitizers: any race between
 * a producer and the consumer is a report, also the consumer's backing of
 * the rings' pages (xl_ring_pool_populate), made here to touch every page
 * again on every pass while the producers write the records around it.
 */
#include "xl_ring.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define PRODUCERS 4
#define PER_PRODUCER 300000u
#define CAPACITY 64u

struct producer {
	struct xl_ring_pool *pool;
	uint32_t id;
	uint64_t claimed;
	uint64_t dropped;
	bool got_ring;
	pthread_t thread;
};

static atomic_uint producers_left;

/* Pushes PER_PRODUCER records; a delay now and then keeps the consumer behind. */
static void push_all(struct producer *p, struct xl_ring *ring)
{
	for (uint32_t i = 0; i < PER_PRODUCER; i++) {
		struct xl_call_record *rec = xl_ring_claim(ring);
		if (!rec) {
			p->dropped++;
			if (i % 64 == 0)
				sched_yield();
			continue;
		}
		if (i % 97 == 0)
			sched_yield();
		rec->display_time = (int64_t)p->claimed;
		rec->t_entry = i;
		rec->t_exit = (uint64_t)i * 3u;
		rec->thread_id = p->id;
		rec->session_id = 1;
		rec->fn = (uint16_t)(p->id + 7);
		xl_ring_publish(ring);
		p->claimed++;
	}
}

static void *produce(void *arg)
{
	struct producer *p = arg;
	struct xl_ring *ring = xl_ring_mine(p->pool);
	p->got_ring = ring != NULL;
	if (ring)
		push_all(p, ring);
	atomic_fetch_sub(&producers_left, 1);
	return NULL;
}

/* Checks one popped record against what its producer must have written next. */
static int check(const struct xl_call_record *r, uint64_t next[PRODUCERS], uint64_t last_seq[PRODUCERS])
{
	if (r->thread_id >= PRODUCERS || r->fn != r->thread_id + 7 || r->t_exit != r->t_entry * 3u) {
		fprintf(stderr, "FAIL: corrupt record (thread %u fn %u)\n", r->thread_id, r->fn);
		return -1;
	}
	if ((uint64_t)r->display_time != next[r->thread_id] ||
	    (next[r->thread_id] && r->seq <= last_seq[r->thread_id]) || r->seq < r->t_entry) {
		fprintf(stderr, "FAIL: producer %u: record %lld (seq %llu) popped, %llu expected\n",
		        r->thread_id, (long long)r->display_time, (unsigned long long)r->seq,
		        (unsigned long long)next[r->thread_id]);
		return -1;
	}
	next[r->thread_id]++;
	last_seq[r->thread_id] = r->seq;
	return 0;
}

static int consume(struct xl_ring_pool *pool, uint64_t next[PRODUCERS], uint64_t last_seq[PRODUCERS])
{
	struct xl_call_record r;
	for (;;) {
		/* Read "all done" before draining: nothing can be published after. */
		bool done = atomic_load(&producers_left) == 0;
		for (uint32_t i = 0; i < XL_RING_THREADS; i++)
			pool->rings[i].populated = 0; /* the consumer's own mark */
		xl_ring_pool_populate(pool);
		while (xl_ring_pool_pop(pool, &r))
			if (check(&r, next, last_seq) != 0)
				return -1;
		if (done)
			return 0;
		sched_yield();
	}
}

static int start(struct producer *prod, unsigned n, struct xl_ring_pool *pool)
{
	atomic_store(&producers_left, n);
	for (uint32_t i = 0; i < n; i++) {
		prod[i] = (struct producer){.pool = pool, .id = i};
		if (pthread_create(&prod[i].thread, NULL, produce, &prod[i]) != 0) {
			fprintf(stderr, "FAIL: pthread_create\n");
			return -1;
		}
	}
	return 0;
}

static int phase_stress(void)
{
	struct xl_ring_pool pool;
	struct producer prod[PRODUCERS];
	uint64_t next[PRODUCERS] = {0}, last_seq[PRODUCERS] = {0};

	if (xl_ring_pool_create(&pool, CAPACITY) != 0 || start(prod, PRODUCERS, &pool) != 0)
		return -1;
	int rc = consume(&pool, next, last_seq);
	for (uint32_t i = 0; i < PRODUCERS; i++)
		pthread_join(prod[i].thread, NULL);
	xl_ring_pool_destroy(&pool);
	if (rc != 0)
		return -1;
	for (uint32_t i = 0; i < PRODUCERS; i++) {
		printf("producer %u: %llu claimed and popped, %llu dropped (ring full)\n", i,
		       (unsigned long long)prod[i].claimed, (unsigned long long)prod[i].dropped);
		if (!prod[i].got_ring || prod[i].claimed + prod[i].dropped != PER_PRODUCER ||
		    next[i] != prod[i].claimed || prod[i].claimed == 0) {
			fprintf(stderr, "FAIL: producer %u: %llu popped of %llu claimed\n", i,
			        (unsigned long long)next[i], (unsigned long long)prod[i].claimed);
			return -1;
		}
	}
	return 0;
}

/* A thread that registered on an earlier pool, and one per ring of a new one. */
static void *register_only(void *arg)
{
	struct producer *p = arg;
	p->got_ring = xl_ring_mine(p->pool) != NULL;
	/* Twice: the second call must keep the same claim. */
	p->got_ring = p->got_ring && xl_ring_mine(p->pool) == xl_ring_mine(p->pool);
	return NULL;
}

static int phase_pool_limits(void)
{
	enum { THREADS = XL_RING_THREADS + 2 };
	static struct producer prod[THREADS];
	struct xl_ring_pool first, second;
	unsigned with_ring = 0;

	if (xl_ring_pool_create(&first, CAPACITY) != 0 || xl_ring_pool_create(&second, CAPACITY) != 0)
		return -1;
	/* This thread claims a ring of the first pool, then must get one of the second. */
	if (!xl_ring_mine(&first) || xl_ring_mine(&second) != &second.rings[0] ||
	    xl_ring_thread_id() == 0) {
		fprintf(stderr, "FAIL: a new pool did not give this thread a ring of its own\n");
		return -1;
	}
	for (unsigned i = 0; i < THREADS; i++) {
		prod[i] = (struct producer){.pool = &second, .id = i};
		pthread_create(&prod[i].thread, NULL, register_only, &prod[i]);
	}
	for (unsigned i = 0; i < THREADS; i++) {
		pthread_join(prod[i].thread, NULL);
		with_ring += prod[i].got_ring;
	}
	uint32_t unserved = xl_ring_pool_unserved(&second);
	xl_ring_pool_destroy(&first);
	xl_ring_pool_destroy(&second);
	/* The main thread holds one ring: THREADS - (XL_RING_THREADS - 1) go without. */
	if (with_ring != XL_RING_THREADS - 1 || unserved != THREADS - with_ring) {
		fprintf(stderr, "FAIL: %u of %u threads got a ring, %u unserved\n", with_ring,
		        THREADS, unserved);
		return -1;
	}
	printf("pool limits: %u threads got a ring, %u got none\n", with_ring, unserved);
	return 0;
}

int main(void)
{
	if (phase_stress() != 0 || phase_pool_limits() != 0)
		return 1;
	printf("PASS\n");
	return 0;
}
