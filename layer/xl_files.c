/*
 * Output directory and session files; see xl_files.h.
 */
#include "xl_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * Opens component @p name of the directory @p parent (creating it if missing)
 * without following a symlink planted in its place. An existing link that is
 * not the last component is followed only when root or this user owns it: a
 * link another user planted in a shared directory is refused, whatever
 * fs.protected_symlinks says. @p prefix is the path up to @p name, for @p why.
 */
static int open_component(int parent, const char *name, const char *prefix, bool last,
                          char *why, size_t why_size)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat st;

	int fd = openat(parent, name, flags);
	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(parent, name, 0755) != 0 && errno != EEXIST) {
			snprintf(why, why_size, "cannot create %s: %s", prefix, strerror(errno));
			return -1;
		}
		fd = openat(parent, name, flags);
	}
	if (fd >= 0)
		return fd;
	int err = errno;
	if ((err != ELOOP && err != ENOTDIR) ||
	    fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) {
		snprintf(why, why_size, "%s: %s", prefix, strerror(err));
		errno = err;
		return -1;
	}
	if (last || (st.st_uid != 0 && st.st_uid != geteuid())) {
		snprintf(why, why_size, last ? "%s is a symbolic link (the output directory itself "
		                               "must be a real directory): not followed"
		                             : "%s is a symbolic link owned by another user "
		                               "(uid %u): not followed",
		         prefix, (unsigned)st.st_uid);
		errno = ELOOP;
		return -1;
	}
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, why_size, "%s: %s", prefix, strerror(errno));
	return fd;
}

int xl_files_open_dir(const char *path, char *why, size_t why_size)
{
	char buf[4096];
	size_t len = strlen(path);
	struct stat st;

	if (len == 0 || len >= sizeof(buf)) {
		snprintf(why, why_size, "the path is empty or too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	int fd = open(buf[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Component by component from the root: mkdir -p without following links. */
	for (char *p = buf; fd >= 0 && *p;) {
		while (*p == '/')
			p++;
		char *end = p + strcspn(p, "/");
		if (end == p)
			break;
		bool last = end[strspn(end, "/")] == '\0';
		char saved = *end;
		*end = '\0'; /* buf is now the path up to this component */
		int next = open_component(fd, p, buf, last, why, why_size);
		int err = errno;
		close(fd);
		errno = err;
		fd = next;
		*end = saved;
		p = end;
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		/* st is not filled: no owner to name. */
		int err = errno;
		snprintf(why, why_size, "%s: %s", path, strerror(err));
		close(fd);
		errno = err;
		return -1;
	}
	if (st.st_uid != geteuid()) {
		snprintf(why, why_size, "%s is owned by another user (uid %u), not by this one "
		         "(uid %u): not used", path, (unsigned)st.st_uid, (unsigned)geteuid());
		close(fd);
		errno = EPERM;
		return -1;
	}
	/* Opened is not enough: one on a read-only filesystem, or whose mode
	 * keeps this user out, would be taken and record nothing; refused, the
	 * default directory is used instead (README "Output directory"). */
	if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) != 0) {
		int err = errno;
		snprintf(why, why_size, "%s cannot be written to: %s", path, strerror(err));
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

bool xl_files_dir_deleted(int dir_fd)
{
	struct stat st;
	return fstat(dir_fd, &st) == 0 && st.st_nlink == 0;
}

bool xl_files_dir_path(int dir_fd, char *out, size_t out_size)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dir_fd);
	ssize_t n = readlink(link, out, out_size - 1);
	if (n <= 0 || (size_t)n >= out_size - 1 || out[0] != '/')
		return false;
	out[n] = '\0';
	return true;
}

void xl_files_tag(char *out, size_t out_size, pid_t pid, int64_t start_realtime_s, uint32_t n)
{
	time_t t = (time_t)start_realtime_s;
	struct tm tm;
	char stamp[32];

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (n)
		snprintf(out, out_size, "%d-%s-%u", (int)pid, stamp, n);
	else
		snprintf(out, out_size, "%d-%s", (int)pid, stamp);
}

int xl_files_create(int dir_fd, const char *name)
{
	return openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}
