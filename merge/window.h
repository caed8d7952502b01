/*
 * A sliding window over one side's rows, for the streaming join: rows are
 * pulled from their file a batch at a time and kept only while they can
 * still be matched. Rows are looked up by key the way the whole-file join
 * did (first the next JOIN_SCAN rows after the cursor, then the earliest
 * unused row with the key through a hash index, built only when a lookup
 * needs it: rows in order are found by the scan), within the rows held:
 * from WINDOW_BEHIND rows before the cursor to WINDOW_AHEAD rows after it.
 * The per-side files are written in the same order on both sides, up to
 * local reordering by the writer's queue, so a partner is always that
 * close; rows further apart are not matched.
 */
#ifndef XRLM_WINDOW_H
#define XRLM_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WINDOW_NONE UINT64_MAX
/* Rows held ahead of and behind the cursor (see above). */
#define WINDOW_AHEAD 4096
#define WINDOW_BEHIND 4096
/* The whole-file join looked this many rows ahead of its cursor first. */
#define JOIN_SCAN 16

/* Where a window's rows come from, and what makes two rows the same key. */
struct window_source {
	size_t row_size;
	uint64_t (*hash)(const void *row);
	bool (*same)(const void *a, const void *b);
	/*
	 * The next batch of rows (*rows, *n; n may be 0, the rows stay valid
	 * until the next call). Returns 1 when more may follow, 0 after the
	 * last batch, -1 on error.
	 */
	int (*pull)(void *ctx, const void **rows, size_t *n);
	void *ctx;
	/*
	 * Pull only as far as a lookup needs: JOIN_SCAN rows past the cursor
	 * while the scan finds the key there, WINDOW_AHEAD when it does not.
	 * The same rows match; rows further than WINDOW_BEHIND behind the
	 * cursor may be dropped at other times. For a source that comes as
	 * another thread makes it (the sandwich's xrEndFrame calls), which a
	 * lookup then does not wait WINDOW_AHEAD rows for.
	 */
	bool lazy;
};

struct window {
	struct window_source src;
	char *rows;       /* rows [base, base + len) */
	uint8_t *used;
	uint64_t *chain;  /* per row: the previous row (index + 1) of its hash bucket, 0: none */
	size_t len, cap;
	size_t hashed;    /* rows [base, base + hashed) are in the hash index */
	uint64_t base;
	uint64_t *heads;  /* per bucket: its newest row (index + 1), 0: none */
	size_t head_mask;
	uint64_t cursor;  /* the first row that may still be unused, roughly */
	uint64_t total;   /* rows pulled */
	bool eof;
	int err;          /* -1: the source failed (or memory ran out) */
};

/* Prepares @p w over @p src. Returns 0, or -1 when out of memory. */
int window_init(struct window *w, const struct window_source *src);

/* Frees what @p w holds. */
void window_destroy(struct window *w);

/*
 * The earliest unused row with the key of @p key (a row of the source's
 * type) within the window, marked used; WINDOW_NONE if there is none or
 * on error (w->err set). @p row receives a pointer to it (valid until the
 * next call).
 */
uint64_t window_take(struct window *w, const void *key, const void **row);

/* Pulls (and drops) the rest of the rows, so that total counts them all. Returns 0 or -1. */
int window_drain(struct window *w);

#endif /* XRLM_WINDOW_H */
