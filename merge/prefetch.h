/*
 * Reads a window source ahead on a thread of its own: the batches its pull
 * function returns are copied into a small queue (PREFETCH_SLOTS batches),
 * so one side's file is parsed while the join works on the other. Used by
 * the streaming merge for post's CPU file and the GPU files; without a
 * thread (pthread_create failed) the source is pulled directly.
 */
#ifndef XRLM_PREFETCH_H
#define XRLM_PREFETCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "window.h"

#define PREFETCH_SLOTS 2

struct prefetch_slot {
	void *rows;
	size_t n, cap; /* rows held, rows room */
	int r;         /* what the pull returned */
};

struct prefetch {
	struct window_source src; /* the source read ahead */
	pthread_t thread;
	bool threaded;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct prefetch_slot slot[PREFETCH_SLOTS];
	unsigned head, tail; /* batches taken / filled */
	bool held;           /* slot[head] is the caller's until the next pull */
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
 * Stops the thread (it finishes the batch it is reading) and frees the
 * queue. After it, the original source may be used directly again.
 */
void prefetch_stop(struct prefetch *p);

#endif /* XRLM_PREFETCH_H */
