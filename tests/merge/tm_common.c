/*
 * Helpers shared by the merge unit tests; see tm_common.h.
 */
#include "tm_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tm_log_fn(void *ctx, const char *message)
{
	struct tm_log *l = ctx;
	size_t n = strlen(l->all);

	l->count++;
	snprintf(l->last, sizeof(l->last), "%s", message);
	snprintf(l->all + n, sizeof(l->all) - n, "%s\n", message);
}

void tm_dir_create(char *out, size_t size)
{
	const char *base = getenv("TMPDIR");
	snprintf(out, size, "%s/xrlm-merge-test-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(out)) {
		perror("mkdtemp");
		abort();
	}
}

void tm_dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

int tm_dir_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

const char *tm_rows_of(const char *text)
{
	const char *h = strstr(text, "\ndisplay_time,thread_id,");
	if (h)
		h = strchr(h + 1, '\n');
	return h ? h + 1 : "(no column header in the merged file)";
}

char *tm_file_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

int tm_file_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fputs(text, f) >= 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

const char *tm_data(const char *name)
{
	static char bufs[4][4096];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", TEST_DATA_DIR, name);
	return b;
}

int tm_merge_session(const char *pre_csv, struct merge_siblings *sib)
{
	struct merge_paths paths;

	if (merge_sibling_paths(pre_csv, NULL, sib) != 0)
		return -1;
	merge_paths_from_siblings(sib, pre_csv, &paths);
	unlink(sib->merged_csv);
	unlink(sib->functions_csv);
	return merge_files(&paths, sib->merged_csv, NULL, NULL, NULL);
}
