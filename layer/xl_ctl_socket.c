/*
 * The control socket's file; see xl_ctl_socket.h.
 */
#include "xl_ctl_socket.h"

#include "u_ctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Pending connections the kernel queues before the thread accepts them. */
#define BACKLOG 16

/*
 * Opens $XDG_RUNTIME_DIR (which the session manager made: it must be a
 * directory of this user's that nobody else may write) and in it the
 * directory "xrlm", created 0700 if missing, never a symbolic link, owned by
 * this user; its mode is set back to 0700 if it was changed.
 */
static int open_socket_dir(const char *dir, char *why, size_t why_size)
{
	char parent[XL_PATH_MAX];
	struct stat st;

	snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(dir, '/') - dir), dir);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) != 0) {
		snprintf(why, why_size, "XDG_RUNTIME_DIR %s: %s", parent, strerror(errno));
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(why, why_size, "XDG_RUNTIME_DIR %s is %s", parent,
		         st.st_uid != geteuid() ? "not owned by this user" : "writable by others");
		close(pfd);
		return -1;
	}
	if (mkdirat(pfd, "xrlm", 0700) != 0 && errno != EEXIST) {
		snprintf(why, why_size, "cannot create %s: %s", dir, strerror(errno));
		close(pfd);
		return -1;
	}
	int fd = openat(pfd, "xrlm", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err = errno;
	close(pfd);
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(why, why_size, "%s: %s", dir,
		         err == ELOOP || err == ENOTDIR ? "not a directory (a symbolic link?)"
		                                        : strerror(err));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_uid != geteuid() || ((st.st_mode & 077) && fchmod(fd, 0700) != 0)) {
		snprintf(why, why_size, "%s is not this user's private directory", dir);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The address to bind @p name in the open directory @p dir_fd: through
 * /proc/self/fd, so that nothing renamed in the directory's path since it
 * was opened is followed (and a long path still fits); else the path.
 */
static bool socket_address(struct sockaddr_un *sa, int dir_fd, const char *name,
                           const char *path)
{
	char via[64];

	snprintf(via, sizeof(via), "/proc/self/fd/%d", dir_fd);
	sa->sun_family = AF_UNIX;
	int n = access(via, X_OK) == 0
	                ? snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s", via, name)
	                : snprintf(sa->sun_path, sizeof(sa->sun_path), "%s", path);
	return n > 0 && (size_t)n < sizeof(sa->sun_path);
}

/*
 * Removes a socket file of this pid that nobody listens on (an earlier
 * process's). Only a refused connection (or a file gone meanwhile) says so:
 * any other failure (EAGAIN: a live process's full backlog) leaves it be.
 */
static bool remove_stale(struct xl_ctl_socket *s, const struct sockaddr_un *sa, char *why,
                         size_t why_size)
{
	struct stat st;

	if (fstatat(s->dir_fd, s->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return true;
	int fd = S_ISSOCK(st.st_mode) ? u_ctl_connect(sa->sun_path) : -1;
	int err = fd >= 0 ? 0 : S_ISSOCK(st.st_mode) ? errno : ECONNREFUSED;
	if (fd >= 0)
		close(fd);
	if (err != ECONNREFUSED && err != ENOENT) {
		snprintf(why, why_size, "%s is in use by another process (another pid namespace?)%s%s",
		         s->path, err ? ": " : "", err ? strerror(err) : "");
		return false;
	}
	unlinkat(s->dir_fd, s->name, 0);
	return true;
}

static int listen_on(struct xl_ctl_socket *s, const struct sockaddr_un *sa, char *why,
                     size_t why_size)
{
	struct stat st;

	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, why_size, "socket: %s", strerror(errno));
		return -1;
	}
	/* Linux gives the file the mode of the unbound socket's inode (less the
	 * umask): 0600 from the start, with no window for another user. */
	fchmod(fd, 0600);
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) != 0 || listen(fd, BACKLOG) != 0 ||
	    fstatat(s->dir_fd, s->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		snprintf(why, why_size, "%s: %s", s->path, strerror(errno));
		close(fd);
		return -1;
	}
	s->ino = st.st_ino;
	return fd;
}

int xl_ctl_socket_open(struct xl_ctl_socket *s, char *why, size_t why_size)
{
	char dir[XL_PATH_MAX];
	struct sockaddr_un sa;

	memset(s, 0, sizeof(*s));
	s->fd = s->dir_fd = -1;
	if (!u_ctl_dir(dir, sizeof(dir), why, why_size))
		return -1;
	if (!u_ctl_socket_path(s->path, sizeof(s->path), dir, getpid())) {
		snprintf(why, why_size, "XDG_RUNTIME_DIR is too long");
		return -1;
	}
	snprintf(s->name, sizeof(s->name), "%d.sock", (int)getpid());
	s->dir_fd = open_socket_dir(dir, why, why_size);
	if (s->dir_fd < 0)
		return -1;
	if (!socket_address(&sa, s->dir_fd, s->name, s->path)) {
		snprintf(why, why_size, "%s: the path is too long for a socket", s->path);
	} else if (remove_stale(s, &sa, why, why_size)) {
		s->fd = listen_on(s, &sa, why, why_size);
		if (s->fd >= 0)
			return 0;
	}
	close(s->dir_fd);
	s->dir_fd = -1;
	return -1;
}

void xl_ctl_socket_close(struct xl_ctl_socket *s)
{
	struct stat st;

	if (s->fd < 0)
		return;
	close(s->fd);
	if (fstatat(s->dir_fd, s->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_ino == s->ino &&
	    S_ISSOCK(st.st_mode))
		unlinkat(s->dir_fd, s->name, 0);
	close(s->dir_fd);
	s->fd = s->dir_fd = -1;
}
