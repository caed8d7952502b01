/*
 * The workbook file behind `xrlm xlsx`; see xlsx_book.h.
 */
#include "xlsx_book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "out_file.h"
#include "quote.h"
#include "u_parse.h"
#include "utf8.h"

static lxw_format *add_format(struct xlsx_book *b, const char *num_format, bool bold)
{
	lxw_format *f = workbook_add_format(b->wb);

	if (!f) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return NULL;
	}
	if (num_format)
		format_set_num_format(f, num_format);
	if (bold)
		format_set_bold(f);
	return f;
}

/* The output's temporary file and libxlsxwriter's directory removed. */
static void discard(struct xlsx_book *b)
{
	out_file_discard(b->tmp_path);
	if (b->tmp_dir[0])
		out_file_discard_dir(b->tmp_dir);
}

int xlsx_book_open(struct xlsx_book *b, const char *path, bool zip64, char *msg, size_t msg_size)
{
	memset(b, 0, sizeof(*b));
	if (snprintf(b->path, sizeof(b->path), "%s", path) >= (int)sizeof(b->path)) {
		char q[QUOTE_PATH_MAX];
		snprintf(msg, msg_size, "%.200s...: error: path too long", quote_path(q, path));
		return -1;
	}
	/* What a run of it killed outright left there. */
	out_file_clear_stale(path);
	/* The name is reserved with O_EXCL|O_NOFOLLOW; libxlsxwriter then
	 * rewrites that same file by name. */
	int fd = out_file_create_tmp(path, b->tmp_path, sizeof(b->tmp_path), msg, msg_size);
	if (fd < 0)
		return -1;
	close(fd);
	/* Its own temporary files (one per sheet, one per part of the zip)
	 * go next to the output, as a large session may not fit a
	 * memory-backed /tmp, in a directory of ours: libxlsxwriter names
	 * each, then unlinks it, and a signal between the two left it in the
	 * user's directory ("tmp.XXXXXXXXXX"); ours goes with everything in it. */
	if (out_file_create_tmp_dir(path, b->tmp_dir, sizeof(b->tmp_dir), msg, msg_size) != 0) {
		out_file_discard(b->tmp_path);
		return -1;
	}
	lxw_workbook_options opt = {.constant_memory = 1, .tmpdir = b->tmp_dir, .use_zip64 = zip64};
	b->wb = workbook_new_opt(b->tmp_path, &opt);
	if (!b->wb) {
		char q[QUOTE_PATH_MAX];
		snprintf(msg, msg_size, "%s: error: out of memory", quote_path(q, path));
		discard(b);
		return -1;
	}
	b->fmt_bold = add_format(b, NULL, true);
	b->fmt_pct = add_format(b, "0.0000%", false);
	b->fmt_pct_col = add_format(b, "0.0000", false);
	b->fmt_us = add_format(b, "0.000", false);
	return 0;
}

lxw_error xlsx_book_check(struct xlsx_book *b, lxw_error err)
{
	if (err != LXW_NO_ERROR && b->error == LXW_NO_ERROR)
		b->error = err;
	return err;
}

int xlsx_book_failed(const struct xlsx_book *b, char *msg, size_t msg_size)
{
	if (b->error == LXW_NO_ERROR)
		return 0;
	snprintf(msg, msg_size, "cannot add to the workbook: %s", lxw_strerror(b->error));
	return -1;
}

void xlsx_book_write_string(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                            const char *text, lxw_format *format)
{
	/* libxlsxwriter escapes control bytes, not bytes that are no UTF-8;
	 * ASCII text (every function's name, most values) needs no copy. */
	const unsigned char *p = (const unsigned char *)text;
	while (*p && *p < 0x80)
		p++;
	if (!*p) {
		xlsx_book_check(b, worksheet_write_string(ws, r, c, text, format));
		return;
	}
	char *clean = utf8_clean_dup(text);

	if (!clean) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	xlsx_book_check(b, worksheet_write_string(ws, r, c, clean, format));
	free(clean);
}

/* Whether @p s[0..len) is one plain number (the project's strict parser). */
static bool plain_number(const char *s, size_t len, double *out)
{
	return u_parse_span_f64(s, len, out) == U_PARSE_OK;
}

void xlsx_book_write_typed(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                           const char *text)
{
	size_t len = strlen(text);
	double v;

	if (len == 0)
		return;
	if (plain_number(text, len, &v)) {
		xlsx_book_check(b, worksheet_write_number(ws, r, c, v, NULL));
	} else if (text[len - 1] == '%' && plain_number(text, len - 1, &v)) {
		xlsx_book_check(b, worksheet_write_number(ws, r, c, v / 100, b->fmt_pct));
	} else {
		xlsx_book_write_string(b, ws, r, c, text, NULL);
	}
}

/*
 * libxlsxwriter does not check its writes to the sheets' temporary files
 * (a full disk would leave a sheet cut short in a "good" workbook): check
 * them before the workbook is assembled. Returns 0 or an errno value.
 */
static int temp_write_error(struct xlsx_book *b)
{
	lxw_worksheet *ws;

	LXW_FOREACH_WORKSHEET(ws, b->wb) {
		FILE *f = ws->optimize_tmpfile;
		if (!f)
			continue;
		errno = 0;
		if (fflush(f) != 0 || ferror(f))
			return errno ? errno : EIO;
	}
	return 0;
}

/*
 * workbook_close() with libxlsxwriter's own stderr lines kept out of the
 * terminal (every failure gets our one line instead). Returns its result;
 * @p sys_errno gets errno as it returned.
 */
static lxw_error close_quietly(struct xlsx_book *b, int *sys_errno)
{
	int sink = memfd_create("xrlm-xlsx-stderr", MFD_CLOEXEC);
	int saved = sink >= 0 ? dup(STDERR_FILENO) : -1;

	fflush(stderr);
	if (saved >= 0)
		dup2(sink, STDERR_FILENO);
	errno = 0;
	lxw_error err = workbook_close(b->wb);
	*sys_errno = errno;
	b->wb = NULL;
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (sink >= 0)
		close(sink);
	return err;
}

/* errno values worth naming: the ones a user can act on. */
static bool io_errno(int e)
{
	return e == EFBIG || e == ENOSPC || e == EIO || e == EDQUOT || e == EROFS || e == EACCES;
}

int xlsx_book_commit(struct xlsx_book *b, char *msg, size_t msg_size)
{
	int sys = 0;
	char q[QUOTE_PATH_MAX], qd[QUOTE_PATH_MAX], dir[MERGE_PATH_MAX];

	if (b->error != LXW_NO_ERROR) {
		snprintf(msg, msg_size, "%s: error: cannot build the workbook: %s", quote_path(q, b->path),
		         lxw_strerror(b->error));
		xlsx_book_abort(b);
		return -1;
	}
	int tmp_err = temp_write_error(b);
	if (tmp_err) {
		out_file_dir_of(b->path, dir, sizeof(dir));
		snprintf(msg, msg_size, "%s: error: cannot write a temporary file in %s: %s",
		         quote_path(q, b->path), quote_path(qd, dir), strerror(tmp_err));
		xlsx_book_abort(b);
		return -1;
	}
	lxw_error err = close_quietly(b, &sys);
	if (err != LXW_NO_ERROR) {
		snprintf(msg, msg_size, "%s: error: cannot write: %s", quote_path(q, b->path),
		         io_errno(sys) ? strerror(sys) : lxw_strerror(err));
		discard(b);
		return -1;
	}
	out_file_discard_dir(b->tmp_dir); /* empty: libxlsxwriter unlinked its files */
	b->tmp_dir[0] = '\0';
	return out_file_place(b->tmp_path, b->path, msg, msg_size);
}

void xlsx_book_abort(struct xlsx_book *b)
{
	if (b->wb)
		lxw_workbook_free(b->wb);
	b->wb = NULL;
	discard(b);
}
