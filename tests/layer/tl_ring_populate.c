/*
 * The call rings' pages are backed ahead of their producers
 * (xl_ring_pool_populate, layer/xl_ring.h): a thread that records after the
 * consumer's pass takes no page fault on its first lap through its ring,
 * and a ring's memory is backed only as far as it is populated or used.
 */
#include "xl_ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

/* Page faults the calling thread has taken so far. */
static long thread_faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* Resident pages among the pages of records [from, to) of @p ring. */
static size_t resident_pages(const struct xl_ring *ring, uint64_t from, uint64_t to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)(ring->slots + from) & ~(page - 1);
	uintptr_t end = ((uintptr_t)(ring->slots + to) + page - 1) & ~(page - 1);
	size_t n = (end - start) / page, count = 0;
	unsigned char *vec = malloc(n);
	if (!vec || mincore((void *)start, end - start, vec) != 0) {
		free(vec);
		return (size_t)-1;
	}
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1;
	free(vec);
	return count;
}

/* Records @p n calls on the calling thread's ring, as a side's wrapper does. */
static void record(struct xl_ring_pool *pool, uint64_t n)
{
	struct xl_ring *ring = xl_ring_mine(pool);
	for (uint64_t i = 0; i < n; i++) {
		struct xl_call_record *rec = xl_ring_claim(ring);
		if (!rec)
			return;
		rec->t_entry = i;
		rec->t_exit = i + 1;
		rec->fn = 1;
		xl_ring_publish(ring);
	}
}

int main(void)
{
	struct xl_ring_pool pool;
	const uint64_t cap = XL_RING_CAPACITY, ahead = XL_RING_POPULATE_AHEAD;
	size_t per_page = (size_t)sysconf(_SC_PAGESIZE) / sizeof(struct xl_call_record);

	if (xl_ring_pool_create(&pool, cap) != 0) {
		fprintf(stderr, "FAIL: xl_ring_pool_create\n");
		return 1;
	}
	struct xl_ring *first = &pool.rings[0];
	check(resident_pages(first, 0, cap) == 0, "a new pool's memory is resident");

	check(!xl_ring_pool_backed(&pool), "the pool says it is backed before any pass");

	/* Before any thread claims a ring, the first one's start is populated. */
	xl_ring_pool_populate(&pool);
	check(xl_ring_pool_backed(&pool), "the pool does not say it is backed after a pass");
	check(resident_pages(first, 0, ahead) >= ahead / per_page,
	      "the next ring's first records are not populated");
	check(resident_pages(first, ahead + per_page, cap) == 0,
	      "more than XL_RING_POPULATE_AHEAD records of a ring are populated");
	check(resident_pages(&pool.rings[1], 0, cap) == 0, "a ring two claims away is populated");

	/*
	 * The producer's first lap through what was populated takes no fault.
	 * Its thread claims its ring first: the claim's first write of the
	 * thread's TLS faults in about one run of nine (where the TLS block
	 * lands in its page varies with ASLR), a fault that is not the ring's.
	 */
	check(xl_ring_mine(&pool) == first, "the first thread does not get the first ring");
	long before = thread_faults();
	record(&pool, ahead - per_page);
	long faults = thread_faults() - before;
	if (faults != 0)
		fprintf(stderr, "FAIL: %ld page faults in %llu records on populated pages\n", faults,
		        (unsigned long long)(ahead - per_page));
	failures += faults != 0;

	/* The consumer keeps ahead of the producer, and populates the next ring. */
	xl_ring_pool_populate(&pool);
	check(resident_pages(first, 0, 2 * ahead - per_page) >= (2 * ahead - per_page) / per_page,
	      "the pages ahead of the producer are not populated");
	check(resident_pages(&pool.rings[1], 0, XL_RING_POPULATE_NEXT) >=
	          XL_RING_POPULATE_NEXT / per_page,
	      "the next ring to be claimed is not populated");
	check(resident_pages(&pool.rings[1], XL_RING_POPULATE_NEXT + per_page, cap) == 0,
	      "more than XL_RING_POPULATE_NEXT records of the next ring are populated");

	/* A ring is backed to its end, and not past it (the last one's end is the pool's). */
	for (uint32_t i = 1; i < XL_RING_THREADS; i++)
		pool.rings[i].populated = cap;
	struct xl_ring *last = &pool.rings[XL_RING_THREADS - 1];
	last->populated = cap - 3 * per_page;
	atomic_store(&last->tail, cap - ahead / 2);
	atomic_store(&pool.free, 0); /* every ring held */
	xl_ring_pool_populate(&pool);
	check(last->populated == cap, "the last ring is not backed to its end");
	check(resident_pages(last, cap - 2 * per_page, cap) >= 2, "the last ring's end is not backed");

	xl_ring_pool_destroy(&pool);
	if (failures)
		return 1;
	printf("ring pages backed ahead: %zu records a page, %llu ahead, no faults\n", per_page,
	       (unsigned long long)ahead);
	return 0;
}
