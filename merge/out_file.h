/*
 * Output files that appear whole or not at all: written under a temporary
 * name in the target's directory, created with O_CREAT|O_EXCL|O_NOFOLLOW
 * (mode 0644), then renamed into place without replacing anything.
 * Used by the merged CSV, `xrlm xlsx`, `xrlm trace` and `xrlm report`.
 */
#ifndef XRLM_OUT_FILE_H
#define XRLM_OUT_FILE_H

#include <stddef.h>

/*
 * Creates a new temporary file for @p path: its name ".<name>.tmp-<pid>-<n>"
 * in @p path's directory goes to @p tmp (@p tmp_size bytes). Returns the
 * open descriptor (write-only, close-on-exec), or -1 with a message naming
 * @p path in @p msg.
 */
int out_file_create_tmp(const char *path, char *tmp, size_t tmp_size, char *msg, size_t msg_size);

/*
 * Renames the finished @p tmp to @p path, never replacing an existing file.
 * On failure removes @p tmp and returns -1 with a message in @p msg.
 */
int out_file_place(const char *tmp, const char *path, char *msg, size_t msg_size);

/*
 * Renames the finished @p tmp to @p path, replacing what is there only when
 * it is this user's own regular file (never a link, a device such as
 * /dev/null, a directory or another user's file). On failure removes @p tmp
 * and returns -1 with a message in @p msg. For outputs made again and again
 * from the same input (`xrlm report`).
 */
int out_file_replace(const char *tmp, const char *path, char *msg, size_t msg_size);

/*
 * Removes the temporary files out_file_create_tmp() made for @p path that
 * their process left when it died (a merge cut short by a kill): regular
 * files named ".<name>.tmp-<pid>-<n>" beside @p path whose <pid> no longer
 * exists. A live process's file is its work in progress, left alone.
 * Returns how many were removed.
 */
unsigned out_file_remove_stale(const char *path);

/* The directory part of @p path into @p dir ("." when it has none, "/" for the root). */
void out_file_dir_of(const char *path, char *dir, size_t size);

#endif /* XRLM_OUT_FILE_H */
