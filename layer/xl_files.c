/*
 * Output directory and session files; see xl_files.h.
 */
#include "xl_files.h"

#include "quote.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Links followed on the way to the output directory, at most (the kernel's own limit). */
#define LINKS_MAX 40

static int walk(int fd, char *path, const char *via, bool ends, int *links, char *why,
                size_t why_size);

/*
 * Follows link @p name of @p parent (root's or this user's), whose path is
 * @p via @p prefix, as a path is walked: its target component by
 * component, so that a link there owned by another user is refused as one
 * in the path is. The kernel would follow the whole chain: the user's own
 * link to a planted one led through it. @p links counts the links
 * followed so far.
 */
static int follow_link(int parent, const char *name, const char *via, const char *prefix,
                       int *links, char *why, size_t why_size)
{
	if (++*links > LINKS_MAX) {
		snprintf(why, why_size, "%s%s: too many levels of symbolic links", via, prefix);
		errno = ELOOP;
		return -1;
	}
	char *target = malloc(PATH_MAX);
	ssize_t n = target ? readlinkat(parent, name, target, PATH_MAX - 1) : -1;
	if (n <= 0 || n >= PATH_MAX - 1) {
		int err = !target ? ENOMEM : n < 0 ? errno : n == 0 ? ENOENT : ENAMETOOLONG;
		snprintf(why, why_size, "%s%s: %s", via, prefix, strerror(err));
		free(target);
		errno = err;
		return -1;
	}
	target[n] = '\0';
	/* Messages name a component of the target after the link: "LINK -> TARGET". */
	char *shown = malloc(strlen(via) + strlen(prefix) + 5);
	int fd = target[0] == '/' ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
	                          : fcntl(parent, F_DUPFD_CLOEXEC, 0);
	if (!shown || fd < 0) {
		int err = shown ? errno : ENOMEM;
		snprintf(why, why_size, "%s%s: %s", via, prefix, strerror(err));
		if (fd >= 0)
			close(fd);
		free(shown);
		free(target);
		errno = err;
		return -1;
	}
	sprintf(shown, "%s%s -> ", via, prefix);
	fd = walk(fd, target, shown, false, links, why, why_size);
	int err = errno;
	/* Past the limit the chain shown ("A -> B -> ...", 40 links) outgrows
	 * @p why, and the reason was cut off: the first link is named instead. */
	if (fd < 0 && err == ELOOP && *links > LINKS_MAX && !via[0])
		snprintf(why, why_size, "%s: too many levels of symbolic links (more than %d)",
		         prefix, LINKS_MAX);
	free(shown);
	free(target);
	errno = err;
	return fd;
}

/*
 * Opens component @p name of the directory @p parent (creating it if missing)
 * without following a symlink planted in its place. An existing link that is
 * not the last component is followed only when root or this user owns it: a
 * link another user planted in a shared directory is refused, whatever
 * fs.protected_symlinks says; so is one in such a link's target. @p via
 * @p prefix is the path up to @p name, for @p why.
 */
static int open_component(int parent, const char *name, const char *via, const char *prefix,
                          bool last, int *links, char *why, size_t why_size)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat st;

	int fd = openat(parent, name, flags);
	if (fd < 0 && errno == ENOENT) {
		/* The output directory itself is private (app names, timings,
		 * marks): 0700; the directories on the way to it 0755. */
		if (mkdirat(parent, name, last ? 0700 : 0755) != 0 && errno != EEXIST) {
			snprintf(why, why_size, "cannot create %s%s: %s", via, prefix, strerror(errno));
			return -1;
		}
		fd = openat(parent, name, flags);
	}
	if (fd >= 0)
		return fd;
	int err = errno;
	if ((err != ELOOP && err != ENOTDIR) ||
	    fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) {
		snprintf(why, why_size, "%s%s: %s", via, prefix, strerror(err));
		errno = err;
		return -1;
	}
	if (last || (st.st_uid != 0 && st.st_uid != geteuid())) {
		snprintf(why, why_size, last ? "%s%s is a symbolic link (the output directory itself "
		                               "must be a real directory): not followed"
		                             : "%s%s is a symbolic link owned by another user "
		                               "(uid %u): not followed",
		         via, prefix, (unsigned)st.st_uid);
		errno = ELOOP;
		return -1;
	}
	return follow_link(parent, name, via, prefix, links, why, why_size);
}

/*
 * Walks @p path (a buffer it cuts and restores) from the directory @p fd,
 * which it takes over, component by component: mkdir -p without following
 * links but root's and this user's (open_component()). @p ends: the
 * path's last component is the output directory itself. Returns the last
 * component's descriptor, or -1 with @p why set.
 */
static int walk(int fd, char *path, const char *via, bool ends, int *links, char *why,
                size_t why_size)
{
	for (char *p = path; fd >= 0 && *p;) {
		while (*p == '/')
			p++;
		char *end = p + strcspn(p, "/");
		if (end == p)
			break;
		bool last = ends && end[strspn(end, "/")] == '\0';
		char saved = *end;
		*end = '\0'; /* path is now the path up to this component */
		int next = open_component(fd, p, via, path, last, links, why, why_size);
		int err = errno;
		close(fd);
		errno = err;
		fd = next;
		*end = saved;
		p = end;
	}
	return fd;
}

int xl_files_open_dir(const char *path, char *why, size_t why_size)
{
	char buf[4096];
	size_t len = strlen(path);
	struct stat st;
	int links = 0;

	if (len == 0 || len >= sizeof(buf)) {
		snprintf(why, why_size, "the path is empty or too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	int fd = open(buf[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = walk(fd, buf, "", true, &links, why, why_size);
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

const char *xl_files_dir_now(int dir_fd, const char *path, char *out, size_t out_size)
{
	if (dir_fd < 0 || xl_files_dir_deleted(dir_fd) || !xl_files_dir_path(dir_fd, out, out_size))
		return path;
	return out;
}

const char *xl_files_dir_shown(int dir_fd, const char *path, char *buf, size_t size)
{
	char now[PATH_MAX];

	path = xl_files_dir_now(dir_fd, path, now, sizeof(now));
	return quote_path_to(buf, size, path, (size_t)-1);
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
