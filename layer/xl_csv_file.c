/*
 * Session output CSVs; see xl_csv_file.h.
 */
#include "xl_csv_file.h"

#include "xl_files.h"

#include <string.h>

int xl_csv_file_create(struct xl_csv_file *f, int dir_fd, const char *name)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->file = xl_files_create(dir_fd, name);
	return f->file ? 0 : -1;
}

static bool put(struct xl_csv_file *f, const char *data, size_t len)
{
	if (f->failed || !f->file)
		return false;
	if (fwrite(data, 1, len, f->file) != len)
		f->failed = true;
	return !f->failed;
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
	if (f->failed || !f->file)
		return false;
	if (fflush(f->file) != 0)
		f->failed = true;
	return !f->failed;
}

bool xl_csv_file_close(struct xl_csv_file *f, const char *footer)
{
	if (!f->file)
		return false;
	if (footer)
		xl_csv_file_text(f, footer);
	bool ok = !f->failed;
	if (fclose(f->file) != 0)
		ok = false;
	f->file = NULL;
	return ok;
}
