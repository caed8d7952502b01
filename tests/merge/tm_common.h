/*
 * Helpers shared by the merge unit tests: temporary directories, whole-file
 * reads and a log callback that records what it was given.
 */
#ifndef TM_COMMON_H
#define TM_COMMON_H

#include <stddef.h>

#include "merge.h"

/* Records the log lines a merge produced. */
struct tm_log {
	int count;
	char last[1024];
	char all[8192];
};

/* merge_log_fn that appends to a struct tm_log. */
void tm_log_fn(void *ctx, const char *message);

/* A fresh directory under $TMPDIR (or /tmp); the path is static per call site use. */
void tm_dir_create(char *out, size_t size);

/* Removes the files in @p dir and the directory. */
void tm_dir_remove(const char *dir);

/* Number of entries (other than . and ..) in @p dir. */
int tm_dir_count(const char *dir);

/* Whole file as a NUL-terminated malloc'ed string, or NULL. */
char *tm_file_read(const char *path);

/*
 * The part of merged CSV text @p text after its column header; a text no
 * expected rows can equal when it has no header.
 */
const char *tm_rows_of(const char *text);

/* Writes @p text to @p path; returns 0 on success. */
int tm_file_write(const char *path, const char *text);

/* "<DATA_DIR>/<name>" in a static buffer (one of a few rotating). */
const char *tm_data(const char *name);

/*
 * Merges the session of per-side file @p pre_csv into its default outputs
 * (removed first; their paths in @p sib), as the post layer's merge does.
 * Returns 0 or -1.
 */
int tm_merge_session(const char *pre_csv, struct merge_siblings *sib);

#endif
