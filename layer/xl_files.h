/*
 * The output directory and the files a session writes into it.
 *
 * Every file is created relative to a directory descriptor with
 * O_CREAT | O_EXCL | O_NOFOLLOW: an existing file, or a symlink planted in
 * its place, is never opened, so no session overwrites another's files and
 * nothing outside the output directory is written.
 */
#ifndef XL_FILES_H
#define XL_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Creates @p path and its parents as needed and opens it, following no
 * symlink planted in its way (see README "Output directory"): the last
 * component must be a real directory owned by this user. -1 and errno on
 * failure, with the reason (naming the component) in @p why.
 */
int xl_files_open_dir(const char *path, char *why, size_t why_size);

/* Whether the directory open as @p dir_fd has been deleted (rmdir, rm -r). */
bool xl_files_dir_deleted(int dir_fd);

/* The path the kernel resolves @p dir_fd to, into @p out; false if unknown. */
bool xl_files_dir_path(int dir_fd, char *out, size_t out_size);

/*
 * Where the directory open as @p dir_fd is now, for a message: its path
 * looked up from the descriptor (into @p out), which follows a rename of
 * the directory, or else @p path, the one it was opened by (no /proc, no
 * descriptor, or the directory was deleted: the path it is made again at).
 */
const char *xl_files_dir_now(int dir_fd, const char *path, char *out, size_t out_size);

/*
 * xl_files_dir_now() as a message shows it, into @p buf (@p size bytes, at
 * least QUOTE_PATH_MAX): with C escapes where quote_path() puts them.
 */
const char *xl_files_dir_shown(int dir_fd, const char *path, char *buf, size_t size);

/*
 * Formats a session tag "<pid>-<YYYYmmddTHHMMSS>[-<n>]" (local time of the
 * session start; no suffix for n = 0) into @p out.
 */
void xl_files_tag(char *out, size_t out_size, pid_t pid, int64_t start_realtime_s, uint32_t n);

/* Creates the new file @p name in @p dir_fd, write-only; its descriptor, or -1 and errno. */
int xl_files_create(int dir_fd, const char *name);

#endif /* XL_FILES_H */
