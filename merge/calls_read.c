/*
 * Reading a per-side calls file; see calls_read.h.
 */
#include "calls_read.h"

#include "calls_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>


/* The reader's state: the caller's callback and the row being handed over. */
struct calls_reader {
	struct side_meta *meta;
	struct calls_names *names; /* NULL: the names are not interned */
	calls_read_fn row;
	void *ctx;
	struct calls_row current;
	char fn[CALLS_FN_MAX]; /* a read-ahead row's name, without a table */
};

/* The bytes of a function name (a C identifier's: OpenXR's are). */
static const bool name_char[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true, ['_'] = true,
};

/*
 * The length of the function name at @p s, which ends at its first byte
 * that is not a name's, when that is a NUL or the cell's end (@p len
 * bytes) and the name is shorter than CALLS_FN_MAX; else 0. As the
 * engine's copy of a cell ends at a NUL in it, a name followed by one is
 * the name, whichever way the row came (csvr_format's row or row_in_line).
 */
static size_t name_len(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && name_char[(unsigned char)s[n]])
		n++;
	return (n == len || s[n] == '\0') && n < CALLS_FN_MAX ? n : 0;
}

/*
 * The row's function, named by the @p len bytes at @p s (the fn cell),
 * into r->current: found among the table's recent names (a calls file
 * cycles through a few: no byte of it need be checked then), or checked
 * and interned, or, without a table, checked and copied. Returns 0, or
 * -1 with the reason in @p msg.
 */
static int row_fn(struct calls_reader *r, const char *s, size_t len, char *msg, size_t msg_size)
{
	struct calls_row *c = &r->current;

	if (r->names && calls_names_recent(r->names, s, len, &c->fn_id)) {
		c->fn = calls_names_get(r->names, c->fn_id);
		c->fn_len = len;
		return 0;
	}
	c->fn_len = name_len(s, len);
	if (c->fn_len == 0) {
		snprintf(msg, msg_size, "column 1 (fn) is not a function name");
		return -1;
	}
	if (!r->names) {
		memcpy(r->fn, s, c->fn_len);
		r->fn[c->fn_len] = '\0';
		c->fn = r->fn;
		return 0;
	}
	if (calls_names_intern(r->names, s, c->fn_len, &c->fn_id, msg, msg_size) != 0)
		return -1;
	c->fn = calls_names_get(r->names, c->fn_id);
	return 0;
}

/* The rest of row @p v, its function taken (row_fn()), to the caller. */
static int hand_over(struct calls_reader *r, const union csvr_value *v, char *msg,
                     size_t msg_size)
{
	struct calls_row *c = &r->current;
	struct side_times t;

	if (side_file_row_times(r->meta, v[2].i, v[3].i, &t, msg, msg_size) != 0)
		return -1;
	c->t_entry_ns = t.entry_ns;
	c->t_exit_ns = t.exit_ns;
	c->thread_id = v[1].u;
	c->frame_id = v[4].u;
	c->result = v[5].i;
	return r->row(r->ctx, c, msg, msg_size);
}

static int calls_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                     size_t msg_size)
{
	struct side_reader *sr = ctx;
	const char *s = (present & 1) ? v[0].s : "";

	if (row_fn(sr->file, s, strlen(s), msg, msg_size) != 0)
		return -1;
	return hand_over(sr->file, v, msg, msg_size);
}

/* calls_row() for a row read ahead: its fn cell read where it is, in its line. */
static int calls_row_in_line(void *ctx, const union csvr_value *v, uint32_t present,
                             const char *line, char *msg, size_t msg_size)
{
	struct side_reader *sr = ctx;
	size_t len = 0;
	const char *s = (present & 1) ? csvr_text_at(v[0], line, &len) : "";

	if (row_fn(sr->file, s, len, msg, msg_size) != 0)
		return -1;
	return hand_over(sr->file, v, msg, msg_size);
}

static const struct csvr_format calls_format = {
	.header = "fn,thread_id,t_entry,t_exit,frame_id,result",
	.ncols = 6,
	.kinds = {CSVR_TEXT, CSVR_U64, CSVR_I64, CSVR_I64, CSVR_U64, CSVR_I64},
	.names = {"fn", "thread_id", "t_entry", "t_exit", "frame_id", "result"},
	.comment = side_file_comment,
	.row = calls_row,
	.row_in_line = calls_row_in_line,
	/* A row's way to the sandwich (the name checked, interned and queued)
	 * costs more than its parsing: from 1 MiB on, parsing beside it pays
	 * (3 calls a frame, 10^4 frames, 1.6 MB a file: 10.4 ms against 11.0;
	 * 2*10^4: 16.2 against 19.1). Frames files, whose rows cost less, lose
	 * at 2 MB (bench/RESULTS.md, ninth session). */
	.ahead_min_bytes = (size_t)1 << 20,
};

int calls_read(const char *path, const char *expected_side, struct side_meta *meta,
               struct csvr_diag *diag, struct calls_names *names, calls_read_fn row, void *ctx)
{
	struct calls_reader r = {.meta = meta, .names = names, .row = row, .ctx = ctx};

	memset(meta, 0, sizeof(*meta));
	memset(diag, 0, sizeof(*diag));
	return side_file_read(path, &calls_format, expected_side, meta, diag, &r);
}
