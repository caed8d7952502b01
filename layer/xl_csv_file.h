/*
 * One buffered output CSV of a session (the per-side CPU and GPU files):
 * created exclusively in the output directory, written line by line,
 * flushed by the writer at least twice a second, closed with a footer.
 * A write error closes nothing early but marks the file failed, so the
 * caller can stop recording and say so once.
 */
#ifndef XL_CSV_FILE_H
#define XL_CSV_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct xl_csv_file {
	char name[128]; /* its name in the output directory, kept after closing */
	FILE *file;
	uint64_t rows;
	bool failed;
};

/* Creates @p name in @p dir_fd (see xl_files_create). 0, or -1 with errno (the name is kept either way). */
int xl_csv_file_create(struct xl_csv_file *f, int dir_fd, const char *name);

/* Appends @p len bytes (whole lines) and counts a row; false once it has failed. */
bool xl_csv_file_row(struct xl_csv_file *f, const char *line, size_t len);

/* Appends a comment or header text; false once it has failed. */
bool xl_csv_file_text(struct xl_csv_file *f, const char *text);

/* Pushes buffered lines to the kernel; false when that fails. */
bool xl_csv_file_flush(struct xl_csv_file *f);

/* Writes @p footer (may be NULL) and closes; false if anything failed. */
bool xl_csv_file_close(struct xl_csv_file *f, const char *footer);

#endif /* XL_CSV_FILE_H */
