/*
 * The merged file's rows and the statistics' values, made from the frames
 * join's records (join.h) and the sandwich's every-function columns
 * (merge_calls.h): by the row writers (merged_write.h), the rows
 * formatted early (merge_early.h) and the statistics' threads (columns.h).
 * merge.c runs the merge; this is what its threads call back.
 */
#ifndef XRLM_MERGE_ROWS_H
#define XRLM_MERGE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "join.h"
#include "merge_calls.h"
#include "merge_gate.h"
#include "spill.h"

/* Records read back at a time while summarising and writing (on the stack: small). */
#define MERGE_RECS_BLOCK 64

/* What the rows are made from: the join's records and the merge's other results. */
struct merge_rows_ctx {
	const struct spill *recs;
	const struct merge_gate *gate;
	uint64_t bracket_correction_ns;
	bool has_gpu_files; /* gate_tripped is blank without */
	int read_error;     /* errno of a failed read of the records */
	const struct merge_calls *calls;
	bool recs_shared;   /* the statistics read the records as the join publishes them */
	size_t row_offset;  /* the rows writer's row 0 is this record (the ones before went early) */
};

/*
 * The merged file's target_us of record @p a, in ns: pre's bracket less
 * post's and the bracket correction @p bracket_ns (post's
 * bracket_correction_ns). The rows, the statistics and `xrlm trace`'s
 * target_us counter share it.
 */
int64_t merge_rows_target_ns(uint64_t bracket_ns, const struct join_rec *a);

/*
 * Up to MERGE_RECS_BLOCK records of @p recs from @p first into @p block,
 * *@p n of them (0: no more): as the join publishes them when @p shared,
 * else from all of them. Returns 0, or -1 with errno set.
 */
int merge_rows_read(const struct spill *recs, bool shared, uint64_t first, struct join_rec *block,
                    size_t *n);

/*
 * columns_fill_fn (@p ctx: a struct merge_rows_ctx): the values of the
 * columns in @p mask of every record, in order, read back from the
 * records (on the statistics' threads: the join's thread does none of
 * this work). Returns 0, or -1 with errno set.
 */
int merge_rows_columns(void *ctx, struct columns *c, unsigned mask);

/*
 * merged_write_fill_fn (@p ctx: a struct merge_rows_ctx): the rows of
 * records [first, last) past the ones formatted early (ctx's row_offset).
 */
size_t merge_rows_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used);

/*
 * merge_early_fill_fn (@p ctx: a struct merge_rows_ctx): the rows of
 * records [first, last) whose frames the sandwich made final.
 */
size_t merge_rows_fill_final(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                             size_t *used, int *state);

#endif /* XRLM_MERGE_ROWS_H */
