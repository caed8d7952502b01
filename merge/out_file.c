/*
 * Output files that appear whole or not at all; see out_file.h.
 */
#include "out_file.h"
#include "proc_fd.h"
#include "quote.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The temporary files a fatal signal removes (out_file_cleanup_on_signals()):
 * a few slots, each a path or "". The threads that change them take
 * pending_lock; the handler cannot (the thread it interrupts may hold it),
 * so it reads a slot as a seqlock: a path is written only while its seq is
 * odd, by a thread that blocks the signals meanwhile, so that the handler,
 * always on another thread then, waits for an even seq and copies a whole
 * path. More files at once than slots (none of xrlm's commands writes more
 * than two) are not removed.
 */
#define PENDING_SLOTS 16
#define PENDING_PATH_MAX 4096

struct pending {
	bool claimed; /* under pending_lock */
	atomic_uint seq;
	char path[PENDING_PATH_MAX];
};

static struct pending pending[PENDING_SLOTS];
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool pending_armed;
static atomic_bool pending_dying;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define CLEANUP_SIGNAL_COUNT (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

static void cleanup_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; i++)
		sigaddset(set, cleanup_signals[i]);
}

/* Slot @p p's path becomes @p path ("" for none); pending_lock held. */
static void pending_write(struct pending *p, const char *path)
{
	sigset_t block, old;
	unsigned seq = atomic_load_explicit(&p->seq, memory_order_relaxed);

	cleanup_signal_set(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	/* Odd, and an acquire: the path's bytes are written after it (a
	 * read-modify-write, not a store and a fence: ThreadSanitizer builds
	 * take no fence, -Wtsan). */
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_acq_rel);
	snprintf(p->path, sizeof(p->path), "%s", path);
	atomic_store_explicit(&p->seq, seq + 2, memory_order_release);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* A free slot for one temporary file, or NULL (not armed, all taken). */
static struct pending *pending_claim(void)
{
	struct pending *got = NULL;

	if (!atomic_load(&pending_armed))
		return NULL;
	pthread_mutex_lock(&pending_lock);
	for (size_t i = 0; i < PENDING_SLOTS && !got; i++) {
		if (!pending[i].claimed) {
			got = &pending[i];
			got->claimed = true;
		}
	}
	pthread_mutex_unlock(&pending_lock);
	return got;
}

/* Slot @p p (NULL: none) names @p path, which a fatal signal removes. */
static void pending_set(struct pending *p, const char *path)
{
	if (!p || strlen(path) >= PENDING_PATH_MAX)
		return;
	pthread_mutex_lock(&pending_lock);
	pending_write(p, path);
	pthread_mutex_unlock(&pending_lock);
}

static void pending_release(struct pending *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&pending_lock);
	pending_write(p, "");
	p->claimed = false;
	pthread_mutex_unlock(&pending_lock);
}

/* The slot of @p path let go, once the file is placed or removed. */
static void pending_forget(const char *path)
{
	/* "" is also a slot's name between its claim and its first name. */
	if (!atomic_load(&pending_armed) || !path[0])
		return;
	pthread_mutex_lock(&pending_lock);
	for (size_t i = 0; i < PENDING_SLOTS; i++) {
		if (pending[i].claimed && strcmp(pending[i].path, path) == 0) {
			pending_write(&pending[i], "");
			pending[i].claimed = false;
			break;
		}
	}
	pthread_mutex_unlock(&pending_lock);
}

void out_file_watch(const char *path)
{
	pending_set(pending_claim(), path);
}

void out_file_unwatch(const char *path)
{
	pending_forget(path);
}

/*
 * Slot @p p's path into @p out, from the signal handler: false when it has
 * none, or when it stays in change past ~100 ms (a writer thread stopped).
 */
static bool pending_read(struct pending *p, char out[PENDING_PATH_MAX])
{
	const struct timespec pause_ns = {0, 100000};

	for (int tries = 0; tries < 1000; tries++) {
		unsigned seq = atomic_load_explicit(&p->seq, memory_order_acquire);
		if (seq & 1) {
			nanosleep(&pause_ns, NULL);
			continue;
		}
		memcpy(out, p->path, PENDING_PATH_MAX);
		/* A release: the bytes are read before it (a read-modify-write of
		 * nothing, for the same reason as pending_write()'s). */
		if (atomic_fetch_add_explicit(&p->seq, 0, memory_order_acq_rel) == seq)
			return out[0] != '\0';
	}
	return false;
}

/* A directory entry as getdents64(2) returns it. */
struct dirent_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * Async-signal-safe (system calls only, no opendir()'s allocation): removes
 * the temporary directory @p path with the files in it.
 */
static void remove_tmp_dir(const char *path)
{
	char buf[4096] __attribute__((aligned(8)));
	long n;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	/* Removing entries while reading: read again until none is left. */
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent_raw *d = (const struct dirent_raw *)(buf + at);
			if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0)
				unlinkat(fd, d->name, 0);
			at += d->reclen;
		}
	}
	close(fd);
	rmdir(path);
}

/*
 * Async-signal-safe: removes the pending temporary files (and directories,
 * which unlink() refuses with EISDIR), then ends the process by the same
 * signal's default action, so that the exit status stays 128 + signal. A
 * second signal on another thread meanwhile waits for the first's end
 * instead of ending the process half cleaned.
 */
static void cleanup_handler(int sig)
{
	char path[PENDING_PATH_MAX];
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	int saved_errno = errno; /* unlink() of a directory sets it (EISDIR) */

	if (atomic_exchange(&pending_dying, true)) {
		for (;;)
			pause();
	}
	for (size_t i = 0; i < PENDING_SLOTS; i++) {
		if (pending_read(&pending[i], path) && unlink(path) != 0 && errno == EISDIR)
			remove_tmp_dir(path);
	}
	/* Blocked until this handler returns, then fatal. errno as it was,
	 * as a handler leaves it (ThreadSanitizer checks), though the
	 * interrupted code never runs again. */
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved_errno;
}

int out_file_cleanup_on_signals(void)
{
	struct sigaction sa = {.sa_handler = cleanup_handler};

	cleanup_signal_set(&sa.sa_mask);
	atomic_store(&pending_armed, true);
	for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; i++) {
		struct sigaction old;
		if (sigaction(cleanup_signals[i], NULL, &old) != 0)
			return -1;
		/* nohup's SIGHUP, a background job's SIGINT: left ignored. */
		if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		if (sigaction(cleanup_signals[i], &sa, NULL) != 0)
			return -1;
	}
	return 0;
}

/* The part of @p path after its last '/'. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/*
 * Tries names for @p path's temporary file until one is created. Each name
 * is in slot @p slot before it is created, so that no signal finds the file
 * there and unnamed; a name that clashes (EEXIST) is one of this pid's, this
 * process's own or a dead one's, which a signal meanwhile may remove too.
 */
static int create_tmp(const char *path, bool dir, char *tmp, size_t tmp_size,
                      struct pending *slot, char *msg, size_t msg_size)
{
	const char *name = base_name(path);
	int dir_len = (int)(name - path);
	struct timespec ts;
	char q[QUOTE_PATH_MAX];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* O_EXCL makes a clash fail instead of sharing a file; retry with
	 * another name, which only a concurrent writer could cause. */
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		unsigned long long salt = (unsigned long long)ts.tv_nsec + attempt * 7919ull;
		int n = snprintf(tmp, tmp_size, "%.*s.%s.%s-%d-%llx", dir_len, path, name,
		                 dir ? "tmpd" : "tmp", (int)getpid(), salt);
		if (n < 0 || (size_t)n >= tmp_size) {
			snprintf(msg, msg_size, "%s: error: path too long", quote_path(q, path));
			return -1;
		}
		pending_set(slot, tmp);
		int fd = dir ? mkdir(tmp, 0700)
		             : open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			snprintf(msg, msg_size, "%s: error: cannot create a temporary %s: %s",
			         quote_path(q, path), dir ? "directory" : "file", strerror(errno));
			return -1;
		}
	}
	snprintf(msg, msg_size, "%s: error: cannot create a temporary file", quote_path(q, path));
	return -1;
}

int out_file_create_tmp(const char *path, char *tmp, size_t tmp_size, char *msg, size_t msg_size)
{
	if (!tmp || tmp_size == 0) {
		char q[QUOTE_PATH_MAX];
		snprintf(msg, msg_size, "%s: error: no room for a temporary name", quote_path(q, path));
		return -1;
	}
	struct pending *slot = pending_claim();
	int fd = create_tmp(path, false, tmp, tmp_size, slot, msg, msg_size);
	if (fd < 0)
		pending_release(slot);
	return fd;
}

int out_file_create_tmp_dir(const char *path, char *dir, size_t dir_size, char *msg,
                            size_t msg_size)
{
	struct pending *slot = pending_claim();
	int r = create_tmp(path, true, dir, dir_size, slot, msg, msg_size);
	if (r < 0)
		pending_release(slot);
	return r < 0 ? -1 : 0;
}

void out_file_discard(const char *tmp)
{
	unlink(tmp);
	pending_forget(tmp);
}

void out_file_discard_dir(const char *dir)
{
	remove_tmp_dir(dir);
	pending_forget(dir);
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

/* The message of a file never replaced, @p path being there. */
static void say_exists(const char *path, char *msg, size_t msg_size)
{
	char q[QUOTE_PATH_MAX];

	snprintf(msg, msg_size, "%s: error: already exists; not overwriting it", quote_path(q, path));
}

int out_file_check_new(const char *path, char *msg, size_t msg_size)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return 0;
	say_exists(path, msg, msg_size);
	return -1;
}

int out_file_place(const char *tmp, const char *path, char *msg, size_t msg_size)
{
	if (place(tmp, path) == 0) {
		pending_forget(tmp);
		return 0;
	}
	int err = errno;
	char q[QUOTE_PATH_MAX];
	if (err == EEXIST)
		say_exists(path, msg, msg_size);
	else
		snprintf(msg, msg_size, "%s: error: cannot rename into place: %s", quote_path(q, path),
		         strerror(err));
	out_file_discard(tmp);
	return -1;
}

int out_file_replace(const char *tmp, const char *path, char *msg, size_t msg_size)
{
	struct stat st;
	char q[QUOTE_PATH_MAX];

	if (lstat(path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		snprintf(msg, msg_size, "%s: error: exists and is not a regular file of this user; "
		         "not replacing it", quote_path(q, path));
		out_file_discard(tmp);
		return -1;
	}
	if (rename(tmp, path) == 0) {
		pending_forget(tmp);
		return 0;
	}
	snprintf(msg, msg_size, "%s: error: cannot rename into place: %s", quote_path(q, path),
	         strerror(errno));
	out_file_discard(tmp);
	return -1;
}

/*
 * True when process @p pid (1 to INT_MAX: scan_tmp() checks) no longer
 * exists (EPERM: it does, another user's).
 */
static bool pid_gone(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/*
 * Whether process @p pid, which exists, is the writer of the temporary
 * file @p st: it holds it open, as a merge does from its start to its
 * rename. One whose descriptors cannot be read (another user's) is taken
 * as the writer; one that only has the dead writer's pid again is not.
 */
static bool tmp_writer(long pid, const struct stat *st)
{
	return proc_fd_open((pid_t)pid, st, 1, NULL) != 0;
}

/*
 * The pid in temporary name @p name after its @p prefix_len bytes of
 * prefix ("<pid>-<salt>"), or 0 when it holds none.
 */
static pid_t tmp_pid(const char *name, size_t prefix_len)
{
	char *end;
	long pid = strtol(name + prefix_len, &end, 10);

	return *end == '-' && pid > 0 && pid <= INT_MAX ? (pid_t)pid : 0;
}

/*
 * Looks at the temporary files out_file_create_tmp() made for @p path:
 * with @p remove, those whose process is gone are removed (counted in the
 * result), and so are the temporary directories out_file_create_tmp_dir()
 * made for it, with their files; *@p live (when not NULL) gets the pid of
 * a process that still writes one of the files (tmp_writer()), 0 for none.
 */
static unsigned scan_tmp(const char *path, bool remove, pid_t *live)
{
	char dir[4096], file_prefix[512], dir_prefix[512], sub[4096 + 512];
	const char *name = base_name(path);
	unsigned removed = 0;
	struct dirent *d;
	struct stat st;

	if (live)
		*live = 0;
	out_file_dir_of(path, dir, sizeof(dir));
	int nf = snprintf(file_prefix, sizeof(file_prefix), ".%s.tmp-", name);
	int nd = snprintf(dir_prefix, sizeof(dir_prefix), ".%s.tmpd-", name);
	DIR *h = opendir(dir);
	if (nf < 0 || nd < 0 || (size_t)nd >= sizeof(dir_prefix) || !h) {
		if (h)
			closedir(h);
		return 0;
	}
	while ((d = readdir(h)) != NULL) {
		bool is_dir = strncmp(d->d_name, dir_prefix, (size_t)nd) == 0;
		if (!is_dir && strncmp(d->d_name, file_prefix, (size_t)nf) != 0)
			continue;
		pid_t pid = tmp_pid(d->d_name, (size_t)(is_dir ? nd : nf));
		if (pid == 0 || fstatat(dirfd(h), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    (is_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)))
			continue;
		if (!pid_gone(pid)) {
			if (live && !is_dir && tmp_writer(pid, &st))
				*live = pid;
			continue;
		}
		if (!remove)
			continue;
		if (!is_dir) {
			removed += unlinkat(dirfd(h), d->d_name, 0) == 0;
		} else if (snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name) < (int)sizeof(sub)) {
			remove_tmp_dir(sub);
			removed += fstatat(dirfd(h), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0;
		}
	}
	closedir(h);
	return removed;
}

unsigned out_file_remove_stale(const char *path)
{
	return scan_tmp(path, true, NULL);
}

void out_file_clear_stale(const char *path)
{
	char q[QUOTE_PATH_MAX];
	unsigned n = out_file_remove_stale(path);

	if (n > 0)
		fprintf(stderr, "xrlm: %s: removed %u temporary file%s of an earlier run cut short\n",
		        quote_path(q, path), n, n == 1 ? "" : "s");
}

pid_t out_file_writer(const char *path)
{
	pid_t live;

	scan_tmp(path, false, &live);
	return live;
}

int out_file_remove_placed(const char *path, const struct stat *placed)
{
	struct stat st;

	if (lstat(path, &st) != 0 || st.st_dev != placed->st_dev || st.st_ino != placed->st_ino)
		return -1;
	return unlink(path);
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
