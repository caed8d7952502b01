/*
 * Reading a per-side CPU file; see side_cpu.h.
 */
#include "side_cpu.h"

#include "mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct side_reader *c = ctx;
	struct side_cpu_file *f = c->file;
	struct side_times t;
	(void)present;

	/* A row whose t_exit is before its t_entry is corrupt, as in a calls
	 * file (negative_target_frames are pre's and post's brackets). */
	if (side_file_row_times(&f->meta, v[2].i, v[3].i, &t, msg, msg_size) != 0)
		return -1;
	if (side_file_grow((void **)&f->rows, &f->cap, f->count, sizeof(*f->rows)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	struct side_cpu_row *r = &f->rows[f->count++];
	r->display_time = v[0].i;
	r->thread_id = v[1].u;
	r->t_entry_ns = t.entry_ns;
	r->dur_ns = t.exit_ns - t.entry_ns;
	return 0;
}

const struct csvr_format side_cpu_format = {
	.header = "display_time,thread_id,t_entry,t_exit",
	.ncols = 4,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_I64, CSVR_I64},
	.names = {"display_time", "thread_id", "t_entry", "t_exit"},
	.comment = side_file_comment,
	.row = cpu_row,
};

int side_cpu_read(const char *path, const char *expected_side, struct side_cpu_file *out)
{
	memset(out, 0, sizeof(*out));
	side_file_reserve(path, (void **)&out->rows, &out->cap, sizeof(*out->rows));
	return side_file_read(path, &side_cpu_format, expected_side, &out->meta, &out->diag, out);
}

int side_cpu_stream_open(const char *path, const char *expected_side, struct side_cpu_file *out,
                       struct side_stream *stream)
{
	memset(out, 0, sizeof(*out));
	side_file_reserve_chunk(path, (void **)&out->rows, &out->cap, sizeof(*out->rows));
	return side_file_stream_open(stream, path, &side_cpu_format, expected_side, &out->meta, &out->diag,
	                             out);
}

void side_cpu_destroy(struct side_cpu_file *f)
{
	mem_free(f->rows);
	f->rows = NULL;
	f->count = f->cap = 0;
	side_meta_destroy(&f->meta);
}
