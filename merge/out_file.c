/*
 * Output files that appear whole or not at all; see out_file.h.
 */
#include "out_file.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The part of @p path after its last '/'. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int out_file_create_tmp(const char *path, char *tmp, size_t tmp_size, char *msg, size_t msg_size)
{
	const char *name = base_name(path);
	int dir_len = (int)(name - path);
	struct timespec ts;

	if (!tmp || tmp_size == 0) {
		snprintf(msg, msg_size, "%s: error: no room for a temporary name", path);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* O_EXCL makes a clash fail instead of sharing a file; retry with
	 * another name, which only a concurrent writer could cause. */
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		unsigned long long salt = (unsigned long long)ts.tv_nsec + attempt * 7919ull;
		int n = snprintf(tmp, tmp_size, "%.*s.%s.tmp-%d-%llx", dir_len, path, name,
		                 (int)getpid(), salt);
		if (n < 0 || (size_t)n >= tmp_size) {
			snprintf(msg, msg_size, "%s: error: path too long", path);
			return -1;
		}
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			snprintf(msg, msg_size, "%s: error: cannot create a temporary file: %s", path,
			         strerror(errno));
			return -1;
		}
	}
	snprintf(msg, msg_size, "%s: error: cannot create a temporary file", path);
	return -1;
}

/* Puts @p tmp at @p path without replacing anything. */
static int place(const char *tmp, const char *path)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* The file system has no RENAME_NOREPLACE: link() also refuses to
	 * replace, and the name appears complete all at once. */
	if (link(tmp, path) != 0)
		return -1;
	unlink(tmp);
	return 0;
}

int out_file_place(const char *tmp, const char *path, char *msg, size_t msg_size)
{
	if (place(tmp, path) == 0)
		return 0;
	int err = errno;
	if (err == EEXIST)
		snprintf(msg, msg_size, "%s: error: already exists; not overwriting it", path);
	else
		snprintf(msg, msg_size, "%s: error: cannot rename into place: %s", path, strerror(err));
	unlink(tmp);
	return -1;
}

int out_file_replace(const char *tmp, const char *path, char *msg, size_t msg_size)
{
	struct stat st;

	if (lstat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		snprintf(msg, msg_size, "%s: error: exists and is not a regular file of this user; "
		         "not replacing it", path);
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) == 0)
		return 0;
	snprintf(msg, msg_size, "%s: error: cannot rename into place: %s", path, strerror(errno));
	unlink(tmp);
	return -1;
}

/* True when process @p pid no longer exists (EPERM: it does, another user's). */
static bool pid_gone(long pid)
{
	return pid > 0 && pid <= INT_MAX && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

unsigned out_file_remove_stale(const char *path)
{
	char dir[4096], prefix[512];
	const char *name = base_name(path);
	unsigned removed = 0;
	struct dirent *d;
	struct stat st;

	out_file_dir_of(path, dir, sizeof(dir));
	int n = snprintf(prefix, sizeof(prefix), ".%s.tmp-", name);
	DIR *h = opendir(dir);
	if (n < 0 || (size_t)n >= sizeof(prefix) || !h) {
		if (h)
			closedir(h);
		return 0;
	}
	while ((d = readdir(h)) != NULL) {
		char *end;
		if (strncmp(d->d_name, prefix, (size_t)n) != 0)
			continue;
		long pid = strtol(d->d_name + n, &end, 10);
		if (*end != '-' || !pid_gone(pid) ||
		    fstatat(dirfd(h), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		removed += unlinkat(dirfd(h), d->d_name, 0) == 0;
	}
	closedir(h);
	return removed;
}

void out_file_dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* Bytes reserved by one fallocate(): a write waits for the one under way. */
#define RESERVE_PIECE ((off_t)1 << 20)

static void *reserve_main(void *arg)
{
	const struct out_reserve *r = arg;

	for (off_t off = 0; off < r->bytes; off += RESERVE_PIECE) {
		off_t len = r->bytes - off < RESERVE_PIECE ? r->bytes - off : RESERVE_PIECE;
		if (fallocate(r->fd, 0, off, len) != 0)
			break;
	}
	return NULL;
}

void out_file_reserve_start(struct out_reserve *r, int fd, off_t bytes)
{
	struct rlimit limit;

	*r = (struct out_reserve){.fd = fd, .bytes = bytes};
	if (bytes <= 0 || getrlimit(RLIMIT_FSIZE, &limit) != 0 ||
	    (limit.rlim_cur != RLIM_INFINITY && (rlim_t)bytes > limit.rlim_cur))
		return;
	r->started = thread_start(&r->thread, reserve_main, r) == 0;
}

int out_file_reserve_finish(struct out_reserve *r)
{
	if (!r->started)
		return 0;
	thread_join(&r->thread);
	r->started = false;
	off_t end = lseek(r->fd, 0, SEEK_CUR);
	if (end < 0 || ftruncate(r->fd, end) != 0)
		return errno;
	return 0;
}
