/*
 * Reading a per-side GPU file; see side_gpu.h.
 */
#include "side_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "mem.h"
#include "u_parse.h"

int side_gpu_check_period(double period_ns, char *msg, size_t msg_size)
{
	if (period_ns >= 0.0 && period_ns < 1e6)
		return 0;
	snprintf(msg, msg_size, "gpu_period_ns out of range");
	return -1;
}

static int gpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct side_reader *c = ctx;
	struct side_gpu_file *f = c->file;
	(void)present;

	if (v[3].u > 1) {
		snprintf(msg, msg_size, "column 4 (valid) is not 0 or 1");
		return -1;
	}
	if (side_gpu_check_period(v[2].f, msg, msg_size) != 0)
		return -1;
	if (side_file_grow((void **)&f->rows, &f->cap, f->count, sizeof(*f->rows)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	struct side_gpu_row *r = &f->rows[f->count++];
	r->display_time = v[0].i;
	r->ticks = v[1].u;
	/* A period that is not positive cannot turn ticks into time. */
	r->period_ns = (v[3].u == 1 && v[2].f > 0) ? v[2].f : 0;
	r->bracket_ns = f->bracket_ns;
	return 0;
}

int side_gpu_bracket_line(const char *text, double *bracket_ns, char *msg, size_t msg_size)
{
	static const char key[] = "gpu_bracket_ns=";
	uint64_t ns;

	if (strncmp(text, key, sizeof(key) - 1) != 0)
		return 0;
	const char *value = text + sizeof(key) - 1;
	/* A bracket is microseconds; a second is no bracket but corruption. */
	if (u_parse_span_u64(value, strlen(value), &ns) != U_PARSE_OK || ns > 1000000000) {
		snprintf(msg, msg_size, "gpu_bracket_ns is not a count of ns from 0 to 1e9");
		return -1;
	}
	*bracket_ns = (double)ns;
	return 1;
}

/* Pre's bracket measurements, between rows: they apply to the rows below. */
static int gpu_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct side_reader *c = ctx;
	struct side_gpu_file *f = c->file;
	int r = side_gpu_bracket_line(text, &f->bracket_ns, msg, msg_size);

	if (r == 0)
		return side_file_comment(ctx, text, in_header, msg, msg_size);
	return r < 0 ? -1 : 0;
}

const struct csvr_format side_gpu_format = {
	.header = "display_time,gpu_ticks,gpu_period_ns,valid",
	.ncols = 4,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_F64, CSVR_U64},
	.names = {"display_time", "gpu_ticks", "gpu_period_ns", "valid"},
	.comment = gpu_comment,
	.row = gpu_row,
};

int side_gpu_read(const char *path, const char *expected_side, struct side_gpu_file *out)
{
	memset(out, 0, sizeof(*out));
	out->bracket_ns = NAN;
	side_file_reserve(path, (void **)&out->rows, &out->cap, sizeof(*out->rows));
	return side_file_read(path, &side_gpu_format, expected_side, &out->meta, &out->diag, out);
}

int side_gpu_stream_open(const char *path, const char *expected_side, struct side_gpu_file *out,
                       struct side_stream *stream)
{
	memset(out, 0, sizeof(*out));
	out->bracket_ns = NAN;
	side_file_reserve_chunk(path, (void **)&out->rows, &out->cap, sizeof(*out->rows));
	return side_file_stream_open(stream, path, &side_gpu_format, expected_side, &out->meta, &out->diag,
	                             out);
}

void side_gpu_destroy(struct side_gpu_file *f)
{
	mem_free(f->rows);
	f->rows = NULL;
	f->count = f->cap = 0;
	side_meta_destroy(&f->meta);
}
