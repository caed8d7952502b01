/*
 * Reading functions-merged-<tag>.csv back; see functions_read.h.
 */
#include "functions_read.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "u_names.h"

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
	.header = "fn,phase,calls,calls_per_frame,target_total_us,target_mean_us,target_p50_us,"
	          "target_p99_us,target_max_us,share_pct,induced_calls,own_thread_calls",
	.ncols = 12,
	.kinds = {CSVR_TEXT, CSVR_TEXT, CSVR_U64, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT,
	          CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_U64, CSVR_U64},
	.names = {"fn", "phase", "calls", "calls_per_frame", "target_total_us", "target_mean_us",
	          "target_p50_us", "target_p99_us", "target_max_us", "share_pct", "induced_calls",
	          "own_thread_calls"},
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

bool functions_read_sibling(const char *merged, char *buf, size_t size)
{
	struct u_names_parsed n;

	return u_names_parse(merged, &n) && u_names_is(&n, U_NAMES_FRAMES, NULL) &&
	       u_names_sibling(buf, size, merged, &n, U_NAMES_FUNCTIONS, NULL) >= 0 &&
	       access(buf, F_OK) == 0;
}
