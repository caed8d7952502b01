/*
 * The workbook file behind `xrlm xlsx`: libxlsxwriter in constant-memory
 * mode writing a temporary file next to the output, the shared cell
 * formats, the first error of any libxlsxwriter call, and the commit that
 * checks every write and renames the file into place (see out_file.h).
 */
#ifndef XRLM_XLSX_BOOK_H
#define XRLM_XLSX_BOOK_H

#include <stdbool.h>
#include <stddef.h>

#include <xlsxwriter.h>

#include "merge.h"

/* A workbook being written. */
struct xlsx_book {
	lxw_workbook *wb;
	lxw_format *fmt_bold;    /* column headers */
	lxw_format *fmt_pct;     /* a fraction shown as a percentage (Summary) */
	lxw_format *fmt_pct_col; /* a percentage already times 100 (Frames) */
	lxw_format *fmt_us;      /* microseconds, 3 decimals */
	lxw_error error;         /* first failed call; LXW_NO_ERROR if none */
	char path[MERGE_PATH_MAX];
	char tmp_path[MERGE_PATH_MAX];
	char tmp_dir[MERGE_PATH_MAX];
};

/*
 * Starts a workbook for @p path (temporary file and libxlsxwriter's own
 * temporary files in its directory; ZIP64 when @p zip64). Returns 0, or -1
 * with a message naming the file in @p msg.
 */
int xlsx_book_open(struct xlsx_book *b, const char *path, bool zip64, char *msg, size_t msg_size);

/* Keeps @p err if it is the first error. Returns @p err. */
lxw_error xlsx_book_check(struct xlsx_book *b, lxw_error err);

/*
 * 0 when no call failed so far; else -1 with the first error described in
 * @p msg (for a reader callback, which adds the input's file and line).
 */
int xlsx_book_failed(const struct xlsx_book *b, char *msg, size_t msg_size);

/*
 * Writes text from a file at (@p r, @p c), each byte of it that begins no
 * character (utf8.h) as U+FFFD: the sheet's XML stays well-formed.
 */
void xlsx_book_write_string(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                            const char *text, lxw_format *format);

/*
 * Writes @p text at (@p r, @p c) by what it holds: nothing when empty, a
 * number, "N%" as N/100 with a percent format, else text (as
 * xlsx_book_write_string()).
 */
void xlsx_book_write_typed(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                           const char *text);

/*
 * Writes the workbook and renames it into place without replacing a file.
 * On any failure (a call that failed, a write error of a temporary or the
 * final file) removes the temporary file and returns -1 with one message in
 * @p msg. @p b is finished either way.
 */
int xlsx_book_commit(struct xlsx_book *b, char *msg, size_t msg_size);

/* Frees the workbook without writing it and removes the temporary file. */
void xlsx_book_abort(struct xlsx_book *b);

#endif /* XRLM_XLSX_BOOK_H */
