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

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Creates @p path and its parents as needed and opens it; -1 and errno on failure. */
int xl_files_open_dir(const char *path);

/*
 * Formats a session tag "<pid>-<YYYYmmddTHHMMSS>[-<n>]" (local time of the
 * session start; no suffix for n = 0) into @p out.
 */
void xl_files_tag(char *out, size_t out_size, pid_t pid, int64_t start_realtime_s, uint32_t n);

/* Creates the new file @p name in @p dir_fd for buffered writing; NULL and errno on failure. */
FILE *xl_files_create(int dir_fd, const char *name);

#endif /* XL_FILES_H */
