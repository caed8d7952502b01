/*
 * A calls file read on a thread of its own (the merge's read-ahead queue,
 * prefetch.h), row by row: the sandwich (calls_join.h) walks both files
 * while each is read by csvr's push parser on its own thread, and memory
 * stays at the queue's fixed size whatever the file's length. The reader
 * also gives each row's function its id in the file (calls_names.h), so
 * that the sandwich's thread maps ids, not names.
 */
#ifndef XRLM_CALLS_QUEUE_H
#define XRLM_CALLS_QUEUE_H

#include <stdbool.h>

#include "calls_names.h"
#include "calls_order.h"
#include "calls_read.h"
#include "prefetch.h"

#define CALLS_QUEUE_BLOCK 1024 /* rows per batch handed over */

/*
 * A row as the queue hands it over: its function by id (calls_queue_fn()),
 * and what its file's rows up to it say about the t_entry of those still
 * to come (calls_order.h), as the queue was asked: with CALLS_FLOOR_AFTER
 * the lowest a row after this one may have, with CALLS_FLOOR_FROM the
 * lowest this one and those after it may have.
 */
struct calls_qrow {
	uint64_t thread_id;
	int64_t t_entry_ns;
	int64_t t_exit_ns;
	uint64_t frame_id;
	int64_t result;
	int64_t floor;
	uint32_t fn_id;
};

/* Which bound a row's floor is (struct calls_qrow). */
enum calls_floor {
	CALLS_FLOOR_AFTER, /* for the rows after it: pre's, whose rows are placed as they come */
	CALLS_FLOOR_FROM,  /* for it and the rows after it: post's, whose next row waits */
};

/*
 * Owns its reader thread and batches; see calls_queue_start(). What the
 * reader writes for every row and what the consumer writes for every row
 * sit on cache lines of their own: sharing one, each row would move it
 * between the two threads' cores twice.
 */
struct calls_queue {
	struct prefetch ahead;
	struct window_source src; /* the queue's batches */
	bool started;
	const char *path;
	const char *side;
	bool check_frames; /* see calls_queue_start() */

	/* The consumer's. */
	_Alignas(64) const struct calls_qrow *cur; /* the batch being read */
	size_t cur_len, cur_pos;
	bool at_end;

	/* The reader thread's. */
	_Alignas(64) struct calls_qrow *fill; /* the batch being filled */
	size_t fill_len;
	bool have_frame;
	uint64_t first_frame;
	struct calls_names names; /* row.fn_id */
	enum calls_floor floor;   /* row.floor */
	struct calls_order order; /* the rows read so far */
	struct side_meta meta;
	struct csvr_diag diag;
	int ret;
};

/*
 * Starts reading @p path (of side @p side) on a new thread, each row with
 * the @p floor kind of bound. With @p check_frames, the file's frame ids
 * index the per-frame totals (calls_frames.h): a row's more than
 * CALLS_FRAME_SPAN from the first row's is an error at its line. Returns
 * 0, or -1 with q->diag.error set (out of memory, no thread). Call
 * calls_queue_finish() either way.
 */
int calls_queue_start(struct calls_queue *q, const char *path, const char *side,
                      enum calls_floor floor, bool check_frames);

/* calls_queue_peek()'s wait for the reader's next batch. */
const struct calls_qrow *calls_queue_next_batch(struct calls_queue *q);

/*
 * The next row in file order, waiting for the reader; NULL at the end (or
 * after an error). Inline: the sandwich takes every row of both files.
 */
static inline const struct calls_qrow *calls_queue_peek(struct calls_queue *q)
{
	if (q->cur_pos < q->cur_len)
		return &q->cur[q->cur_pos];
	return calls_queue_next_batch(q);
}

/* The name of function @p id, of a row calls_queue_peek() returned. */
static inline const char *calls_queue_fn(const struct calls_queue *q, uint32_t id)
{
	return calls_names_get(&q->names, id);
}

/* Consumes the row calls_queue_peek() returned. */
static inline void calls_queue_pop(struct calls_queue *q)
{
	q->cur_pos++;
}

/*
 * Stops the reader if it is still running (what it read so far is lost),
 * joins it and frees the batches. Returns the read's result: 0, or -1 with
 * q->diag set; q->meta stays valid until calls_queue_destroy().
 */
int calls_queue_finish(struct calls_queue *q);

/* Frees q->meta. */
void calls_queue_destroy(struct calls_queue *q);

#endif /* XRLM_CALLS_QUEUE_H */
