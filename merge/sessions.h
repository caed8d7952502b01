/*
 * The recording sessions in an output directory, found by their files'
 * names (README, Files): frames-<tag>-pre.csv, frames-<tag>-post.csv,
 * gpu-<tag>-pre.csv, gpu-<tag>-post.csv, frames-merged-<tag>.csv, with
 * <tag> = <pid>-<YYYYmmddTHHMMSS>[-<n>]. Used by `xrlm ls DIR` and
 * `xrlm merge DIR`.
 */
#ifndef XRLM_SESSIONS_H
#define XRLM_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "merge.h"

/* The files a session can have. */
enum sessions_file {
	SESSIONS_FRAMES_PRE,
	SESSIONS_FRAMES_POST,
	SESSIONS_GPU_PRE,
	SESSIONS_GPU_POST,
	SESSIONS_MERGED,
	SESSIONS_FILE_COUNT,
};

/* Longest tag kept: "<pid>-YYYYmmddTHHMMSS-<n>" with room to spare. */
#define SESSIONS_TAG_MAX 64

/* One session. */
struct sessions_entry {
	char tag[SESSIONS_TAG_MAX];
	pid_t pid;
	char stamp[16];   /* "YYYYmmddTHHMMSS" (local time of the start) */
	unsigned seq;     /* the "-<n>" suffix; 0 without one */
	bool has[SESSIONS_FILE_COUNT];
};

/* The sessions of a directory, sorted by start time (then pid, then n). */
struct sessions {
	char dir[MERGE_PATH_MAX];
	struct sessions_entry *v;
	size_t n;
};

/*
 * Lists the sessions of @p dir into @p out. Returns 0, or -1 with one
 * message naming the directory in @p msg (missing, unreadable, not a
 * directory, out of memory).
 */
int sessions_scan(const char *dir, struct sessions *out, char *msg, size_t msg_size);

/* True when @p path is a directory (links followed). */
bool sessions_is_dir(const char *path);

/* Frees the list. */
void sessions_destroy(struct sessions *s);

/*
 * The path of file @p which of @p e in @p s's directory, into @p buf.
 * Returns 0, or -1 when it does not fit.
 */
int sessions_path(const struct sessions *s, const struct sessions_entry *e,
                  enum sessions_file which, char *buf, size_t size);

/* "YYYY-mm-dd HH:MM:SS" of @p e's start into @p buf (at least 20 bytes). */
void sessions_start_text(const struct sessions_entry *e, char *buf, size_t size);

/* What became of the process that wrote a session (sessions_writer()). */
enum sessions_writer {
	SESSIONS_WRITER_GONE,      /* not running: the session is what it left */
	SESSIONS_WRITER_RECORDING, /* running, and may still be recording it */
	SESSIONS_WRITER_MERGING,   /* running, its files closed: its post layer merges it */
};

/*
 * Whether the process that wrote @p e is still running, and what it may be
 * doing with the session. The process of the tag's pid is the writer when
 * it has one of the session's per-side files open (recording); or when it
 * has the session's directory open, which the layers' writers hold while
 * their instance lives, and started no later than the session's per-side
 * files last changed (their ctime: not the tag's stamp, the writer's local
 * time, whatever time zone it had): its files closed, the post layer's
 * merge of it is to come or running, unless post's log says it left the
 * session to `xrlm merge` (its merge queue full); or, where its descriptors cannot be
 * read (another user's process), when it started no later than that
 * (taken as recording). A pid used again by a later process is not taken
 * for the writer; where the descriptors cannot be read, an older process
 * of that pid is (a container's pid 1 seen from the host by a user other
 * than root: its session is merged by naming its files).
 */
enum sessions_writer sessions_writer(const struct sessions *s, const struct sessions_entry *e);

#endif /* XRLM_SESSIONS_H */
