/*
 * Reading functions-merged-<tag>.csv back; see functions_read.h.
 */
#include "functions_read.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "merge.h"

/* The row callback the engine calls, and its context. */
struct each_ctx {
	functions_read_fn row;
	void *ctx;
};

static int skip_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	(void)ctx;
	(void)text;
	(void)in_header;
	(void)msg;
	(void)msg_size;
	return 0;
}

static int each_row(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
                    size_t msg_size)
{
	const struct each_ctx *e = ctx;
	return e->row(e->ctx, values, present, msg, msg_size);
}

static const struct csvr_format functions_format = {
	.header = FUNCTIONS_HEADER,
	.ncols = 14,
	.min_cols = FUNCTIONS_MIN_COLUMNS,
	.kinds = {CSVR_TEXT, CSVR_TEXT, CSVR_U64, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT,
	          CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_U64, CSVR_U64,
	          CSVR_F64_OPT, CSVR_F64_OPT},
	.names = {"fn", "phase", "calls", "calls_per_frame", "target_total_us", "target_mean_us",
	          "target_p50_us", "target_p99_us", "target_max_us", "share_pct", "induced_calls",
	          "own_thread_calls", "induced_us", "own_thread_us"},
	.comment = skip_comment,
	.row = each_row,
};

const struct csvr_format *functions_read_format(void)
{
	return &functions_format;
}

int functions_read_each(const char *path, functions_read_fn row, void *ctx,
                        struct csvr_diag *diag)
{
	struct each_ctx e = {.row = row, .ctx = ctx};

	memset(diag, 0, sizeof(*diag));
	return csvr_read(path, &functions_format, &e, diag, NULL);
}

static int keep_nothing(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
                        size_t msg_size)
{
	(void)ctx;
	(void)values;
	(void)present;
	(void)msg;
	(void)msg_size;
	return 0;
}

int functions_read_check(const char *path, struct csvr_diag *diag)
{
	return functions_read_each(path, keep_nothing, NULL, diag);
}

bool functions_read_sibling(const char *merged, char *buf, size_t size)
{
	return merge_functions_path(merged, buf, size) == 0 && access(buf, F_OK) == 0;
}
