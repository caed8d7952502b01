/*
 * A file read ahead in segments of whole lines, parsed on threads of
 * their own: one thread reads a segment and cuts it after its last newline
 * (the bytes after it open the next segment), CSVR_AHEAD_WORKERS threads
 * run a parse callback over the lines of the segments cut so far, each
 * segment on one of them, and the caller takes the segments in order once
 * parsed. csvr.c uses it to take its fast path's number parsing off the
 * rows' delivery, so that a large file is parsed by several threads;
 * libcsv still reads every line the fast path does not take.
 *
 * Memory is fixed: CSVR_AHEAD_SEGS segments of twice the segment size,
 * and what the callback keeps per line.
 */
#ifndef XRLM_CSVR_AHEAD_H
#define XRLM_CSVR_AHEAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "thread.h"

#define CSVR_AHEAD_WORKERS 2
#define CSVR_AHEAD_SEGS (2 * CSVR_AHEAD_WORKERS + 2)

/*
 * One segment: complete lines [0, lines_end), then a tail without a
 * newline. Each on cache lines of its own: the workers parsing two
 * neighbouring segments and the reader taking a third would otherwise
 * share lines that one of them writes.
 */
struct csvr_seg {
	_Alignas(64) char *buf;
	size_t len;        /* bytes in buf */
	size_t lines_end;  /* just after the last '\n'; 0: no complete line */
	bool tail_carried; /* the tail opens the next segment (else it is the file's last bytes, or a line longer than a segment) */
	bool eof;          /* the last segment */
	int error;         /* errno of a failed read (then eof): the data before it is good */
	/* The parse callback's per-line results: rows_used of them, row_size bytes each. */
	void *rows;
	size_t rows_cap, rows_used;
	bool parsed; /* the callback is done with it */
};

/*
 * Called on a worker thread with each segment before it is handed over
 * (@p ctx: that worker's, see csvr_ahead_start()): fills
 * seg->rows (growing it with csvr_ahead_rows()) for its lines, in order.
 * It may stop early (out of memory); the caller then reads the lines past
 * rows_used by itself.
 */
typedef void (*csvr_ahead_parse_fn)(void *ctx, struct csvr_seg *seg);

struct csvr_ahead {
	int fd;           /* borrowed */
	const char *first; /* bytes before fd's, read first (borrowed) */
	size_t first_len, first_used;
	size_t seg_bytes;
	csvr_ahead_parse_fn parse;
	void *ctx[CSVR_AHEAD_WORKERS];
	struct thread cutter, worker[CSVR_AHEAD_WORKERS];
	unsigned workers; /* started */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct csvr_seg seg[CSVR_AHEAD_SEGS];
	unsigned head, tail; /* segments taken / cut */
	unsigned parse_next; /* the next segment a worker takes */
	bool cut_all;        /* the last segment is cut */
	bool held;           /* seg[head] is the caller's until the next csvr_ahead_next() */
	bool stop;
};

/*
 * Starts reading @p first_len bytes at @p first (borrowed until
 * csvr_ahead_stop(): what the caller read already), then @p fd (borrowed,
 * from its current offset to its end), in segments of @p seg_bytes,
 * calling @p parse on each on a worker thread, worker k with @p ctx[k].
 * Returns 0, or -1 (out of memory, no thread) with nothing to stop.
 */
int csvr_ahead_start(struct csvr_ahead *a, const char *first, size_t first_len, int fd,
                     size_t seg_bytes, csvr_ahead_parse_fn parse,
                     void *const ctx[CSVR_AHEAD_WORKERS]);

/*
 * The next segment, waiting for the thread; the previous one is given
 * back. Must not be called after the one with eof set.
 */
const struct csvr_seg *csvr_ahead_next(struct csvr_ahead *a);

/* Room for @p n rows in @p seg. Returns 0, or -1 when out of memory. */
int csvr_ahead_rows(struct csvr_seg *seg, size_t row_size, size_t n);

/* Stops and joins the threads (whatever they were doing) and frees the segments. */
void csvr_ahead_stop(struct csvr_ahead *a);

#endif /* XRLM_CSVR_AHEAD_H */
