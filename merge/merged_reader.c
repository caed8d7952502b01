/*
 * Reading a merged CSV back; see merged_reader.h.
 */
#include "merged_reader.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "merged_out.h"

enum {
	COL_DISPLAY_TIME,
	COL_THREAD_ID,
	COL_INTERVAL_US,
	COL_PRE_US,
	COL_POST_US,
	COL_TARGET_US,
	COL_CPU_PCT,
	COL_GPU_US,
	COL_GPU_PCT,
	COL_N,
};

static int merged_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	/* The summary is recomputed from the rows, not trusted. */
	(void)ctx;
	(void)text;
	(void)in_header;
	(void)msg;
	(void)msg_size;
	return 0;
}

static double opt(const union csvr_value *v, uint32_t present, int col)
{
	return (present & (1u << col)) ? v[col].f : NAN;
}

static int merged_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                      size_t msg_size)
{
	struct cols *c = ctx;

	if (cols_add(c, v[COL_TARGET_US].f, opt(v, present, COL_CPU_PCT), opt(v, present, COL_GPU_US),
	             opt(v, present, COL_GPU_PCT), opt(v, present, COL_INTERVAL_US)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	return 0;
}

static const struct csvr_format merged_format = {
	.header = MOUT_HEADER,
	.ncols = COL_N,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_F64_OPT, CSVR_F64, CSVR_F64, CSVR_F64, CSVR_F64_OPT,
	          CSVR_F64_OPT, CSVR_F64_OPT},
	.names = {"display_time", "thread_id", "frame_interval_us", "pre_us", "post_us", "target_us",
	          "target_cpu_pct_of_frame", "target_gpu_us", "target_gpu_pct_of_frame"},
	.comment = merged_comment,
	.row = merged_row,
};

int mrd_read(const char *path, struct cols *out, struct csvr_diag *diag)
{
	memset(diag, 0, sizeof(*diag));
	if (cols_create(out, csvr_estimate_rows(path, 48)) != 0) {
		snprintf(diag->error, sizeof(diag->error), "%s: error: out of memory", path);
		diag->failed = true;
		return -1;
	}
	if (csvr_read(path, &merged_format, out, diag, NULL) != 0) {
		cols_destroy(out);
		return -1;
	}
	return 0;
}
