/*
 * Per-side CSV reading with libcsv; see csvr.h.
 */
#define _GNU_SOURCE
#include "csvr.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CSVR_CHUNK (1u << 20)
#define CSVR_BAD_MAX 200

/* State of one csvr_read() call; lives on the caller's stack. */
struct engine {
	const struct csvr_format *fmt;
	void *ctx;
	const char *path;
	struct csvr_diag *diag;
	uint64_t *truncated;
	locale_t c_loc;

	uint64_t lines_done; /* newlines seen so far */
	bool stop;           /* an error was reported; ignore the rest */
	bool fast;           /* plain rows may skip libcsv (see csvr_read_ex) */
	bool clean;          /* libcsv is between records: the fast path may run */

	/* The record being assembled. */
	int field;
	bool is_comment;
	size_t comment_len;
	char comment[CSVR_MSG_MAX / 2];
	union csvr_value values[CSVR_MAX_COLS];
	char text[CSVR_MAX_COLS][CSVR_TEXT_MAX]; /* the CSVR_TEXT values */
	uint32_t present;
	bool bad;
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
	char what[CSVR_MSG_MAX / 2];
	va_list ap;

	if (d->failed)
		return; /* keep the first error: it is the cause */
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(d->error, sizeof(d->error), "%s:%llu: error: %s", path,
		         (unsigned long long)line, what);
	else
		snprintf(d->error, sizeof(d->error), "%s: error: %s", path, what);
	d->failed = true;
}

static void diag_warning(struct csvr_diag *d, const char *path, uint64_t line, const char *what)
{
	/* what is at most half the message; the path gets the rest */
	if (d->warning_count >= CSVR_MAX_WARNINGS)
		return;
	snprintf(d->warnings[d->warning_count++], CSVR_MSG_MAX, "%s:%llu: warning: %s", path,
	         (unsigned long long)line, what);
}

/* Quotes at most 40 bytes of a bad field for a message. */
static void quote_field(char *dst, size_t size, const char *s, size_t len)
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

/*
 * Converts 8 ASCII digits at @p s to their value, or returns false if any
 * byte is not a digit. Does the work of eight loop steps with a few 64-bit
 * operations (little-endian byte order, as on every target of the layer).
 */
static bool eight_digits(const char *s, uint64_t *out)
{
	uint64_t v;

	memcpy(&v, s, 8);
	/* Every byte 0x30..0x39: high nibble 3, and adding 6 keeps it 3. */
	if (((v & 0xF0F0F0F0F0F0F0F0ull) |
	     (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) != 0x3333333333333333ull)
		return false;
	v -= 0x3030303030303030ull;
	v = (v * 10) + (v >> 8);
	v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
	     (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
	*out = v;
	return true;
}

static bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len == 0 || len > 20)
		return false;
	/* Up to 16 digits in blocks of eight; no overflow possible there. */
	for (; i + 8 <= len && i < 16; i += 8) {
		uint64_t block;
		if (!eight_digits(s + i, &block))
			return false;
		v = v * 100000000ull + block;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			return false;
		/* 19 digits always fit; only the 20th can overflow. */
		if (i >= 19 && v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool parse_i64(const char *s, size_t len, int64_t *out)
{
	bool neg = len > 0 && s[0] == '-';
	uint64_t mag;

	if (neg) {
		s++;
		len--;
	}
	if (!parse_u64(s, len, &mag))
		return false;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - mag);
		return true;
	}
	if (mag > (uint64_t)INT64_MAX)
		return false;
	*out = (int64_t)mag;
	return true;
}

static const double exact_pow10[23] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * "[-]digits[.digits]" with at most 15 significant digits: the mantissa and
 * the power of ten are both exact doubles, so one division is correctly
 * rounded and gives exactly what strtod() gives (Clinger's fast path).
 * Returns false when the text needs the general path.
 */
static bool parse_f64_fast(const char *s, size_t len, double *out)
{
	size_t i = 0, digits = 0, frac = 0;
	bool neg = false, point = false;
	uint64_t m = 0;

	if (len > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	for (; i < len; i++) {
		char c = s[i];
		if (c == '.' && !point) {
			point = true;
			continue;
		}
		if (c < '0' || c > '9')
			return false;
		if (m == 0 && c == '0' && !point)
			continue; /* leading zeros carry nothing */
		if (++digits > 15)
			return false;
		m = m * 10 + (uint64_t)(c - '0');
		if (point)
			frac++;
	}
	/* Leading zeros after the point count as fraction digits too. */
	if (point) {
		const char *dot = memchr(s, '.', len);
		frac = len - (size_t)(dot - s) - 1;
	}
	if (frac > 22 || (digits == 0 && len == (size_t)neg + point) || (point && len == (size_t)neg + 1))
		return false;
	double v = (double)m / exact_pow10[frac];
	*out = neg ? -v : v;
	return true;
}

/* Plain decimal only: no blanks, hex, nan or inf; must be finite. */
static bool parse_f64(const char *s, size_t len, locale_t loc, double *out)
{
	char buf[64];
	char *end;

	if (parse_f64_fast(s, len, out))
		return true;
	if (len == 0 || len >= sizeof(buf))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
			return false;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	double v = strtod_l(buf, &end, loc);
	if (end != buf + len || !isfinite(v) || errno == ERANGE)
		return false;
	*out = v;
	return true;
}

static const char *kind_name(enum csvr_kind k)
{
	switch (k) {
	case CSVR_I64: return "an integer";
	case CSVR_U64: return "a non-negative integer";
	case CSVR_F64:
	case CSVR_F64_OPT: return "a number";
	case CSVR_TEXT: return "text of at most 255 bytes";
	}
	return "a value";
}

/* Whether an empty field of @p kind is a blank cell (not present) rather than an error. */
static bool may_be_blank(enum csvr_kind kind)
{
	return kind == CSVR_F64_OPT || kind == CSVR_TEXT;
}

/* Parses the non-empty field @p c into e->values[c]; false when it is not of its kind. */
static bool parse_value(struct engine *e, int c, const char *s, size_t len)
{
	union csvr_value *v = &e->values[c];

	switch (e->fmt->kinds[c]) {
	case CSVR_I64: return parse_i64(s, len, &v->i);
	case CSVR_U64: return parse_u64(s, len, &v->u);
	case CSVR_TEXT:
		if (len >= CSVR_TEXT_MAX)
			return false;
		memcpy(e->text[c], s, len);
		e->text[c][len] = '\0';
		v->s = e->text[c];
		return true;
	default: return parse_f64(s, len, e->c_loc, &v->f);
	}
}

static void parse_field(struct engine *e, const char *s, size_t len)
{
	int c = e->field;
	enum csvr_kind kind = e->fmt->kinds[c];

	if (len == 0 && may_be_blank(kind))
		return; /* blank cell: not present */
	if (parse_value(e, c, s, len)) {
		e->present |= 1u << c;
		return;
	}
	if (!e->bad) {
		char q[64];
		quote_field(q, sizeof(q), s, len);
		snprintf(e->bad_msg, sizeof(e->bad_msg), "column %d (%s) is not %s: \"%s\"", c + 1,
		         e->fmt->names[c], kind_name(kind), q);
		e->bad = true;
	}
}

static void append_comment(struct engine *e, const char *s, size_t len)
{
	size_t room = sizeof(e->comment) - 1 - e->comment_len;

	if (e->field > 0 && room > 0) {
		e->comment[e->comment_len++] = ',';
		room--;
	}
	if (len > room)
		len = room;
	memcpy(e->comment + e->comment_len, s, len);
	e->comment_len += len;
	e->comment[e->comment_len] = '\0';
}

static void on_field(void *s, size_t len, void *data)
{
	struct engine *e = data;
	const char *text = s ? s : "";

	if (e->stop)
		return;
	if (e->field == 0 && len > 0 && text[0] == '#')
		e->is_comment = true;
	if (e->is_comment)
		append_comment(e, text, len);
	else if (e->field < e->fmt->ncols)
		parse_field(e, text, len);
	e->field++;
}

/* Text of a comment line after '#' and blanks, without a trailing CR. */
static char *comment_body(char *text)
{
	size_t n;

	while (*text == '#' || *text == ' ' || *text == '\t')
		text++;
	n = strlen(text);
	while (n > 0 && (text[n - 1] == '\r' || text[n - 1] == ' '))
		text[--n] = '\0';
	return text;
}

static void handle_comment(struct engine *e, char *text, bool in_header, uint64_t line)
{
	char msg[CSVR_BAD_MAX] = "";

	if (e->fmt->comment(e->ctx, comment_body(text), in_header, msg, sizeof(msg)) != 0) {
		diag_error(e->diag, e->path, line, "%s", msg);
		e->stop = true;
	}
}

static void handle_data(struct engine *e, int terminator, uint64_t line)
{
	int ncols = e->fmt->ncols;

	if (terminator == -1) {
		/* No newline at the end of the file: the writer was cut off
		 * mid-row, so even a row that parses may be missing digits. */
		diag_warning(e->diag, e->path, line,
		             "last row has no newline (writer killed?); skipped");
		if (e->truncated)
			(*e->truncated)++;
		return;
	}
	if (e->field < ncols) {
		e->pending = true;
		e->pending_line = line;
		snprintf(e->pending_msg, sizeof(e->pending_msg), "expected %d fields, got %d", ncols,
		         e->field);
		return;
	}
	if (e->field > ncols) {
		diag_error(e->diag, e->path, line, "expected %d fields, got %d", ncols, e->field);
		e->stop = true;
		return;
	}
	if (e->bad) {
		diag_error(e->diag, e->path, line, "%s", e->bad_msg);
		e->stop = true;
		return;
	}

	char msg[CSVR_BAD_MAX] = "";
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
	e->present = 0;
	e->bad = false;
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
	if (e->is_comment)
		handle_comment(e, e->comment, false, line);
	else
		handle_data(e, c, line);
	reset_record(e);
}

/* libcsv trims blanks around fields by default; strict parsing wants them
 * kept so that " 12" is reported instead of silently accepted. */
static __attribute__((unused)) int no_space(unsigned char c)
{
	(void)c;
	return 0;
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
			           "no column header (expected \"%s\")", e->fmt->header);
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
		if (line[0] == '#') {
			char text[CSVR_MSG_MAX / 2];
			size_t n = line_len < sizeof(text) - 1 ? line_len : sizeof(text) - 1;
			memcpy(text, line, n);
			text[n] = '\0';
			handle_comment(e, text, true, lineno);
			if (e->stop)
				return -1;
			continue;
		}
		if (line_len != strlen(e->fmt->header) ||
		    memcmp(line, e->fmt->header, line_len) != 0) {
			char q[64];
			quote_field(q, sizeof(q), line, line_len);
			diag_error(e->diag, e->path, lineno,
			           "wrong column header \"%s\" (expected \"%s\")", q, e->fmt->header);
			return -1;
		}
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

/* Reads until the column header is consumed; leaves the rest in buf. */
static int read_header(struct engine *e, int fd, char *buf, size_t *len, bool *eof)
{
	for (;;) {
		int r = scan_header(e, buf, len, *eof);
		if (r != 0)
			return r;
		if (*len == CSVR_CHUNK) {
			diag_error(e->diag, e->path, e->lines_done + 1, "line too long");
			return -1;
		}
		size_t got;
		if (read_some(fd, buf + *len, CSVR_CHUNK - *len, &got) != 0) {
			diag_error(e->diag, e->path, 0, "cannot read: %s", strerror(errno));
			return -1;
		}
		if (got == 0) {
			if (*len == 0 && e->lines_done == 0) {
				diag_error(e->diag, e->path, 0, "empty file (expected \"%s\")",
				           e->fmt->header);
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

/* End of the plain field at @p s: the first byte that cannot be in a number of @p kind. */
static const char *plain_field_end(const char *s, enum csvr_kind kind)
{
	switch (kind) {
	case CSVR_I64:
		s += *s == '-';
		/* fall through */
	case CSVR_U64:
		while ((unsigned)(*s - '0') < 10)
			s++;
		return s;
	case CSVR_TEXT:
		/* libcsv hands such bytes over as they are; a quote, CR or
		 * '#' (a comment line) is left to libcsv. */
		while (*s != ',' && *s != '\n' && *s != '"' && *s != '\r' && *s != '#')
			s++;
		return s;
	default:
		/* parse_f64() rejects anything in here that is not a number. */
		while (*s != ',' && *s != '\n')
			s++;
		return s;
	}
}

/*
 * Parses column @p c at *@p pp without libcsv, when the field is plain:
 * only the characters of a number, then @p sep. Such a field is exactly
 * what libcsv would hand to parse_field() (no quote, blank or line end in
 * it). Returns false for anything else, without having reported anything.
 */
static bool fast_field(struct engine *e, int c, const char **pp, char sep)
{
	enum csvr_kind kind = e->fmt->kinds[c];
	const char *s = *pp;
	const char *end = plain_field_end(s, kind);
	size_t len = (size_t)(end - s);

	if (*end != sep)
		return false;
	*pp = end + 1;
	if (len == 0 && may_be_blank(kind))
		return true; /* blank cell: not present */
	bool ok = parse_value(e, c, s, len);
	e->present |= (uint32_t)ok << c;
	return ok;
}

/*
 * Parses the row at *@p pp (which ends in a '\n' somewhere) without
 * libcsv if every field is plain and there are exactly ncols of them;
 * delivers it and moves *@p pp past its newline. Returns false, with
 * nothing delivered or reported, for any other line.
 */
static bool fast_row(struct engine *e, const char **pp)
{
	const char *p = *pp;
	int n = e->fmt->ncols;

	for (int c = 0; c < n; c++) {
		if (!fast_field(e, c, &p, c == n - 1 ? '\n' : ',')) {
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
		if (e->clean && !e->pending && fast_row(e, &s)) {
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

static int parse_rows(struct engine *e, int fd, char *buf, size_t len, bool eof)
{
	struct csv_parser p;

	if (csv_init(&p, CSV_REPALL_NL) != 0) {
		diag_error(e->diag, e->path, 0, "out of memory");
		return -1;
	}
	//csv_set_space_func(&p, no_space);

	e->clean = true;
	int ret = parse_buffer(e, &p, buf, len);
	while (ret == 0 && !eof) {
		size_t got;
		if (read_some(fd, buf, CSVR_CHUNK, &got) != 0) {
			diag_error(e->diag, e->path, 0, "cannot read: %s", strerror(errno));
			ret = -1;
			break;
		}
		eof = got == 0;
		ret = parse_buffer(e, &p, buf, got);
	}
	if (ret == 0) {
		csv_fini(&p, on_field, on_record, e);
		ret = e->stop ? -1 : 0;
	}
	if (ret == 0 && e->pending) {
		char what[CSVR_MSG_MAX / 2];
		snprintf(what, sizeof(what), "last row is cut short (%s, writer killed?); skipped",
		         e->pending_msg);
		diag_warning(e->diag, e->path, e->pending_line, what);
		if (e->truncated)
			(*e->truncated)++;
	}
	csv_free(&p);
	return ret;
}

int csvr_read(const char *path, const struct csvr_format *format, void *ctx,
              struct csvr_diag *diag, uint64_t *truncated_rows)
{
	return csvr_read_ex(path, format, ctx, diag, truncated_rows, true);
}

int csvr_read_ex(const char *path, const struct csvr_format *format, void *ctx,
                 struct csvr_diag *diag, uint64_t *truncated_rows, bool fast)
{
	struct engine e = {
		.fmt = format,
		.ctx = ctx,
		.path = path,
		.diag = diag,
		.truncated = truncated_rows,
		.fast = fast,
	};

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_error(diag, path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	char *buf = malloc(CSVR_CHUNK);
	e.c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!buf || !e.c_loc) {
		diag_error(diag, path, 0, "out of memory");
		free(buf);
		if (e.c_loc)
			freelocale(e.c_loc);
		close(fd);
		return -1;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);

	size_t len = 0;
	bool eof = false;
	int ret = read_header(&e, fd, buf, &len, &eof);
	if (ret > 0)
		ret = parse_rows(&e, fd, buf, len, eof);

	free(buf);
	freelocale(e.c_loc);
	close(fd);
	return ret < 0 ? -1 : 0;
}

size_t csvr_estimate_rows(const char *path, size_t bytes_per_row)
{
	struct stat st;

	if (bytes_per_row == 0 || stat(path, &st) != 0 || st.st_size <= 0)
		return 0;
	return (size_t)st.st_size / bytes_per_row + 16;
}

/* ---- per-side files ---- */

/* Copies a metadata value, cutting it to the destination's size. */
static void set_text(char *dst, size_t size, const char *value)
{
	snprintf(dst, size, "%s", value);
}

/* Parses the `key=value` tokens of a `session_end` footer. */
static int parse_footer(struct side_meta *m, const char *text, char *msg, size_t msg_size)
{
	char copy[CSVR_MSG_MAX / 2];
	char *save = NULL;

	set_text(copy, sizeof(copy), text);
	m->has_session_end = true;
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t *dst = NULL;
		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(tok, "dropped_queue_full") == 0)
			dst = &m->dropped_queue_full;
		else if (strcmp(tok, "gpu_ring_overflow") == 0)
			dst = &m->gpu_ring_overflow;
		if (dst && !parse_u64(eq + 1, strlen(eq + 1), dst)) {
			snprintf(msg, msg_size, "session_end %s is not a count: \"%.40s\"", tok, eq + 1);
			return -1;
		}
	}
	return 0;
}

/* Context of a per-side file's comment callback. */
struct side_ctx {
	struct side_meta *meta;
	const char *expected_side;
	void *file; /* struct side_cpu_file * or struct side_gpu_file * */
};

static int side_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct side_ctx *c = ctx;
	struct side_meta *m = c->meta;

	if (strncmp(text, "session_end", 11) == 0 && (text[11] == ' ' || text[11] == '\0'))
		return parse_footer(m, text + 11, msg, msg_size);
	if (!in_header)
		return 0; /* other comments after the rows carry nothing we use */

	const char *eq = strchr(text, '=');
	if (!eq)
		return 0;
	size_t klen = (size_t)(eq - text);
	const char *value = eq + 1;

	if (klen == 4 && memcmp(text, "side", 4) == 0) {
		set_text(m->side, sizeof(m->side), value);
		if (c->expected_side && strcmp(value, c->expected_side) != 0) {
			snprintf(msg, msg_size, "file is side=%.15s, expected side=%s", value,
			         c->expected_side);
			return -1;
		}
	} else if (klen == 5 && memcmp(text, "layer", 5) == 0) {
		set_text(m->layer, sizeof(m->layer), value);
	} else if (klen == 12 && memcmp(text, "target_layer", 12) == 0) {
		set_text(m->target_layer, sizeof(m->target_layer), value);
	} else if (klen == 5 && memcmp(text, "clock", 5) == 0) {
		set_text(m->clock, sizeof(m->clock), value);
	} else if (klen == 9 && memcmp(text, "gpu_clock", 9) == 0) {
		set_text(m->gpu_clock, sizeof(m->gpu_clock), value);
	} else if (klen == 10 && memcmp(text, "clock_freq", 10) == 0) {
		if (!parse_u64(value, strlen(value), &m->clock_freq) || m->clock_freq == 0) {
			snprintf(msg, msg_size, "clock_freq is not a positive integer: \"%.40s\"",
			         value);
			return -1;
		}
	} else if (klen == 21 && memcmp(text, "bracket_correction_ns", 21) == 0) {
		/* Two clock reads: tens of ns natively, ~1 µs under valgrind; a
		 * millisecond means a corrupt file. */
		if (!parse_u64(value, strlen(value), &m->bracket_correction_ns) ||
		    m->bracket_correction_ns > 1000000) {
			snprintf(msg, msg_size, "bracket_correction_ns is not a count of ns from 0 "
			         "to 1000000: \"%.40s\"", value);
			return -1;
		}
		m->has_bracket_correction = true;
	}
	return 0;
}

/* Grows a row array to hold at least one more row. */
static int grow(void **rows, size_t *cap, size_t count, size_t row_size)
{
	if (count < *cap)
		return 0;
	size_t new_cap = *cap ? *cap * 2 : 1024;
	void *p = realloc(*rows, new_cap * row_size);
	if (!p)
		return -1;
	*rows = p;
	*cap = new_cap;
	return 0;
}

/*
 * Largest |time| in nanoseconds a CPU row may hold (about 73 years): the
 * merge subtracts times (durations) and then durations (target time), and
 * with both sides below 2^61 neither subtraction can overflow.
 */
#define SIDE_TIME_NS_MAX (INT64_C(1) << 61)

/*
 * Converts clock ticks to nanoseconds (exact for the usual 1 GHz clock).
 * Returns false when the result is out of the range above.
 */
static bool ticks_to_ns(int64_t ticks, uint64_t freq, int64_t *ns)
{
	__int128 v = ticks;

	if (freq != 0 && freq != 1000000000u)
		v = v * 1000000000 / (__int128)freq;
	if (v >= SIDE_TIME_NS_MAX || v <= -SIDE_TIME_NS_MAX)
		return false;
	*ns = (int64_t)v;
	return true;
}

static int cpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct side_ctx *c = ctx;
	struct side_cpu_file *f = c->file;
	int64_t entry, exit;
	(void)present;

	if (!ticks_to_ns(v[2].i, f->meta.clock_freq, &entry) ||
	    !ticks_to_ns(v[3].i, f->meta.clock_freq, &exit)) {
		snprintf(msg, msg_size, "t_entry or t_exit is out of range (2^61 ns)");
		return -1;
	}
	if (grow((void **)&f->rows, &f->cap, f->count, sizeof(*f->rows)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	struct side_cpu_row *r = &f->rows[f->count++];
	r->display_time = v[0].i;
	r->thread_id = v[1].u;
	r->t_entry_ns = entry;
	r->dur_ns = exit - entry;
	return 0;
}

static const struct csvr_format cpu_format = {
	.header = "display_time,thread_id,t_entry,t_exit",
	.ncols = 4,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_I64, CSVR_I64},
	.names = {"display_time", "thread_id", "t_entry", "t_exit"},
	.comment = side_comment,
	.row = cpu_row,
};

int side_cpu_read(const char *path, const char *expected_side, struct side_cpu_file *out)
{
	memset(out, 0, sizeof(*out));
	struct side_ctx c = {.meta = &out->meta, .expected_side = expected_side, .file = out};

	/* Reserve once from the file size so large files do not regrow. */
	size_t hint = csvr_estimate_rows(path, 32);
	if (hint) {
		out->rows = malloc(hint * sizeof(*out->rows));
		out->cap = out->rows ? hint : 0;
	}
	return csvr_read(path, &cpu_format, &c, &out->diag, &out->meta.truncated_rows);
}

void side_cpu_destroy(struct side_cpu_file *f)
{
	free(f->rows);
	f->rows = NULL;
	f->count = f->cap = 0;
}

static int gpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct side_ctx *c = ctx;
	struct side_gpu_file *f = c->file;
	(void)present;

	if (v[3].u > 1) {
		snprintf(msg, msg_size, "column 4 (valid) is not 0 or 1");
		return -1;
	}
	if (grow((void **)&f->rows, &f->cap, f->count, sizeof(*f->rows)) != 0) {
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

static const struct csvr_format gpu_format = {
	.header = "display_time,gpu_ticks,gpu_period_ns,valid",
	.ncols = 4,
	.kinds = {CSVR_I64, CSVR_U64, CSVR_F64, CSVR_U64},
	.names = {"display_time", "gpu_ticks", "gpu_period_ns", "valid"},
	.comment = side_comment,
	.row = gpu_row,
};

int side_gpu_read(const char *path, const char *expected_side, struct side_gpu_file *out)
{
	memset(out, 0, sizeof(*out));
	struct side_ctx c = {.meta = &out->meta, .expected_side = expected_side, .file = out};

	size_t hint = csvr_estimate_rows(path, 24);
	if (hint) {
		out->rows = malloc(hint * sizeof(*out->rows));
		out->cap = out->rows ? hint : 0;
	}
	return csvr_read(path, &gpu_format, &c, &out->diag, &out->meta.truncated_rows);
}

void side_gpu_destroy(struct side_gpu_file *f)
{
	free(f->rows);
	f->rows = NULL;
	f->count = f->cap = 0;
}
