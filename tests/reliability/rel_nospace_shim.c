/*
 * LD_PRELOAD shim (test fixture only) of nospace.sh: a full disk without
 * root (no tmpfs to mount). write(2) to a file whose name matches one of
 * the fnmatch patterns in REL_NOSPACE_FILES (':'-separated, matched against
 * the file's base name) fails with ENOSPC once REL_NOSPACE_AFTER bytes
 * (default 0) have gone to such files in all, a write across the limit
 * being cut short, as a filling disk does; from the first failure on,
 * fstatvfs(2) reports no space free anywhere. Every other write passes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static atomic_ullong written; /* bytes written to matching files */
static atomic_bool full;      /* a write has failed */

/* Whether descriptor @p fd is a file REL_NOSPACE_FILES names. */
static int matches(int fd)
{
	const char *patterns = getenv("REL_NOSPACE_FILES");
	char link[64], path[4096], list[1024];

	if (!patterns || !patterns[0])
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(list, sizeof(list), "%s", patterns);
	char *save = NULL;
	for (char *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
		if (fnmatch(p, base, 0) == 0)
			return 1;
	return 0;
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (len == 0 || !matches(fd))
		return real_write(fd, buf, len);
	const char *after = getenv("REL_NOSPACE_AFTER");
	unsigned long long limit = after ? strtoull(after, NULL, 10) : 0;
	unsigned long long used = atomic_fetch_add(&written, len);
	if (used >= limit) {
		atomic_fetch_sub(&written, len);
		atomic_store(&full, 1);
		errno = ENOSPC;
		return -1;
	}
	if (len > limit - used) {
		atomic_fetch_sub(&written, len - (limit - used));
		len = limit - used;
	}
	return real_write(fd, buf, len);
}

__attribute__((visibility("default"))) int fstatvfs(int fd, struct statvfs *st)
{
	static int (*real_fstatvfs)(int, struct statvfs *);
	if (!real_fstatvfs)
		real_fstatvfs = (int (*)(int, struct statvfs *))dlsym(RTLD_NEXT, "fstatvfs");
	int rc = real_fstatvfs(fd, st);
	if (rc == 0 && atomic_load(&full)) {
		st->f_bavail = 0;
		st->f_bfree = 0;
	}
	return rc;
}
