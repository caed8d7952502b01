/*
 * Session output CSVs; see xl_csv_file.h.
 */
#include "xl_csv_file.h"

#include "xl_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rows are flushed by the writer every 0.5 s (xl_writer_files.c), not per line. */
#define XL_CSV_FILE_BUFFER (64 * 1024)

int xl_csv_file_create(struct xl_csv_file *f, int dir_fd, const char *name)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	snprintf(f->name, sizeof(f->name), "%s", name);
	char *buf = malloc(XL_CSV_FILE_BUFFER);
	if (!buf)
		return -1;
	f->fd = xl_files_create(dir_fd, name);
	if (f->fd < 0) {
		free(buf);
		return -1;
	}
	struct stat st;
	if (fstat(f->fd, &st) == 0)
		f->ino = st.st_ino;
	f->buf = buf;
	return 0;
}

/* Writes all @p len bytes at @p data; marks the file failed if it cannot. */
static bool write_all(struct xl_csv_file *f, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(f->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			f->failed = true;
			return false;
		}
		data += n;
		len -= (size_t)n;
	}
	return true;
}

static bool put(struct xl_csv_file *f, const char *data, size_t len)
{
	if (f->failed || !f->buf)
		return false;
	if (f->used + len > XL_CSV_FILE_BUFFER) {
		if (!xl_csv_file_flush(f))
			return false;
		if (len > XL_CSV_FILE_BUFFER)
			return write_all(f, data, len);
	}
	memcpy(f->buf + f->used, data, len);
	f->used += len;
	return true;
}

bool xl_csv_file_row(struct xl_csv_file *f, const char *line, size_t len)
{
	if (!put(f, line, len))
		return false;
	f->rows++;
	return true;
}

bool xl_csv_file_text(struct xl_csv_file *f, const char *text)
{
	return put(f, text, strlen(text));
}

bool xl_csv_file_flush(struct xl_csv_file *f)
{
	if (f->failed || !f->buf)
		return false;
	bool ok = write_all(f, f->buf, f->used);
	f->used = 0;
	return ok;
}

bool xl_csv_file_close(struct xl_csv_file *f, const char *footer)
{
	if (!f->buf)
		return false;
	if (footer)
		xl_csv_file_text(f, footer);
	bool ok = !f->failed && xl_csv_file_flush(f);
	if (close(f->fd) != 0 && errno != EINTR)
		ok = false;
	free(f->buf);
	f->buf = NULL;
	f->fd = -1;
	return ok;
}
