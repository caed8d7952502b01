/*
 * Rows read ahead on a thread of their own: the one read-ahead queue of
 * the merge. A reader thread hands batches of rows to a small queue
 * (PREFETCH_SLOTS batches), and the consumer pulls them as a
 * window source, so one file is parsed while the caller works on
 * another. The thread either pulls a window source (prefetch_start: post's
 * CPU file and the GPU files of the streaming join) or runs a producer
 * that pushes its batches (prefetch_start_producer: a calls file, read by
 * calls_read()'s callback, see calls_queue.h).
 */
#ifndef XRLM_PREFETCH_H
#define XRLM_PREFETCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "thread.h"
#include "window.h"

/*
 * Batches queued. With two, the reader could run one batch ahead (the
 * consumer holds the other): reader and sandwich, of nearly equal speed
 * on calls files, then slept and woke each other every batch (10^6
 * frames with calls: 8 slots, -10 %; bench/RESULTS.md, tenth session).
 */
#define PREFETCH_SLOTS 8

struct prefetch_slot {
	void *rows;
	size_t n, cap; /* rows held, rows room */
	int r;         /* what the pull returned */
};

struct prefetch;

/*
 * Run on the reader thread by prefetch_start_producer(): hands its rows
 * over (prefetch_reserve(), prefetch_commit()) and returns 0 at the end of
 * its input, -1 on error (or when prefetch_reserve() failed).
 */
typedef int (*prefetch_produce_fn)(void *ctx, struct prefetch *p);

struct prefetch {
	struct window_source src; /* the source read ahead */
	prefetch_produce_fn produce; /* or the producer run */
	void *produce_ctx;
	struct thread thread;
	bool threaded;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct prefetch_slot slot[PREFETCH_SLOTS];
	unsigned head, tail; /* batches taken / filled */
	bool held;           /* slot[head] is the caller's until the next pull */
	bool ended;          /* the caller pulled the end or an error: the reader is done with its source */
	bool stop;
	bool out_of_memory;
};

/*
 * Starts reading @p src ahead (on a thread when one can be started) and
 * returns, in @p out, the source to give the window in its place.
 */
void prefetch_start(struct prefetch *p, const struct window_source *src, struct window_source *out);

/* As prefetch_start(), without a thread: @p out is @p src. */
void prefetch_none(struct prefetch *p, const struct window_source *src, struct window_source *out);

/*
 * Starts a thread that runs @p produce(@p ctx, @p p); the rows it puts
 * (of @p row_size bytes) come out of @p out's pull in order, then the end
 * (0) or the error (-1) it returned. Returns 0, or -1 when no thread could
 * be started (nothing to stop then).
 */
int prefetch_start_producer(struct prefetch *p, size_t row_size, prefetch_produce_fn produce,
                            void *ctx, struct window_source *out);

/*
 * From the producer: room for @p n rows in the queue's next free slot,
 * waiting while the queue is full, for the producer to fill where they
 * are handed over (no copy: a calls file's reader fills its batches there)
 * and queue with prefetch_commit(). NULL when the consumer stopped or
 * memory ran out (the producer should then return -1: its end queues the
 * error). Until the commit, the slot stays the producer's.
 */
void *prefetch_reserve(struct prefetch *p, size_t n);

/* Queues the @p n rows written where prefetch_reserve() said, in order. */
void prefetch_commit(struct prefetch *p, size_t n);

/*
 * Stops the thread (it finishes the batch it is reading) and frees the
 * queue. After it, the original source may be used directly again.
 */
void prefetch_stop(struct prefetch *p);

#endif /* XRLM_PREFETCH_H */
