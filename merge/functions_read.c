/*
 * Reading functions-merged-<tag>.csv back; see functions_read.h.
 */
#include "functions_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "u_parse.h"

#include "merge.h"
#include "quote.h"

/* The row callback the engine calls, its context, and what the checks need. */
struct each_ctx {
	functions_read_fn row;
	void *ctx;
	char frame_count[32]; /* the `# frame_count=` line's value; "" without one */
	bool has_frame_count;
	double share_sum; /* share_pct over the rows that have one */
	uint64_t shares, rows;
};

/* Keeps the `# frame_count=N` line the merge writes above the header; other lines carry nothing. */
static int keep_frame_count(void *ctx, const char *text, bool in_header, char *msg,
                            size_t msg_size)
{
	struct each_ctx *e = ctx;
	(void)msg;
	(void)msg_size;

	if (!in_header || e->has_frame_count || strncmp(text, "frame_count=", 12) != 0)
		return 0;
	e->has_frame_count = true;
	snprintf(e->frame_count, sizeof(e->frame_count), "%.31s", text + 12);
	return 0;
}

static int each_row(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
                    size_t msg_size)
{
	struct each_ctx *e = ctx;

	e->rows++;
	if (present & (1u << FUNCTIONS_COL_SHARE)) {
		e->share_sum += values[FUNCTIONS_COL_SHARE].f;
		e->shares++;
	}
	return e->row(e->ctx, values, present, msg, msg_size);
}

/*
 * The checks of a whole functions file against its merged file's
 * @p merged_frames frames: its own frame count (the same session's file
 * says the same), and its shares (every function's row there: they add up
 * to 100, each rounded to 4 decimals). Warnings into @p diag.
 */
static void check_whole(const struct each_ctx *e, const char *path, uint64_t merged_frames,
                        struct csvr_diag *diag)
{
	char warning[CSVR_MSG_MAX], quoted[64], q[QUOTE_PATH_MAX];
	const char *shown = quote_path(q, path);
	uint64_t count = 0;

	if (merged_frames != FUNCTIONS_FRAMES_UNKNOWN && !e->has_frame_count) {
		snprintf(warning, sizeof(warning), "%s: warning: no frame_count line: it cannot be told "
		         "to be its merged file's (%" PRIu64 " frames)", shown, merged_frames);
		csvr_diag_add_warning(diag, warning);
	} else if (e->has_frame_count &&
	           u_parse_span_u64(e->frame_count, strlen(e->frame_count), &count) != U_PARSE_OK) {
		csvr_quote_field(quoted, sizeof(quoted), e->frame_count, strlen(e->frame_count));
		snprintf(warning, sizeof(warning), "%s: warning: its frame_count is not a count "
		         "(\"%s\")", shown, quoted);
		csvr_diag_add_warning(diag, warning);
	} else if (merged_frames != FUNCTIONS_FRAMES_UNKNOWN && count != merged_frames) {
		snprintf(warning, sizeof(warning), "%s: warning: its frame_count=%" PRIu64 " is not its "
		         "merged file's %" PRIu64 " frames: another session's table?", shown, count,
		         merged_frames);
		csvr_diag_add_warning(diag, warning);
	}
	double slack = 0.0001 * (double)e->shares + 0.001;
	if (e->shares > 0 && fabs(e->share_sum - 100.0) > slack) {
		snprintf(warning, sizeof(warning), "%s: warning: its functions' shares add up to %.4f %%, "
		         "not 100: rows missing or added?", shown, e->share_sum);
		csvr_diag_add_warning(diag, warning);
	}
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
	.comment = keep_frame_count,
	.row = each_row,
};

const struct csvr_format *functions_read_format(void)
{
	return &functions_format;
}

int functions_read_each(const char *path, uint64_t merged_frames, functions_read_fn row,
                        void *ctx, struct csvr_diag *diag)
{
	struct each_ctx e = {.row = row, .ctx = ctx};

	memset(diag, 0, sizeof(*diag));
	if (csvr_read(path, &functions_format, &e, diag, NULL) != 0)
		return -1;
	check_whole(&e, path, merged_frames, diag);
	return 0;
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

int functions_read_check(const char *path, uint64_t merged_frames, struct csvr_diag *diag)
{
	return functions_read_each(path, merged_frames, keep_nothing, NULL, diag);
}

bool functions_read_sibling(const char *merged, char *buf, size_t size)
{
	return merge_functions_path(merged, buf, size) == 0 && access(buf, F_OK) == 0;
}
