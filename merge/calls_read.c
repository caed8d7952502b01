/*
 * Reading a per-side calls file; see calls_read.h.
 */
#include "calls_read.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>


/* The reader's state: the caller's callback and the row being handed over. */
struct calls_reader {
	struct side_meta *meta;
	calls_read_fn row;
	void *ctx;
	struct calls_row current;
};

/* The bytes of a function name (a C identifier's: OpenXR's names are). */
static const bool name_char[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true, ['_'] = true,
};

/*
 * The length of @p s when it is a function name shorter than CALLS_FN_MAX,
 * else 0: one pass over it, as every row names its function.
 */
static size_t name_len(const char *s)
{
	size_t n = 0;

	while (name_char[(unsigned char)s[n]])
		n++;
	return s[n] == '\0' && n < CALLS_FN_MAX ? n : 0;
}

static int calls_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                     size_t msg_size)
{
	struct side_reader *sr = ctx;
	struct calls_reader *r = sr->file;
	struct calls_row *c = &r->current;

	c->fn_len = (present & 1) ? name_len(v[0].s) : 0;
	if (c->fn_len == 0) {
		snprintf(msg, msg_size, "column 1 (fn) is not a function name");
		return -1;
	}
	struct side_times t;
	if (side_file_row_times(r->meta, v[2].i, v[3].i, &t, msg, msg_size) != 0)
		return -1;
	c->t_entry_ns = t.entry_ns;
	c->t_exit_ns = t.exit_ns;
	c->fn = v[0].s;
	c->thread_id = v[1].u;
	c->frame_id = v[4].u;
	c->result = v[5].i;
	return r->row(r->ctx, c, msg, msg_size);
}

static const struct csvr_format calls_format = {
	.header = "fn,thread_id,t_entry,t_exit,frame_id,result",
	.ncols = 6,
	.kinds = {CSVR_TEXT, CSVR_U64, CSVR_I64, CSVR_I64, CSVR_U64, CSVR_I64},
	.names = {"fn", "thread_id", "t_entry", "t_exit", "frame_id", "result"},
	.comment = side_file_comment,
	.row = calls_row,
	/* A row's way to the sandwich (the name checked, interned and queued)
	 * costs more than its parsing: from 1 MiB on, parsing beside it pays
	 * (3 calls a frame, 10^4 frames, 1.6 MB a file: 10.4 ms against 11.0;
	 * 2*10^4: 16.2 against 19.1). Frames files, whose rows cost less, lose
	 * at 2 MB (bench/RESULTS.md, ninth session). */
	.ahead_min_bytes = (size_t)1 << 20,
};

int calls_read(const char *path, const char *expected_side, struct side_meta *meta,
               struct csvr_diag *diag, calls_read_fn row, void *ctx)
{
	struct calls_reader r = {.meta = meta, .row = row, .ctx = ctx};

	memset(meta, 0, sizeof(*meta));
	memset(diag, 0, sizeof(*diag));
	return side_file_read(path, &calls_format, expected_side, meta, diag, &r);
}
