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
 * pool get none while no consumer reclaims. Phase 3: threads that exit
 * give their ring back (xl_ring_pool_reclaim): 3 x XL_RING_THREADS threads
 * one after another each get the first ring again, reset (seq from 0, a
 * claim its predecessor left open, as a thread cancelled inside a call
 * does, cleared), and every record is popped. Phase 4: 200 threads, up to
 * 40 at once, against a consumer thread that pops and reclaims: those
 * beyond the pool wait (retrying) until a ring is free, and every thread's
 * records are popped, in order, its seq from 0. Run under TSan by
 * scripts/run-sanitizers: any race between a producer and the consumer is
 * a report, also the consumer's backing of the rings' pages
 * (xl_ring_pool_populate), made here to touch every page again on every
 * pass while the producers write the records around it, and its reset of a
 * ring for the next thread.
 */
#include "xl_ring.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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

/* How long a thread may wait for a ring, or a ring for its reclaim: a hang guard only. */
#define WAIT_GUARD_NS 60000000000ull
/* The pool's free set with every ring free. */
#define ALL_FREE ((uint32_t)((1ull << XL_RING_THREADS) - 1))

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A thread of phases 3 and 4: waits for a ring, pushes its records, exits. */
struct churner {
	struct xl_ring_pool *pool;
	uint32_t id;
	uint32_t records;
	bool leave_open;      /* exits with a claim never published */
	struct xl_ring *ring; /* the ring it got; NULL: none within WAIT_GUARD_NS */
	pthread_t thread;
};

static void *churn(void *arg)
{
	struct churner *c = arg;
	uint64_t deadline = now_ns() + WAIT_GUARD_NS;

	/* A thread that found none free looks again on each call. */
	while (!(c->ring = xl_ring_mine(c->pool)) && now_ns() < deadline)
		sched_yield();
	if (!c->ring)
		return NULL;
	for (uint32_t i = 0; i < c->records; i++) {
		/* Retried until claimed (full: the consumer is behind), so that
		 * the thread's last write of the ring is a publish: TSan sees
		 * no other order between a dead thread's writes and the
		 * consumer's reset (the kernel's, at exit, it cannot see). */
		struct xl_call_record *rec;
		while (!(rec = xl_ring_claim(c->ring)))
			sched_yield();
		rec->t_entry = now_ns();
		rec->t_exit = rec->t_entry;
		rec->display_time = i;
		rec->thread_id = c->id;
		rec->session_id = 1;
		rec->fn = (uint16_t)(c->id & 0xffff);
		xl_ring_publish(c->ring);
	}
	if (c->leave_open)
		xl_ring_claim(c->ring); /* as a thread cancelled inside a call */
	return NULL;
}

/*
 * Checks one popped record of phases 3 and 4: the next of its thread's,
 * and the first one of a thread seq 0 (its ring was reset for it; no
 * claim of a fresh ring fails, so every seq is its record's number).
 */
static int check_churned(const struct xl_call_record *r, uint32_t *next, uint32_t threads)
{
	if (r->thread_id >= threads || r->fn != (r->thread_id & 0xffff) ||
	    r->t_exit != r->t_entry) {
		fprintf(stderr, "FAIL: corrupt record (thread %u fn %u)\n", r->thread_id, r->fn);
		return -1;
	}
	if ((uint64_t)r->display_time != next[r->thread_id] || r->seq < next[r->thread_id] ||
	    (next[r->thread_id] == 0 && r->seq != 0)) {
		fprintf(stderr, "FAIL: thread %u: record %lld (seq %llu) popped, %u expected\n",
		        r->thread_id, (long long)r->display_time, (unsigned long long)r->seq,
		        next[r->thread_id]);
		return -1;
	}
	next[r->thread_id]++;
	return 0;
}

/* Phase 3: one thread at a time, each joined, then its ring reclaimed here. */
static int phase_reclaim_sequential(void)
{
	/* Fewer records than a ring holds: no thread waits for this consumer. */
	enum { THREADS = 3 * XL_RING_THREADS, RECORDS = CAPACITY - 24 };
	static struct churner c[THREADS];
	static uint32_t next[THREADS];
	struct xl_ring_pool pool;
	struct xl_call_record r;
	int rc = 0;

	if (xl_ring_pool_create(&pool, CAPACITY) != 0)
		return -1;
	for (uint32_t i = 0; i < THREADS && rc == 0; i++) {
		c[i] = (struct churner){.pool = &pool, .id = i, .records = RECORDS,
		                        .leave_open = i % 5 == 0};
		if (pthread_create(&c[i].thread, NULL, churn, &c[i]) != 0) {
			fprintf(stderr, "FAIL: pthread_create\n");
			rc = -1;
			break;
		}
		pthread_join(c[i].thread, NULL);
		if (c[i].ring != &pool.rings[0]) {
			fprintf(stderr, "FAIL: thread %u got %s, not the first ring, given back\n",
			        i, c[i].ring ? "another ring" : "no ring");
			rc = -1;
		}
		while (rc == 0 && xl_ring_pool_pop(&pool, &r))
			rc = check_churned(&r, next, THREADS);
		if (rc == 0 && next[i] != RECORDS) {
			fprintf(stderr, "FAIL: thread %u: %u of %u records popped\n", i, next[i],
			        RECORDS);
			rc = -1;
		}
		/* The TID can outlive the join a moment (the kernel clears the
		 * joined-on TID before it releases the thread): reclaim until
		 * the ring is free again. */
		uint64_t deadline = now_ns() + WAIT_GUARD_NS;
		while (rc == 0 && atomic_load(&pool.free) != ALL_FREE) {
			if (now_ns() > deadline) {
				fprintf(stderr, "FAIL: the ring of exited thread %u is not given back\n",
				        i);
				rc = -1;
			}
			xl_ring_pool_reclaim(&pool);
			usleep(100);
		}
	}
	uint32_t unserved = xl_ring_pool_unserved(&pool);
	xl_ring_pool_destroy(&pool);
	if (rc == 0 && unserved != 0) {
		fprintf(stderr, "FAIL: %u threads found no ring free\n", unserved);
		rc = -1;
	}
	if (rc == 0)
		printf("reclaim: %u threads in turn, each on the first ring, %u records each\n",
		       THREADS, RECORDS);
	return rc;
}

struct consumer {
	struct xl_ring_pool *pool;
	uint32_t *next;
	uint32_t threads;
	atomic_bool done;
	int rc;
	pthread_t thread;
};

/* Phase 4's consumer: the writer's pass (populate, drain, reclaim) in a loop. */
static void *consume_reclaim(void *arg)
{
	struct consumer *k = arg;
	struct xl_call_record r;
	for (;;) {
		bool done = atomic_load(&k->done);
		xl_ring_pool_populate(k->pool);
		while (xl_ring_pool_pop(k->pool, &r))
			if (check_churned(&r, k->next, k->threads) != 0) {
				k->rc = -1;
				return NULL;
			}
		xl_ring_pool_reclaim(k->pool);
		if (done)
			return NULL;
		sched_yield();
	}
}

/* Phase 4: threads come and go, more of them at once than rings. */
static int phase_reclaim_concurrent(void)
{
	enum { THREADS = 200, AT_ONCE = XL_RING_THREADS + 8, RECORDS = 2000 };
	static struct churner c[THREADS];
	static uint32_t next[THREADS];
	struct xl_ring_pool pool;
	struct consumer k = {.pool = &pool, .next = next, .threads = THREADS};
	uint32_t started = 0;
	int rc = 0;

	atomic_init(&k.done, false);
	if (xl_ring_pool_create(&pool, CAPACITY) != 0 ||
	    pthread_create(&k.thread, NULL, consume_reclaim, &k) != 0)
		return -1;
	for (; started < THREADS; started++) {
		if (started >= AT_ONCE)
			pthread_join(c[started - AT_ONCE].thread, NULL);
		c[started] = (struct churner){.pool = &pool, .id = started, .records = RECORDS};
		if (pthread_create(&c[started].thread, NULL, churn, &c[started]) != 0) {
			fprintf(stderr, "FAIL: pthread_create\n");
			rc = -1;
			break;
		}
	}
	for (uint32_t i = started > AT_ONCE ? started - AT_ONCE : 0; i < started; i++)
		pthread_join(c[i].thread, NULL);
	atomic_store(&k.done, true);
	pthread_join(k.thread, NULL);
	uint32_t unserved = xl_ring_pool_unserved(&pool);
	xl_ring_pool_destroy(&pool);
	if (rc != 0 || k.rc != 0)
		return -1;
	for (uint32_t i = 0; i < THREADS; i++) {
		if (!c[i].ring || next[i] != RECORDS) {
			fprintf(stderr, "FAIL: thread %u: %s, %u of %u records popped\n", i,
			        c[i].ring ? "a ring" : "no ring", next[i], RECORDS);
			return -1;
		}
	}
	printf("reclaim: %u threads, up to %u at once: every record popped; %u waited for a ring\n",
	       THREADS, AT_ONCE, unserved);
	return 0;
}

int main(void)
{
	if (phase_stress() != 0 || phase_pool_limits() != 0 || phase_reclaim_sequential() != 0 ||
	    phase_reclaim_concurrent() != 0)
		return 1;
	printf("PASS\n");
	return 0;
}
