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

enum cols_id {
	COLS_CPU_US,
	COLS_CPU_PCT,
	COLS_GPU_US,
	COLS_GPU_PCT,
	COLS_INTERVAL_US,
	COLS_COUNT,
};

/* Flat arrays of the present values of each column, in row order. */
struct cols {
	double *v[COLS_COUNT];
	size_t n[COLS_COUNT];
	size_t cap;             /* rows the arrays can hold */
	uint64_t rows;          /* rows added */
	uint64_t negative_cpu;  /* rows with target CPU < 0 */
};

/* Allocates room for @p cap rows (grown on demand). Returns 0 or -1. */
int cols_create(struct cols *c, size_t cap);

/* Frees the arrays of @p c. */
void cols_destroy(struct cols *c);

/*
 * Adds one row; NAN marks a blank cell (@p cpu_us is never blank).
 * Returns 0, or -1 when growing failed.
 */
int cols_add(struct cols *c, double cpu_us, double cpu_pct, double gpu_us, double gpu_pct,
             double interval_us);

/*
 * Fills the row counts and statistics of @p s (other fields untouched).
 * Reorders the arrays: call it once, after the last cols_add().
 */
void cols_summarize(struct cols *c, struct mrg_summary *s);

#endif /* XRLM_COLUMNS_H */
