/*
 * The value columns that the statistics are computed over, shared by the
 * merge (values computed from the join) and `xrlm stats` (values read back
 * from a merged CSV), so both produce the same summary from the same rows.
 */
#ifndef XRLM_COLUMNS_H
#define XRLM_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "merge.h"
#include "stats_stream.h"

enum columns_id {
	COLUMNS_CPU_US,
	COLUMNS_CPU_PCT,
	COLUMNS_GPU_US,
	COLUMNS_GPU_PCT,
	COLUMNS_INTERVAL_US,
	COLUMNS_COUNT,
};

/*
 * The present values of each column, in row order: flat arrays in memory
 * (v, n), or, created with columns_create_stream(), streams that spill to
 * files (the merge: bounded memory whatever the session's length).
 */
struct columns {
	double *v[COLUMNS_COUNT];
	size_t n[COLUMNS_COUNT];
	size_t cap;             /* rows the arrays can hold */
	uint64_t rows;          /* rows added */
	uint64_t negative_cpu;  /* rows with target CPU < 0 */
	bool streaming;         /* the values are in s[], not v[] */
	struct stats_stream s[COLUMNS_COUNT];
	int error;              /* errno of a failed spill (streaming) */
};

/* Allocates room for @p cap rows (grown on demand). Returns 0 or -1. */
int columns_create(struct columns *c, size_t cap);

/*
 * Creates streaming columns: the values beyond a bounded amount go to
 * unnamed temporary files in @p dir (borrowed until columns_destroy();
 * NULL: $TMPDIR or /tmp). v and n stay empty. Returns 0 or -1.
 */
int columns_create_stream(struct columns *c, const char *dir);

/* Frees the arrays of @p c. */
void columns_destroy(struct columns *c);

/*
 * Adds one row; NAN marks a blank cell (@p cpu_us is never blank).
 * Returns 0, or -1 when growing failed.
 */
int columns_add(struct columns *c, double cpu_us, double cpu_pct, double gpu_us,
                double gpu_pct, double interval_us);

/*
 * Adds values @p v[0..n) of column @p id of streaming columns, in order
 * (NAN: a blank cell, skipped). Safe from one thread per column at once.
 * Returns 0, or -1 when the stream could not be written (its error set).
 */
int columns_push_n(struct columns *c, enum columns_id id, const double *v, size_t n);

/*
 * Fills the columns of streaming columns @p c whose bits are set in
 * @p mask (bit i: column i): adds each one's value of every row, in order,
 * with columns_push_n() (and, with COLUMNS_CPU_US, counts negative_cpu).
 * Returns 0, or -1 with errno set.
 */
typedef int (*columns_fill_fn)(void *ctx, struct columns *c, unsigned mask);

/*
 * As columns_summarize(), the columns first filled by @p fill(@p ctx, ...)
 * (NULL: none) on the threads that summarize them: for large inputs, up
 * to workers_max() groups of columns, a thread and one fill each. c->rows
 * must hold the rows the fills add.
 */
int columns_fill_summarize(struct columns *c, columns_fill_fn fill, void *ctx,
                           struct merge_summary *s);

/*
 * Fills the row counts and statistics of @p s (other fields untouched).
 * Reorders the arrays: call it once, after the last columns_add().
 * Returns 0, or -1 when a streaming column could not be read back or
 * written (c->error set).
 */
int columns_summarize(struct columns *c, struct merge_summary *s);

#endif /* XRLM_COLUMNS_H */
