/*
 * Output files that appear whole or not at all: written under a temporary
 * name in the target's directory, created with O_CREAT|O_EXCL|O_NOFOLLOW
 * (mode 0644), then renamed into place without replacing anything.
 * Used by the merged CSV, `xrlm xlsx`, `xrlm trace` and `xrlm report`.
 */
#ifndef XRLM_OUT_FILE_H
#define XRLM_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "thread.h"

/*
 * Makes a SIGINT, SIGTERM or SIGHUP that ends the process remove the
 * temporary files out_file_create_tmp() made and that are not yet placed
 * or discarded, then end it as the signal would (status 128 + signal), so
 * that an interrupted `xrlm trace -o` leaves no hidden partial file behind
 * for ever. A signal the process ignores stays ignored. For a program's
 * main() before its first temporary file (xrlm, xrlm-xlsx), never for the
 * layers: the application owns its signals. Returns 0, or -1 with errno.
 */
int out_file_cleanup_on_signals(void);

/*
 * Creates a new temporary file for @p path: its name ".<name>.tmp-<pid>-<n>"
 * in @p path's directory goes to @p tmp (@p tmp_size bytes). Returns the
 * open descriptor (write-only, close-on-exec), or -1 with a message naming
 * @p path in @p msg. Until out_file_place(), out_file_replace() or
 * out_file_discard() the file is removed by a signal that ends the process
 * (out_file_cleanup_on_signals()).
 */
int out_file_create_tmp(const char *path, char *tmp, size_t tmp_size, char *msg, size_t msg_size);

/*
 * Makes a fatal signal (out_file_cleanup_on_signals()) remove @p path too:
 * a file this process has placed that is not whole without another still
 * to come (the functions file, placed before its merged file), until
 * out_file_unwatch(@p path). Nothing when the signals are not armed.
 */
void out_file_watch(const char *path);

/* @p path is whole (or removed): a fatal signal leaves it (out_file_watch()). */
void out_file_unwatch(const char *path);

/*
 * Creates a new temporary directory (0700) for another library's scratch
 * files while @p path is written: ".<name>.tmpd-<pid>-<n>" in @p path's
 * directory, into @p dir (@p dir_size bytes). Until out_file_discard_dir()
 * a signal that ends the process removes it and the files in it, those a
 * library had made and not yet unlinked included. Returns 0, or -1 with a
 * message naming @p path in @p msg.
 */
int out_file_create_tmp_dir(const char *path, char *dir, size_t dir_size, char *msg,
                            size_t msg_size);

/* Removes the temporary file @p tmp of a failed output (out_file_create_tmp()). */
void out_file_discard(const char *tmp);

/* Removes the temporary directory @p dir (out_file_create_tmp_dir()) and its files. */
void out_file_discard_dir(const char *dir);

/*
 * Whether @p path is free for a new output: 0, or -1 with the message
 * out_file_place() would give in @p msg. For a command to refuse before
 * its work what its last step would refuse anyway.
 */
int out_file_check_new(const char *path, char *msg, size_t msg_size);

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
 * from the same input (`xrlm report`); that @p path is not the input itself
 * is the caller's to check first (cmd_check_output()).
 */
int out_file_replace(const char *tmp, const char *path, char *msg, size_t msg_size);

/*
 * Removes the temporary files out_file_create_tmp() made for @p path that
 * their process left when it died (a merge cut short by a kill): regular
 * files named ".<name>.tmp-<pid>-<n>" beside @p path whose <pid> no longer
 * exists, and the directories ".<name>.tmpd-<pid>-<n>"
 * (out_file_create_tmp_dir()) with their files. A live process's are its
 * work in progress, left alone. Returns how many were removed.
 */
unsigned out_file_remove_stale(const char *path);

/*
 * out_file_remove_stale() for a command about to write @p path (`xrlm
 * xlsx`, `report`, `trace`: not the merge, whose directory may hold
 * thousands of files and whose start is timed; `xrlm merge DIR` clears a
 * session's): says on stderr how many it removed, if any.
 */
void out_file_clear_stale(const char *path);

/*
 * The pid of a live process that writes a temporary file for @p path (a
 * merge at work on it now: it holds the file open), 0 when there is none.
 * A file whose pid a later process has again is not its.
 */
pid_t out_file_writer(const char *path);

/*
 * Removes @p path only if it is still the file @p placed describes (its
 * lstat() after this process placed it): never another process's file
 * put there since. Returns 0, or -1 (not removed).
 */
int out_file_remove_placed(const char *path, const struct stat *placed);

/* Space reserved ahead of a file's writes (out_file_reserve_start()). */
struct out_reserve {
	struct thread thread;
	bool started;
	int fd;
	off_t bytes;
};

/*
 * Starts reserving the first @p bytes of the open file @p fd on a thread
 * of its own (fallocate(), a piece at a time from the start, stopping at
 * the first refusal: a filesystem without it, a full disk), so that the
 * writes that follow find their pages (tmpfs) or blocks allocated instead
 * of allocating them on the way, one write at a time. The file's size is
 * @p bytes meanwhile: out_file_reserve_finish() cuts it to what was
 * written. Does nothing when @p bytes exceed the file size limit
 * (RLIMIT_FSIZE) or the thread does not start; only speed depends on it.
 */
void out_file_reserve_start(struct out_reserve *r, int fd, off_t bytes);

/*
 * Waits for what out_file_reserve_start() started, if anything, and cuts
 * the file to its write offset (the end of what was written). Returns 0,
 * or an errno value when the cut failed.
 */
int out_file_reserve_finish(struct out_reserve *r);

/* The directory part of @p path into @p dir ("." when it has none, "/" for the root). */
void out_file_dir_of(const char *path, char *dir, size_t size);

#endif /* XRLM_OUT_FILE_H */
