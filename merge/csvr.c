/*
 * The CSV engine: libcsv plus the fast path for plain rows; see csvr.h.
 * Every number field goes through u_parse's span parsers.
 */
#include "csvr.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csvr_ahead.h"
#include "quote.h"
#include "u_parse.h"
#include "utf8.h"

#define CSVR_CHUNK (1u << 20) /* the buffer: the header's lines must fit in it */
#define CSVR_BAD_MAX 200

size_t csvr_ahead_min_bytes = (size_t)4 << 20;
size_t csvr_ahead_seg_bytes = (size_t)128 << 10;
size_t csvr_ahead_own_bytes = (size_t)96 << 10;
bool csvr_ahead_off;

/* State of one csvr_read() call; lives on the caller's stack. */
struct engine {
	const struct csvr_format *fmt;
	int ncols; /* the columns of this file's header (see csvr_format.min_cols) */
	enum csvr_kind kinds[CSVR_MAX_COLS]; /* theirs: the format's, or header_line's */
	const char *names[CSVR_MAX_COLS];
	void *ctx;
	const char *path;
	struct csvr_diag *diag;
	uint64_t *truncated;

	uint64_t lines_done; /* newlines seen so far */
	bool stop;           /* an error was reported; ignore the rest */
	bool fast;           /* plain rows may skip libcsv (see csvr_read_ex) */
	bool clean;          /* libcsv is between records: the fast path may run */

	/* The record being assembled. */
	int field;
	bool is_comment;
	size_t comment_len;
	bool comment_cut; /* the comment was longer than its buffer */
	bool cut_warned;  /* the file's first such comment had its warning */
	char comment[CSVR_COMMENT_MAX];
	union csvr_value values[CSVR_MAX_COLS];
	char text[CSVR_MAX_COLS][CSVR_TEXT_MAX]; /* the CSVR_TEXT values */
	uint32_t present;
	bool bad;
	int bad_col;    /* the first bad field, when bad */
	bool bad_cut;   /* ... and it is made of number characters only */
	bool multiline; /* a quoted field ran over a line end */
	char bad_msg[CSVR_BAD_MAX];

	/* A short record, which is an error unless it turns out to be last. */
	bool pending;
	uint64_t pending_line;
	char pending_msg[CSVR_BAD_MAX];
};

static void diag_error(struct csvr_diag *d, const char *path, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void diag_error(struct csvr_diag *d, const char *path, uint64_t line, const char *fmt, ...)
{
	char what[CSVR_MSG_MAX / 2], q[QUOTE_PATH_MAX];
	va_list ap;

	if (d->failed)
		return; /* keep the first error: it is the cause */
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	quote_text(what);
	if (line)
		snprintf(d->error, sizeof(d->error), "%s:%llu: error: %s", quote_path(q, path),
		         (unsigned long long)line, what);
	else
		snprintf(d->error, sizeof(d->error), "%s: error: %s", quote_path(q, path), what);
	d->failed = true;
}

static void diag_warning(struct csvr_diag *d, const char *path, uint64_t line, const char *what)
{
	/* what is at most half the message; the path gets the rest */
	char text[CSVR_MSG_MAX / 2], q[QUOTE_PATH_MAX];

	if (d->warning_count >= CSVR_MAX_WARNINGS)
		return;
	snprintf(text, sizeof(text), "%s", what);
	quote_text(text);
	snprintf(d->warnings[d->warning_count++], CSVR_MSG_MAX, "%s:%llu: warning: %s",
	         quote_path(q, path), (unsigned long long)line, text);
}

void csvr_diag_add_warning(struct csvr_diag *d, const char *text)
{
	if (d->warning_count < CSVR_MAX_WARNINGS)
		snprintf(d->warnings[d->warning_count++], CSVR_MSG_MAX, "%s", text);
}

/* Quotes at most 40 bytes of a bad field for a message. */
void csvr_quote_field(char *dst, size_t size, const char *s, size_t len)
{
	size_t n = len < 40 ? len : 40;
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		dst[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (n < len && o + 4 < size) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

static const char *kind_name(enum csvr_kind k)
{
	switch (k) {
	case CSVR_I64: return "an integer";
	case CSVR_U64:
	case CSVR_U64_OPT: return "a non-negative integer";
	case CSVR_F64:
	case CSVR_F64_OPT: return "a number";
	case CSVR_TEXT: return "text of at most 255 bytes";
	}
	return "a value";
}

/* True when a blank field of @p kind is allowed (and not present). */
static bool is_optional(enum csvr_kind kind)
{
	return kind == CSVR_F64_OPT || kind == CSVR_U64_OPT || kind == CSVR_TEXT;
}

/* True when @p s[0..len) could be the start of a number cut short. */
static bool number_chars(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!memchr("0123456789+-.eE", s[i], 15))
			return false;
	return true;
}

/*
 * Parses field @p c into e->values[c]: numbers with the project's number
 * parser, text copied into the engine (too long: U_PARSE_OUT_OF_RANGE).
 */
static enum u_parse_result parse_value(struct engine *e, int c, const char *s, size_t len)
{
	union csvr_value *v = &e->values[c];

	switch (e->kinds[c]) {
	case CSVR_I64: return u_parse_span_i64(s, len, &v->i);
	case CSVR_U64:
	case CSVR_U64_OPT: return u_parse_span_u64(s, len, &v->u);
	case CSVR_TEXT:
		if (len >= CSVR_TEXT_MAX)
			return U_PARSE_OUT_OF_RANGE;
		memcpy(e->text[c], s, len);
		e->text[c][len] = '\0';
		v->s = e->text[c];
		return U_PARSE_OK;
	default: return u_parse_span_f64(s, len, &v->f);
	}
}

static void parse_field(struct engine *e, const char *s, size_t len)
{
	int c = e->field;
	enum csvr_kind kind = e->kinds[c];

	if (len == 0 && is_optional(kind))
		return; /* blank cell: not present */

	enum u_parse_result r = parse_value(e, c, s, len);
	if (r == U_PARSE_OK) {
		e->present |= 1u << c;
		return;
	}
	if (!e->bad) {
		char q[64];
		csvr_quote_field(q, sizeof(q), s, len);
		if (r == U_PARSE_NEGATIVE || r == U_PARSE_OUT_OF_RANGE)
			snprintf(e->bad_msg, sizeof(e->bad_msg), "column %d (%s) %s (expected %s): \"%s\"",
			         c + 1, e->names[c], u_parse_result_str(r), kind_name(kind), q);
		else
			snprintf(e->bad_msg, sizeof(e->bad_msg), "column %d (%s) is not %s: \"%s\"",
			         c + 1, e->names[c], kind_name(kind), q);
		e->bad = true;
		e->bad_col = c;
		e->bad_cut = number_chars(s, len);
	}
}

/* Appends a comment's field (its text up to the first comma, or the next). */
static void append_comment(struct engine *e, const char *s, size_t len)
{
	size_t room = sizeof(e->comment) - 1 - e->comment_len;

	if (e->comment_cut)
		return;
	if (e->field > 0) {
		if (room == 0) {
			e->comment_cut = true;
			return;
		}
		e->comment[e->comment_len++] = ',';
		room--;
	}
	if (len > room) {
		len = room;
		e->comment_cut = true;
	}
	memcpy(e->comment + e->comment_len, s, len);
	e->comment_len += len;
	if (e->comment_cut)
		e->comment_len = utf8_whole(e->comment, e->comment_len);
	e->comment[e->comment_len] = '\0';
}

static void on_field(void *s, size_t len, void *data)
{
	struct engine *e = data;
	const char *text = s ? s : "";

	if (e->stop)
		return;
	if (memchr(text, '\n', len))
		e->multiline = true;
	if (e->field == 0 && len > 0 && text[0] == '#')
		e->is_comment = true;
	if (e->is_comment)
		append_comment(e, text, len);
	else if (e->field < e->ncols)
		parse_field(e, text, len);
	e->field++;
}

/*
 * Text of a comment line after '#' and blanks, without a trailing CR, and
 * without the empty fields a spreadsheet pads a saved line with to its
 * sheet's width ("# frame_count=200,,,,"): no value of ours ends in a
 * comma (a target layer's name that did is written with '?' for it).
 */
static char *comment_body(char *text)
{
	size_t n;

	while (*text == '#' || *text == ' ' || *text == '\t')
		text++;
	n = strlen(text);
	while (n > 0 && (text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == ','))
		text[--n] = '\0';
	return text;
}

/*
 * Whether header-region line @p line (@p len bytes, no line end) is a
 * comment: it begins with '#', or with "\"#" as a spreadsheet saves it
 * with every text cell in quotes. Its text goes to @p out (@p size bytes;
 * *@p cut set when it had to be cut to fit, before the character the cut
 * would split): as it is, or its fields unquoted ('""' a quote) and
 * joined by commas, as the rows' comments are read.
 */
static bool comment_line(const char *line, size_t len, char *out, size_t size, bool *cut)
{
	size_t n = 0;
	bool quoted = false;

	*cut = false;
	if (len == 0 || (line[0] != '#' && (line[0] != '"' || len < 2 || line[1] != '#')))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = line[i];
		bool in_quotes = line[0] != '#' && c == '"';
		if (in_quotes && !(quoted && i + 1 < len && line[i + 1] == '"')) {
			quoted = !quoted;
			continue;
		}
		if (n + 1 == size) {
			*cut = true;
			n = utf8_whole(out, n);
			break;
		}
		/* A comma between fields is one in the text; a quote doubled inside quotes one quote. */
		i += in_quotes;
		out[n++] = c;
	}
	out[n] = '\0';
	return true;
}

/* Hands a comment to the format; the file's first one that was @p cut gets a warning. */
static void handle_comment(struct engine *e, char *text, bool cut, bool in_header, uint64_t line)
{
	char msg[CSVR_BAD_MAX] = "";

	if (cut && !e->cut_warned) {
		snprintf(msg, sizeof(msg), "'#' line longer than %d bytes: read up to there, less the "
		         "character it splits (later ones alike, without a warning)",
		         CSVR_COMMENT_MAX - 1);
		diag_warning(e->diag, e->path, line, msg);
		e->cut_warned = true;
		msg[0] = '\0';
	}

	if (e->fmt->comment(e->ctx, comment_body(text), in_header, msg, sizeof(msg)) != 0) {
		diag_error(e->diag, e->path, line, "%s", msg);
		e->stop = true;
	}
}

/*
 * What a writer killed in the middle of a row leaves: every field but the
 * last one it got is good (the last may be a number cut short).
 */
static bool looks_cut(const struct engine *e)
{
	return !e->bad || (e->bad_col == e->field - 1 && e->bad_cut);
}

static void handle_data(struct engine *e, int terminator, uint64_t line)
{
	int ncols = e->ncols;

	if (e->multiline) {
		/* Our files hold no quoted text: a '"' here is damage, and libcsv
		 * would read everything up to the next '"' as one field. */
		diag_error(e->diag, e->path, line, "a field opened by '\"' runs over the end of its "
		           "line (stray quote?)");
		e->stop = true;
		return;
	}
	if (terminator == -1 && e->field <= ncols && looks_cut(e)) {
		/* No newline at the end of the file: the writer was cut off
		 * mid-row, so even a row that parses may be missing digits. */
		diag_warning(e->diag, e->path, line,
		             "last row has no newline (writer killed?); skipped");
		if (e->truncated)
			(*e->truncated)++;
		return;
	}
	if (e->field > ncols) {
		diag_error(e->diag, e->path, line, "expected %d fields, got %d", ncols, e->field);
		e->stop = true;
		return;
	}
	if (e->field < ncols && looks_cut(e)) {
		/* An error unless it turns out to be the last line. */
		e->pending = true;
		e->pending_line = line;
		snprintf(e->pending_msg, sizeof(e->pending_msg), "expected %d fields, got %d", ncols,
		         e->field);
		return;
	}
	if (e->bad) {
		diag_error(e->diag, e->path, line, "%s", e->bad_msg);
		e->stop = true;
		return;
	}

	char msg[CSVR_BAD_MAX];
	msg[0] = '\0'; /* not the whole array: this runs for every row */
	if (e->fmt->row(e->ctx, e->values, e->present, msg, sizeof(msg)) != 0) {
		diag_error(e->diag, e->path, line, "%s", msg);
		e->stop = true;
	}
}

static void reset_record(struct engine *e)
{
	e->field = 0;
	e->is_comment = false;
	e->comment_len = 0;
	e->comment_cut = false;
	e->present = 0;
	e->bad = false;
	e->multiline = false;
}

/*
 * End of a record, or (with CSV_REPALL_NL) a bare newline. Every '\n' gets
 * exactly one call with c == '\n', which is how lines are counted.
 */
static void on_record(int c, void *data)
{
	struct engine *e = data;
	uint64_t line = e->lines_done + 1;
	bool empty = e->field == 0;

	if (c == '\n')
		e->lines_done++;
	if (e->stop || empty) {
		reset_record(e);
		return;
	}
	if (e->pending) {
		diag_error(e->diag, e->path, e->pending_line, "%s", e->pending_msg);
		e->stop = true;
		return;
	}
	if (e->is_comment && !e->multiline)
		handle_comment(e, e->comment, e->comment_cut, false, line);
	else
		handle_data(e, c, line);
	reset_record(e);
}

/*
 * The number of columns of @p line as a header of @p fmt: all of them for
 * the full header; for a file of an older version, fewer when the line is
 * the full header cut at a column boundary after min_cols columns. 0 when
 * it is not a header of @p fmt.
 */
static int header_columns(const struct csvr_format *fmt, const char *line, size_t len)
{
	size_t full = strlen(fmt->header);

	if (len > full || memcmp(line, fmt->header, len) != 0)
		return 0;
	if (len == full)
		return fmt->ncols;
	if (fmt->header[len] != ',')
		return 0;
	int cols = 1;
	for (size_t i = 0; i < len; i++)
		cols += line[i] == ',';
	return fmt->min_cols && cols >= fmt->min_cols ? cols : 0;
}

/*
 * Where header @p line (@p len bytes) first departs from @p header, said
 * in @p out: the column by number, what it holds and what was expected
 * (a message quoting both lines whole would cut a long header before it).
 */
static void header_difference(const char *header, const char *line, size_t len, char *out,
                              size_t size)
{
	const char *h = header, *l = line, *l_end = line + len;
	char got[48], want[48];

	for (int col = 1;; col++) {
		size_t h_len = strcspn(h, ","), l_len = 0;
		while (l + l_len < l_end && l[l_len] != ',')
			l_len++;
		bool h_more = h[h_len] == ',', l_more = l + l_len < l_end;
		if (h_len != l_len || memcmp(h, l, h_len) != 0) {
			csvr_quote_field(got, sizeof(got), l, l_len);
			csvr_quote_field(want, sizeof(want), h, h_len);
			snprintf(out, size, "column %d is \"%s\", expected \"%s\"", col, got, want);
			return;
		}
		if (h_more != l_more) {
			snprintf(out, size, h_more ? "only %d columns" : "more than %d columns", col);
			return;
		}
		if (!h_more) {
			snprintf(out, size, "the header as expected");
			return;
		}
		h += h_len + 1;
		l += l_len + 1;
	}
}

void csvr_wrong_header(const char *expected, const char *line, size_t len, char *msg,
                       size_t msg_size)
{
	char why[160];

	header_difference(expected, line, len, why, sizeof(why));
	snprintf(msg, msg_size, "wrong column header: %s (expected \"%s\")", why, expected);
}

/*
 * Header @p line (@p len bytes) with each name that is wholly in double
 * quotes ("t_entry", as a spreadsheet saving every text cell quoted writes
 * it) unquoted into @p out, its length in *@p out_len; a name holding a
 * quote itself, or a line longer than @p size, is left as it is (and then
 * named in the wrong header's message). Returns the line to match.
 */
static const char *unquote_header(const char *line, size_t len, char *out, size_t size,
                                  size_t *out_len)
{
	const char *end = line + len;
	size_t n = 0;

	if (!memchr(line, '"', len) || len >= size)
		return line;
	for (const char *f = line; f <= end;) {
		const char *comma = memchr(f, ',', (size_t)(end - f));
		const char *f_end = comma ? comma : end;
		size_t f_len = (size_t)(f_end - f);
		if (f_len >= 2 && f[0] == '"' && f_end[-1] == '"' &&
		    !memchr(f + 1, '"', f_len - 2)) {
			f++;
			f_len -= 2;
		}
		memcpy(out + n, f, f_len);
		n += f_len;
		if (!comma)
			break;
		out[n++] = ',';
		f = comma + 1;
	}
	*out_len = n;
	return out;
}

/*
 * The columns of the header @p line (@p len bytes) into e->ncols, e->kinds
 * and e->names; false after reporting a wrong header.
 */
static bool take_header(struct engine *e, const char *line, size_t len, uint64_t lineno)
{
	const struct csvr_format *fmt = e->fmt;
	char msg[CSVR_MSG_MAX / 2] = "";
	char plain[CSVR_MSG_MAX];

	line = unquote_header(line, len, plain, sizeof(plain), &len);

	if (fmt->header_line) {
		e->ncols = fmt->header_line(e->ctx, line, len, e->kinds, e->names, msg, sizeof(msg));
		if (e->ncols < 1 || e->ncols > CSVR_MAX_COLS) {
			diag_error(e->diag, e->path, lineno, "%s", msg[0] ? msg : "bad column header");
			return false;
		}
		return true;
	}
	e->ncols = header_columns(fmt, line, len);
	if (e->ncols == 0) {
		csvr_wrong_header(fmt->header, line, len, msg, sizeof(msg));
		diag_error(e->diag, e->path, lineno, "%s", msg);
		return false;
	}
	memcpy(e->kinds, fmt->kinds, sizeof(e->kinds));
	memcpy(e->names, fmt->names, sizeof(e->names));
	return true;
}

/* The header a message says was expected: the format's, or any line of names. */
static const char *expected_header(const struct csvr_format *fmt)
{
	return fmt->header ? fmt->header : "column names";
}

/*
 * Handles the lines before the column header in @p buf[0..*len): comments
 * and the header itself. Returns 1 when the header was found (the bytes
 * after it are moved to the front, *len updated), 0 when more input is
 * needed, -1 on error.
 */
static int scan_header(struct engine *e, char *buf, size_t *len, bool eof)
{
	size_t pos = 0;

	for (;;) {
		char *nl = memchr(buf + pos, '\n', *len - pos);
		if (!nl && !eof) {
			memmove(buf, buf + pos, *len - pos);
			*len -= pos;
			return 0;
		}
		size_t end = nl ? (size_t)(nl - buf) : *len;
		if (!nl && end == pos) {
			diag_error(e->diag, e->path, e->lines_done ? e->lines_done : 1,
			           "no column header (expected \"%s\")", expected_header(e->fmt));
			return -1;
		}
		char *line = buf + pos;
		size_t line_len = end - pos;
		if (line_len > 0 && line[line_len - 1] == '\r')
			line_len--;
		uint64_t lineno = ++e->lines_done;
		pos = nl ? end + 1 : end;

		if (line_len == 0)
			continue;
		/* Whatever the reader: one message, not a header of one column or a
		 * summary line taken for the header. */
		if (lineno == 1 && line_len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			diag_error(e->diag, e->path, lineno, "the file begins with a UTF-8 byte-order "
			           "mark (saved by a spreadsheet?): save it as CSV without one");
			return -1;
		}
		char text[CSVR_COMMENT_MAX];
		bool cut;
		if (comment_line(line, line_len, text, sizeof(text), &cut)) {
			handle_comment(e, text, cut, true, lineno);
			if (e->stop)
				return -1;
			continue;
		}
		if (!take_header(e, line, line_len, lineno))
			return -1;
		if (e->fmt->columns)
			e->fmt->columns(e->ctx, e->ncols);
		memmove(buf, buf + pos, *len - pos);
		*len -= pos;
		return 1;
	}
}

static int read_some(int fd, char *buf, size_t size, size_t *got)
{
	ssize_t n;

	do {
		n = read(fd, buf, size);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	*got = (size_t)n;
	return 0;
}

/*
 * Grows *@p buf (room for *@p cap bytes) so that a chunk fits after its
 * first @p len bytes, up to CSVR_CHUNK. Returns 0, or -1 when out of memory.
 */
static int make_room(char **buf, size_t *cap, size_t len)
{
	if (len + CSVR_CHUNK_BYTES <= *cap || *cap == CSVR_CHUNK)
		return 0;
	size_t want = *cap * 2 > len + CSVR_CHUNK_BYTES ? *cap * 2 : len + CSVR_CHUNK_BYTES;
	if (want > CSVR_CHUNK)
		want = CSVR_CHUNK;
	char *p = realloc(*buf, want);
	if (!p)
		return -1;
	*buf = p;
	*cap = want;
	return 0;
}

/*
 * Reads until the column header is consumed; leaves the rest in *@p buf,
 * which starts with room for a chunk and grows to CSVR_CHUNK for long
 * metadata (a short file's reader then touches only what it needs).
 */
static int read_header(struct engine *e, int fd, char **buf, size_t *cap, size_t *len, bool *eof)
{
	for (;;) {
		int r = scan_header(e, *buf, len, *eof);
		if (r != 0)
			return r;
		if (*len == CSVR_CHUNK) {
			diag_error(e->diag, e->path, e->lines_done + 1, "line too long");
			return -1;
		}
		if (make_room(buf, cap, *len) != 0) {
			diag_error(e->diag, e->path, 0, "out of memory");
			return -1;
		}
		size_t got;
		/* A chunk at a time: what follows the header is the first batch. */
		size_t room = *cap - *len;
		if (read_some(fd, *buf + *len, room < CSVR_CHUNK_BYTES ? room : CSVR_CHUNK_BYTES, &got) != 0) {
			diag_error(e->diag, e->path, 0, "cannot read: %s", strerror(errno));
			return -1;
		}
		if (got == 0) {
			if (*len == 0 && e->lines_done == 0) {
				diag_error(e->diag, e->path, 0, "empty file (expected \"%s\")",
				           expected_header(e->fmt));
				return -1;
			}
			*eof = true;
		}
		*len += got;
	}
}

static int feed(struct engine *e, struct csv_parser *p, const char *buf, size_t len)
{
	if (csv_parse(p, buf, len, on_field, on_record, e) != len) {
		diag_error(e->diag, e->path, e->lines_done + 1, "%s", csv_strerror(csv_error(p)));
		return -1;
	}
	return e->stop ? -1 : 0;
}

/* ---- the fast path ---- */

/*
 * Where a plain text field ends: libcsv hands the bytes before these over
 * as they are; a quote, CR, '#' (a comment line), or a blank (libcsv trims
 * blanks around unquoted fields) is left to libcsv.
 */
static const bool text_stop[256] = {
	[','] = true, ['\n'] = true, ['"'] = true, ['\r'] = true, ['#'] = true, [' '] = true,
	['\t'] = true,
};

/* End of the plain field at @p s: the first byte that cannot be in a number of @p kind. */
static const char *plain_field_end(const char *s, enum csvr_kind kind)
{
	switch (kind) {
	case CSVR_I64:
		s += *s == '-';
		/* fall through */
	case CSVR_U64:
	case CSVR_U64_OPT:
		while ((unsigned)(*s - '0') < 10)
			s++;
		return s;
	case CSVR_TEXT:
		while (!text_stop[(unsigned char)*s])
			s++;
		return s;
	default:
		/* u_parse_span_f64() rejects anything in here that is not a number. */
		while (*s != ',' && *s != '\n')
			s++;
		return s;
	}
}

/*
 * How many of the 8 bytes at @p s are leading ASCII digits. Per byte: the
 * high nibble must be 3, and adding 6 must leave it 3 (only '0'..'9' do);
 * a carry out of a byte >= 0xFA reaches later bytes only, past the first
 * non-digit, whose position is all this tells.
 */
static unsigned leading_digits8(uint64_t w)
{
	uint64_t high = (w & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
	uint64_t low = ((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
	uint64_t other = high | low;

	return other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
}

/*
 * The value of the @p k (1..8) leading digits of the 8 bytes @p w: shifted
 * to the top with zeros before them, then combined pairwise (the bytes
 * after them borrow, if at all, from later bytes only, shifted out).
 */
static uint64_t digits8_value(uint64_t w, unsigned k)
{
	w = (w - 0x3030303030303030ull) << (8 * (8 - k));
	w = w * 10 + (w >> 8);
	return (((w & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
	        (((w >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
}

/*
 * An integer field at *@p pp: [-]digits (the sign for CSVR_I64 only), at
 * most 19 of them, then @p sep, 8 bytes read at a time; a blank optional
 * cell too. Scanning and converting in one pass is most of what reading a
 * per-side file costs. Returns false for anything else, and near the
 * buffer's @p end (8-byte reads), without having reported anything: the
 * general path then decides.
 */
static bool fast_integer(struct engine *e, int c, const char **pp, const char *end, char sep)
{
	static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
	                                  100000000};
	enum csvr_kind kind = e->kinds[c];
	const char *s = *pp;
	bool neg = kind == CSVR_I64 && *s == '-';
	uint64_t v = 0;
	unsigned n = 0, k;

	s += neg;
	do {
		uint64_t w;
		if (end - s < 8)
			return false;
		memcpy(&w, s, sizeof(w));
		k = leading_digits8(w);
		if (k)
			v = v * pow10[k] + digits8_value(w, k);
		n += k;
		s += k;
		if (n > 19)
			return false;
	} while (k == 8);
	if (*s != sep)
		return false;
	if (n == 0) {
		if (neg || !is_optional(kind))
			return false;
		*pp = s + 1;
		return true; /* blank cell: not present */
	}
	if (kind == CSVR_I64) {
		if (v > (uint64_t)INT64_MAX + neg)
			return false;
		e->values[c].i = neg ? (int64_t)(0 - v) : (int64_t)v;
	} else {
		e->values[c].u = v;
	}
	e->present |= 1u << c;
	*pp = s + 1;
	return true;
}

/*
 * Parses column @p c at *@p pp without libcsv, when the field is plain:
 * only the characters of a number, then @p sep. Such a field is exactly
 * what libcsv would hand to parse_field() (no quote, blank or line end in
 * it). Returns false for anything else, without having reported anything.
 */
static bool fast_field(struct engine *e, int c, const char **pp, const char *buf_end, char sep)
{
	enum csvr_kind kind = e->kinds[c];
	if ((kind == CSVR_I64 || kind == CSVR_U64 || kind == CSVR_U64_OPT) &&
	    fast_integer(e, c, pp, buf_end, sep))
		return true;

	const char *s = *pp;
	const char *end = plain_field_end(s, kind);
	size_t len = (size_t)(end - s);

	if (*end != sep)
		return false;
	*pp = end + 1;
	if (len == 0 && is_optional(kind))
		return true; /* blank cell: not present */
	bool ok = parse_value(e, c, s, len) == U_PARSE_OK;
	e->present |= (uint32_t)ok << c;
	return ok;
}

/*
 * Parses the row at *@p pp (which ends in a '\n' somewhere) without
 * libcsv if every field is plain and there are exactly ncols of them;
 * delivers it and moves *@p pp past its newline. Returns false, with
 * nothing delivered or reported, for any other line.
 */
static bool fast_row(struct engine *e, const char **pp, const char *buf_end)
{
	const char *p = *pp;
	int n = e->ncols;

	for (int c = 0; c < n; c++) {
		if (!fast_field(e, c, &p, buf_end, c == n - 1 ? '\n' : ',')) {
			reset_record(e);
			return false;
		}
	}
	e->field = n;
	handle_data(e, '\n', ++e->lines_done);
	reset_record(e);
	*pp = p;
	return true;
}

/*
 * Gives libcsv one line (ending in its only '\n'). libcsv is between
 * records afterwards exactly when that newline ended a record, not a
 * quoted field.
 */
static int feed_line(struct engine *e, struct csv_parser *p, const char *line, size_t len)
{
	uint64_t before = e->lines_done;
	int ret = feed(e, p, line, len);

	e->clean = e->lines_done == before + 1;
	return ret;
}

/*
 * Parses @p buf: the complete lines through the fast path where it
 * applies (libcsv between records, no short row pending) and through
 * libcsv otherwise; the bytes after the last newline through libcsv.
 * libcsv remains the parser of record: the fast path only takes lines that
 * libcsv would split into the same fields, and leaves every line that is
 * not a good row (comments, errors, quotes, blanks) to it.
 */
static int parse_buffer(struct engine *e, struct csv_parser *p, const char *buf, size_t len)
{
	const char *end = buf + len;
	const char *last_nl = e->fast ? memrchr(buf, '\n', len) : NULL;
	const char *s = buf;

	while (last_nl && s <= last_nl) {
		if (e->clean && !e->pending && fast_row(e, &s, end)) {
			if (e->stop)
				return -1;
			continue;
		}
		const char *nl = memchr(s, '\n', (size_t)(last_nl + 1 - s));
		if (feed_line(e, p, s, (size_t)(nl + 1 - s)) != 0)
			return -1;
		s = nl + 1;
	}
	if (s == end)
		return 0;
	e->clean = false;
	return feed(e, p, s, (size_t)(end - s));
}

/* ---- reading ahead: the fast path's parsing on a thread of its own ---- */

/*
 * What a reading-ahead worker made of one line: its length (through its
 * '\n') and, when the fast path took it, its values. A text cell is kept
 * as its place in the line (offset in the low 32 bits, length above), to
 * be copied on the reader's thread.
 */
struct ahead_row {
	uint32_t len;
	uint32_t present;
	bool ok;
	union csvr_value v[];
};

static size_t ahead_row_size(int ncols)
{
	return sizeof(struct ahead_row) + (size_t)ncols * sizeof(union csvr_value);
}

static struct ahead_row *ahead_row_at(const struct csvr_seg *seg, size_t row_size, size_t i)
{
	return (struct ahead_row *)((char *)seg->rows + i * row_size);
}

/*
 * fast_field() for text column @p c on a worker: the same checks, the text
 * left where it is (the reader copies it from the line once it takes the
 * row, ahead_deliver()).
 */
static bool ahead_text(struct engine *e, int c, const char **pp, char sep)
{
	const char *s = *pp;
	const char *end = plain_field_end(s, CSVR_TEXT);
	size_t len = (size_t)(end - s);

	if (*end != sep || len >= CSVR_TEXT_MAX)
		return false;
	*pp = end + 1;
	e->present |= (uint32_t)(len > 0) << c; /* blank: not present */
	return true;
}

/*
 * The fast path over the line at @p line (which ends in a '\n' before
 * @p buf_end) with a worker's own engine @p e: as fast_row(), the row
 * kept in @p row instead of delivered. Returns false for any line
 * fast_row() would not take, without having reported anything.
 */
static bool ahead_row(struct engine *e, const char *line, const char *buf_end,
                      struct ahead_row *row)
{
	const char *p = line;
	int n = e->ncols;

	for (int c = 0; c < n; c++) {
		const char *start = p;
		if (e->kinds[c] == CSVR_TEXT) {
			if (!ahead_text(e, c, &p, c == n - 1 ? '\n' : ','))
				goto not_plain;
			row->v[c].u = (uint64_t)(p - 1 - start) << 32 | (uint64_t)(start - line);
			continue;
		}
		if (!fast_field(e, c, &p, buf_end, c == n - 1 ? '\n' : ','))
			goto not_plain;
		row->v[c] = e->values[c];
	}
	row->present = e->present;
	row->len = (uint32_t)(p - line);
	reset_record(e);
	return true;
not_plain:
	reset_record(e);
	return false;
}

/*
 * csvr_ahead_parse_fn: each line of @p seg through ahead_row(). The rows
 * are counted here and stored once at the end: a store per row into the
 * segment's header costs more than the row's parsing when another thread
 * touches that line.
 */
static void ahead_parse(void *ctx, struct csvr_seg *seg)
{
	struct engine *e = ctx;
	size_t row_size = ahead_row_size(e->ncols);
	const char *p = seg->buf, *lines_end = seg->buf + seg->lines_end;
	const char *buf_end = seg->buf + seg->len;
	size_t i = 0;

	for (; p < lines_end; i++) {
		/* Lines longer than a row's length field are left to the reader. */
		if ((i >= seg->rows_cap && csvr_ahead_rows(seg, row_size, i + 1) != 0) ||
		    lines_end - p > UINT32_MAX)
			break;
		struct ahead_row *row = ahead_row_at(seg, row_size, i);
		row->ok = ahead_row(e, p, buf_end, row);
		if (!row->ok)
			row->len = (uint32_t)((const char *)memchr(p, '\n', (size_t)(lines_end - p)) + 1 - p);
		p += row->len;
	}
	seg->rows_used = i;
}

/* Delivers @p row, which a worker parsed from @p line: the end of fast_row(). */
static void ahead_deliver(struct engine *e, const struct ahead_row *row, const char *line)
{
	for (int c = 0; c < e->ncols; c++) {
		if (e->kinds[c] != CSVR_TEXT) {
			e->values[c] = row->v[c];
		} else if (row->present & (1u << c)) {
			size_t off = (uint32_t)row->v[c].u, len = (size_t)(row->v[c].u >> 32);
			memcpy(e->text[c], line + off, len);
			e->text[c][len] = '\0';
			e->values[c].s = e->text[c];
		}
	}
	e->present = row->present;
	e->field = e->ncols;
	handle_data(e, '\n', ++e->lines_done);
	reset_record(e);
}

/*
 * Delivers @p row, which a worker parsed from @p line, to the format's
 * row_in_line(): handle_data() for a row the fast path took, which is in
 * order by then (libcsv between records, nothing pending), the text left
 * in its line. Returns 0, or -1 after reporting the callback's error.
 */
static int deliver_in_line(struct engine *e, const struct ahead_row *row, const char *line)
{
	char msg[CSVR_BAD_MAX];

	e->lines_done++;
	msg[0] = '\0';
	if (e->fmt->row_in_line(e->ctx, row->v, row->present, line, msg, sizeof(msg)) == 0)
		return 0;
	diag_error(e->diag, e->path, e->lines_done, "%s", msg);
	e->stop = true;
	return -1;
}

/*
 * Takes segment @p seg as parse_buffer() takes a buffer: a line the thread
 * parsed is delivered as it is when the fast path would have taken it
 * here (libcsv between records, no short row pending), every other line
 * and the tail go through libcsv.
 */
static int take_segment(struct engine *e, struct csv_parser *p, const struct csvr_seg *seg)
{
	size_t row_size = ahead_row_size(e->ncols);
	const char *s = seg->buf, *lines_end = seg->buf + seg->lines_end;

	for (size_t i = 0; s < lines_end; i++) {
		const struct ahead_row *row = i < seg->rows_used ? ahead_row_at(seg, row_size, i) : NULL;
		size_t len = row ? row->len
		                 : (size_t)((const char *)memchr(s, '\n', (size_t)(lines_end - s)) + 1 - s);
		bool taken = row && row->ok && e->clean && !e->pending;
		if (taken && e->fmt->row_in_line) {
			if (deliver_in_line(e, row, s) != 0)
				return -1;
		} else if (taken) {
			ahead_deliver(e, row, s);
			if (e->stop)
				return -1;
		} else if (feed_line(e, p, s, len) != 0) {
			return -1;
		}
		s += len;
	}
	if (seg->error) {
		diag_error(e->diag, e->path, 0, "cannot read: %s", strerror(seg->error));
		return -1;
	}
	if (seg->tail_carried || seg->len == seg->lines_end)
		return 0;
	e->clean = false;
	return feed(e, p, lines_end, seg->len - seg->lines_end);
}

/* An open incremental read; see csvr.h. */
struct csvr_stream {
	struct engine e;
	struct csv_parser p;
	bool parser_ready;
	int fd;
	char *buf;
	size_t cap;  /* room in buf: CSVR_CHUNK_BYTES, more for long metadata */
	size_t len;  /* bytes in buf not yet parsed (after the header) */
	bool eof;
	bool done;   /* csvr_stream_step() returned 0 or -1 */
	int ret;
	/* Reading ahead (a large file, the fast path on): the threads and their engines. */
	bool ahead_on;
	struct csvr_ahead ahead;
	struct engine *ahead_engines; /* CSVR_AHEAD_WORKERS */
	struct csvr_diag ahead_diag;  /* theirs; the fast path reports nothing */
};

/* End of input: libcsv's last record, then a pending short row. */
static int finish_rows(struct csvr_stream *s)
{
	struct engine *e = &s->e;

	csv_fini(&s->p, on_field, on_record, e);
	if (e->stop)
		return -1;
	if (e->pending) {
		char what[CSVR_MSG_MAX / 2];
		snprintf(what, sizeof(what), "last row is cut short (%s, writer killed?); skipped",
		         e->pending_msg);
		diag_warning(e->diag, e->path, e->pending_line, what);
		if (e->truncated)
			(*e->truncated)++;
	}
	return 0;
}

int csvr_stream_step(struct csvr_stream *s)
{
	struct engine *e = &s->e;

	if (s->done)
		return s->ret;
	int ret = 0;
	if (s->len > 0) {
		/* The bytes read with the header: parse them first. */
		ret = parse_buffer(e, &s->p, s->buf, s->len);
		s->len = 0;
	} else if (s->ahead_on && !s->eof) {
		const struct csvr_seg *seg = csvr_ahead_next(&s->ahead);
		s->eof = seg->eof;
		ret = take_segment(e, &s->p, seg);
	} else if (!s->eof) {
		size_t got;
		if (read_some(s->fd, s->buf, CSVR_CHUNK_BYTES, &got) != 0) {
			diag_error(e->diag, e->path, 0, "cannot read: %s", strerror(errno));
			ret = -1;
		} else {
			s->eof = got == 0;
			ret = parse_buffer(e, &s->p, s->buf, got);
		}
	}
	if (ret == 0 && !s->eof)
		return 1;
	if (ret == 0)
		ret = finish_rows(s);
	s->done = true;
	s->ret = ret < 0 ? -1 : 0;
	return s->ret;
}

/* How many bytes after its header make @p fmt's file worth reading ahead. */
static size_t ahead_min_bytes(const struct csvr_format *fmt)
{
	if (csvr_ahead_off)
		return SIZE_MAX;
	if (fmt->ahead_min_bytes && fmt->ahead_min_bytes < csvr_ahead_min_bytes)
		return fmt->ahead_min_bytes;
	return csvr_ahead_min_bytes;
}

/*
 * Reads into @p s->buf until it holds @p want bytes after the header or
 * the file ends (then s->eof). Returns 0, or -1 when out of memory or on a
 * read error: what was read stays, and the stream reads on by itself.
 */
static int top_up(struct csvr_stream *s, size_t want)
{
	if (s->len >= want)
		return 0;
	if (want > s->cap) {
		char *p = realloc(s->buf, want);
		if (!p)
			return -1;
		s->buf = p;
		s->cap = want;
	}
	while (s->len < want) {
		size_t got;
		if (read_some(s->fd, s->buf + s->len, want - s->len, &got) != 0)
			return -1;
		if (got == 0) {
			s->eof = true;
			return 0;
		}
		s->len += got;
	}
	return 0;
}

/*
 * Starts reading the rest of @p s's file ahead when the fast path is on and
 * at least ahead_min_bytes() are left; without a thread (or memory for
 * its engine) the stream reads them itself, as for a small file.
 *
 * The stream parses the file's first csvr_ahead_own_bytes after the header
 * itself, on its caller's thread, while the threads read and parse from
 * there on: its caller's first rows come without waiting for the threads'
 * first segment (a calls file of a 10^4-frame session: its merge 0.07-0.25
 * ms faster, bench/RESULTS.md, thirty-second session). The engine is the
 * same one throughout, so a line cut at that point is whole again when the
 * first segment's bytes reach it (take_segment()).
 */
static void start_ahead(struct csvr_stream *s)
{
	struct stat st;

	if (!s->e.fast || s->eof || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	off_t at = lseek(s->fd, 0, SEEK_CUR);
	if (at < 0 || (uint64_t)(st.st_size - at) + s->len < ahead_min_bytes(s->e.fmt))
		return;
	if (top_up(s, csvr_ahead_own_bytes) != 0 || s->eof)
		return;
	/* Each worker parses with an engine of its own. */
	struct engine *e = calloc(CSVR_AHEAD_WORKERS, sizeof(*e));
	void *ctx[CSVR_AHEAD_WORKERS];
	if (!e)
		return;
	for (int k = 0; k < CSVR_AHEAD_WORKERS; k++) {
		e[k] = s->e;
		e[k].diag = &s->ahead_diag;
		ctx[k] = &e[k];
	}
	/* Bytes read with the header beyond the stream's own are the threads' first. */
	size_t own = s->len < csvr_ahead_own_bytes ? s->len : csvr_ahead_own_bytes;
	if (csvr_ahead_start(&s->ahead, s->buf + own, s->len - own, s->fd, csvr_ahead_seg_bytes,
	                     ahead_parse, ctx) != 0) {
		free(e);
		return;
	}
	s->len = own;
	s->ahead_engines = e;
	s->ahead_on = true;
}

int csvr_stream_open(struct csvr_stream **out, const char *path, const struct csvr_format *format,
                     void *ctx, struct csvr_diag *diag, uint64_t *truncated_rows, bool fast)
{
	/* Aligned as its read-ahead segments are (csvr_ahead.h), which calloc() is not. */
	struct csvr_stream *s = aligned_alloc(_Alignof(struct csvr_stream), sizeof(*s));

	*out = s;
	if (!s) {
		diag_error(diag, path, 0, "out of memory");
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->e = (struct engine){
		.fmt = format,
		.ctx = ctx,
		.path = path,
		.diag = diag,
		.truncated = truncated_rows,
		.fast = fast,
	};
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		diag_error(diag, path, 0, "cannot open: %s", strerror(errno));
		s->done = true;
		s->ret = -1;
		return -1;
	}
	s->cap = CSVR_CHUNK_BYTES;
	s->buf = malloc(s->cap);
	if (!s->buf || csv_init(&s->p, CSV_REPALL_NL) != 0) {
		diag_error(diag, path, 0, "out of memory");
		s->done = true;
		s->ret = -1;
		return -1;
	}
	s->parser_ready = true;
	posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	int ret = read_header(&s->e, s->fd, &s->buf, &s->cap, &s->len, &s->eof);
	if (ret <= 0) {
		s->done = true;
		s->ret = -1;
		return -1;
	}
	/* libcsv trims blanks around a field (its default); see merge/README.md. */
	s->e.clean = true;
	if (s->len == 0 && s->eof) {
		s->done = true;
		s->ret = finish_rows(s) < 0 ? -1 : 0;
		return s->ret;
	}
	start_ahead(s);
	return 0;
}

void csvr_stream_close(struct csvr_stream *s)
{
	if (!s)
		return;
	if (s->ahead_on)
		csvr_ahead_stop(&s->ahead);
	free(s->ahead_engines);
	if (s->parser_ready)
		csv_free(&s->p);
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

int csvr_read(const char *path, const struct csvr_format *format, void *ctx,
              struct csvr_diag *diag, uint64_t *truncated_rows)
{
	return csvr_read_ex(path, format, ctx, diag, truncated_rows, true);
}

int csvr_read_ex(const char *path, const struct csvr_format *format, void *ctx,
                 struct csvr_diag *diag, uint64_t *truncated_rows, bool fast)
{
	struct csvr_stream *s;
	int ret = csvr_stream_open(&s, path, format, ctx, diag, truncated_rows, fast);

	if (ret == 0)
		while ((ret = csvr_stream_step(s)) > 0)
			;
	csvr_stream_close(s);
	return ret < 0 ? -1 : 0;
}

size_t csvr_estimate_rows(const char *path, size_t bytes_per_row)
{
	struct stat st;

	if (bytes_per_row == 0 || stat(path, &st) != 0 || st.st_size <= 0)
		return 0;
	return (size_t)st.st_size / bytes_per_row + 16;
}
