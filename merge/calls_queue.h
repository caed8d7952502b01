/*
 * A calls file read on a thread of its own into a bounded queue, so that
 * the sandwich (calls_join.h) can walk the post file in step with the pre
 * file while each is read by csvr's push parser: memory stays at the
 * queue's fixed size (CALLS_QUEUE_ROWS rows) whatever the file's length.
 */
#ifndef XRLM_CALLS_QUEUE_H
#define XRLM_CALLS_QUEUE_H

#include <pthread.h>
#include <stdbool.h>

#include "calls_read.h"

#define CALLS_QUEUE_BLOCK 512   /* rows per block */
#define CALLS_QUEUE_BLOCKS 16   /* blocks in flight */

struct calls_queue_block {
	size_t len;
	struct calls_row rows[CALLS_QUEUE_BLOCK];
};

/* Owns its blocks and its reader thread; see calls_queue_start(). */
struct calls_queue {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct calls_queue_block *ring[CALLS_QUEUE_BLOCKS]; /* full blocks */
	size_t head, count;
	struct calls_queue_block *spare[CALLS_QUEUE_BLOCKS + 2];
	size_t spares;
	bool done;      /* the reader has finished (its result is below) */
	bool cancelled; /* the consumer has stopped: the reader gives up */

	struct calls_queue_block *fill; /* the reader's block being filled */
	struct calls_queue_block *cur;  /* the consumer's block */
	size_t cur_pos;

	pthread_t thread;
	bool started;
	const char *path;
	const char *side;
	struct side_meta meta;
	struct csvr_diag diag;
	int ret;
};

/*
 * Starts reading @p path (of side @p side) on a new thread. Returns 0, or
 * -1 with q->diag.error set (out of memory, no thread). Call
 * calls_queue_finish() either way.
 */
int calls_queue_start(struct calls_queue *q, const char *path, const char *side);

/* The next row in file order, waiting for the reader; NULL at the end (or after an error). */
const struct calls_row *calls_queue_peek(struct calls_queue *q);

/* Consumes the row calls_queue_peek() returned. */
void calls_queue_pop(struct calls_queue *q);

/*
 * Stops the reader if it is still running (what it read so far is lost),
 * joins it and frees the blocks. Returns the read's result: 0, or -1 with
 * q->diag set; q->meta stays valid until calls_queue_destroy().
 */
int calls_queue_finish(struct calls_queue *q);

/* Frees q->meta. */
void calls_queue_destroy(struct calls_queue *q);

#endif /* XRLM_CALLS_QUEUE_H */
