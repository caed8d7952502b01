/*
 * One buffered output CSV of a session (the per-side CPU and GPU files):
 * created exclusively in the output directory, written line by line,
 * flushed by the writer at least twice a second, closed with a footer.
 * A write error closes nothing early but marks the file failed, so the
 * caller can stop recording and say so once.
 *
 * The buffer is the file's own, written with write(2), not a stdio
 * stream's: a child the application forks inherits a copy of it, which
 * nothing ever writes (glibc's exit flushes every stdio stream, and a
 * child's copy of the parent's unwritten rows would land in the file a
 * second time).
 */
#ifndef XL_CSV_FILE_H
#define XL_CSV_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct xl_csv_file {
	char name[128]; /* its name in the output directory, kept after closing */
	int fd;         /* valid while buf is set */
	char *buf;      /* XL_CSV_FILE_BUFFER bytes; NULL: not open */
	size_t used;    /* bytes in buf not yet written */
	uint64_t rows;
	bool failed;
	ino_t ino;      /* the file created under name (0: none), kept after closing */
};

/* Whether @p f is open (created and not yet closed). */
static inline bool xl_csv_file_is_open(const struct xl_csv_file *f)
{
	return f->buf != NULL;
}

/* Creates @p name in @p dir_fd (see xl_files_create). 0, or -1 with errno (the name is kept either way). */
int xl_csv_file_create(struct xl_csv_file *f, int dir_fd, const char *name);

/* Appends @p len bytes (whole lines) and counts a row; false once it has failed. */
bool xl_csv_file_row(struct xl_csv_file *f, const char *line, size_t len);

/* Appends a comment or header text; false once it has failed. */
bool xl_csv_file_text(struct xl_csv_file *f, const char *text);

/* Pushes buffered lines to the kernel; false when that fails. */
bool xl_csv_file_flush(struct xl_csv_file *f);

/*
 * Writes @p footer (may be NULL) and closes, whether or not the file has
 * failed; false if anything failed. Does nothing on a file not open.
 */
bool xl_csv_file_close(struct xl_csv_file *f, const char *footer);

#endif /* XL_CSV_FILE_H */
