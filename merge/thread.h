/*
 * The merge's threads. Each thread the merge starts (the files' readers,
 * the row writers, the statistics' groups, xrlm's prefault) goes through
 * thread_start(); in xrlm its stack then comes from a reserve laid out at
 * start (thread_stacks_reserve()), so that starting a thread maps nothing.
 * A stack's mmap() and its guard page's mprotect() each wait for the
 * process's memory map, which xrlm's prefault holds while it faults in
 * the heap (heap.h): a thread started then waited 0.1-1.5 ms for it
 * (bench/RESULTS.md, twelfth session). Without the reserve (the in-layer
 * merge, inside its host application: it never lays one out), or with
 * every reserved stack in use, a thread gets glibc's default stack.
 */
#ifndef XRLM_THREAD_H
#define XRLM_THREAD_H

#include <pthread.h>

/* A started thread: its id and the reserved stack it runs on (-1: glibc's). */
struct thread {
	pthread_t id;
	int stack;
};

/*
 * Lays out the stacks' reserve: each with a guard page below it, mapped
 * now and touched by the threads that use them. For xrlm, once, before
 * its first thread. Returns 0, or -1 (none reserved: threads get glibc's
 * stacks).
 */
int thread_stacks_reserve(void);

/* Starts @p fn(@p arg) as @p t, on a reserved stack when one is free. Returns 0 or an errno value. */
int thread_start(struct thread *t, void *(*fn)(void *), void *arg);

/* Joins @p t (started) and gives its stack back to the reserve. */
void thread_join(struct thread *t);

#endif /* XRLM_THREAD_H */
