/*
 * Reading a per-side GPU file; see side_gpu.h.
 */
#include "side_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct side_reader *c = ctx;
	struct side_gpu_file *f = c->file;
	(void)present;

	if (v[3].u > 1) {
		snprintf(msg, msg_size, "column 4 (valid) is not 0 or 1");
		return -1;
	}
	if (side_file_grow((void **)&f->rows, &f->cap, f->count, sizeof(*f->rows)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	struct side_gpu_row *r = &f->rows[f->count++];
	r->display_time = v[0].i;
	r->ticks = v[1].u;
	/* A period that is not positive cannot turn ticks into time. */
	r->period_ns = (v[3].u == 1 && v[2].f > 0) ? v[2].f : 0;
	return 0;
}

const struct csvr_format side_gpu_format = {
	.header = "display_time,gpu_ticks,gpu_period_ns,valid",
	.ncols = 4,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_F64, CSVR_U64},
	.names = {"display_time", "gpu_ticks", "gpu_period_ns", "valid"},
	.comment = side_file_comment,
	.row = gpu_row,
};

int side_gpu_read(const char *path, const char *expected_side, struct side_gpu_file *out)
{
	memset(out, 0, sizeof(*out));
	side_file_reserve(path, (void **)&out->rows, &out->cap, sizeof(*out->rows));
	return side_file_read(path, &side_gpu_format, expected_side, &out->meta, &out->diag, out);
}

void side_gpu_destroy(struct side_gpu_file *f)
{
	free(f->rows);
	f->rows = NULL;
	f->count = f->cap = 0;
	side_meta_destroy(&f->meta);
}
