/*
 * The side's log file; see xl_log.h.
 */
#include "xl_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * Atomics: an instance being created opens the log while another thread
 * may log (two loaders in one process, each creating an instance).
 */
static atomic_int log_fd = -1;
static const char *_Atomic log_side = "?"; /* the side's name: a constant string */
static atomic_bool once_done[XL_ONCE_COUNT];
/*
 * The log file could not be written (a full disk): said once on stderr;
 * from then on a line goes to stderr only if it is loud, said once
 * (xl_log_once), or the first of its kind (its format) since: never a
 * line per frame or per session.
 */
static atomic_bool write_failed;
#define KINDS_MAX 64
static const char *_Atomic kinds_said[KINDS_MAX];

/*
 * Opens "xrlm-<side>.log" in @p dir_fd for appending. The log is the one file
 * opened without O_EXCL (it outlives sessions), so what is already there must
 * be this user's regular file: a FIFO planted in a shared directory would
 * block the open (O_NONBLOCK: ENXIO instead), and another user's file must
 * not receive our lines. Returns the descriptor, or -1 with @p why said.
 */
static int open_log_file(int dir_fd, char *why, size_t why_size)
{
	const int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	char name[32];
	struct stat st;

	snprintf(why, why_size, "no output directory");
	if (dir_fd < 0)
		return -1;
	snprintf(name, sizeof(name), "xrlm-%s.log", atomic_load(&log_side));
	int fd = openat(dir_fd, name, flags, 0644);
	if (fd < 0) {
		snprintf(why, why_size, "%s: %s", name,
		         errno == ENXIO ? "not a regular file" : strerror(errno));
		return -1;
	}
	/* st is read only once fstat() has filled it. */
	bool got = fstat(fd, &st) == 0;
	if (!got || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(why, why_size, "%s: %s", name,
		         !got                   ? strerror(errno)
		         : !S_ISREG(st.st_mode) ? "not a regular file"
		                                : "owned by another user");
		close(fd);
		return -1;
	}
	return fd;
}

bool xl_log_open(int dir_fd, const char *side, char *why, size_t why_size)
{
	xl_log_close();
	atomic_store(&log_side, side);
	for (int i = 0; i < XL_ONCE_COUNT; i++)
		atomic_store(&once_done[i], false);
	atomic_store(&write_failed, false);
	for (int i = 0; i < KINDS_MAX; i++)
		atomic_store(&kinds_said[i], NULL);
	int fd = open_log_file(dir_fd, why, why_size);
	atomic_store(&log_fd, fd);
	return fd >= 0 || dir_fd < 0;
}

void xl_log_side(const char *side)
{
	atomic_store(&log_side, side);
}

void xl_log_reopen(int dir_fd)
{
	char why[128];
	int fd = open_log_file(dir_fd, why, sizeof(why));
	if (fd < 0)
		return;
	/* dup3 swaps the file under the same number: a concurrent line lands in one of the two. */
	int cur = atomic_load(&log_fd);
	if (cur >= 0)
		dup3(fd, cur, O_CLOEXEC);
	close(fd);
}

void xl_log_close(void)
{
	int fd = atomic_exchange(&log_fd, -1);
	if (fd >= 0)
		close(fd);
}

/* Whether no line of the kind @p fmt has gone to stderr since the log failed (then it has). */
static bool first_of_kind(const char *fmt)
{
	for (int i = 0; i < KINDS_MAX; i++) {
		const char *seen = NULL;
		if (atomic_compare_exchange_strong(&kinds_said[i], &seen, fmt))
			return true;
		if (seen == fmt)
			return false;
	}
	return false; /* more kinds than that: the rest stay quiet */
}

/*
 * The log file's write failed with @p err: says so on stderr the first
 * time, with the rule for what follows. Returns whether the line goes to
 * stderr by that rule (@p always: loud, or said once anyway).
 */
static bool write_failed_to_stderr(int err, bool always, const char *fmt)
{
	if (!atomic_exchange(&write_failed, true)) {
		char line[512];
		const char *side = atomic_load(&log_side);
		int n = snprintf(line, sizeof(line), "xrlm %s: cannot write xrlm-%s.log: %s; from now "
		                 "on stderr gets the warnings said once, the loud lines and the first "
		                 "line of each other kind\n", side, side, strerror(err));
		if (n > 0)
			(void)!write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n
			                                                          : sizeof(line) - 1);
	}
	return always || first_of_kind(fmt);
}

/*
 * Formats the whole line first so it reaches the file in one write.
 * The line is "<local time> [pid] <side>: <message>"; stderr gets
 * "xrlm <side>: <message>". @p once: a line said once (xl_log_once).
 */
static void log_vwrite(bool loud, bool once, const char *fmt, va_list ap)
{
	int saved_errno = errno; /* a caller may log, then read errno */
	char line[2048];
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	int stamp = snprintf(line, sizeof(line), "%04d-%02d-%02d %02d:%02d:%02d.%03ld [%d] ",
	                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	                     tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, (int)getpid());
	if (stamp < 0)
		return;
	int side = snprintf(line + stamp, sizeof(line) - (size_t)stamp, "%s: ",
	                    atomic_load(&log_side));
	if (side < 0 || vsnprintf(line + stamp + side, sizeof(line) - (size_t)(stamp + side) - 1,
	                          fmt, ap) < 0)
		return;
	size_t len = strnlen(line, sizeof(line) - 2);
	line[len++] = '\n';

	int fd = atomic_load(&log_fd);
	ssize_t wrote = fd >= 0 ? write(fd, line, len) : -1;
	bool to_file = wrote == (ssize_t)len;
	/* A short write sets no errno: a disk that filled under it, mostly. */
	int write_err = wrote >= 0 ? ENOSPC : errno;
	/* No log file at all: every line to stderr; one that fails: by the rule. */
	bool to_stderr = loud || fd < 0 ||
	                 (!to_file && write_failed_to_stderr(write_err, once, fmt));
	if (to_stderr) {
		/* "xrlm " over the end of the time stamp: one write, so that the
		 * lines of pre, post and the app never interleave on stderr. */
		char *start = line + stamp - 5;
		memcpy(start, "xrlm ", 5);
		(void)!write(STDERR_FILENO, start, len - (size_t)stamp + 5);
	}
	errno = saved_errno;
}

void xl_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vwrite(false, false, fmt, ap);
	va_end(ap);
}

void xl_log_loud(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vwrite(true, false, fmt, ap);
	va_end(ap);
}

void xl_log_once(enum xl_log_once_id id, const char *fmt, ...)
{
	if (atomic_exchange(&once_done[id], true))
		return;
	va_list ap;
	va_start(ap, fmt);
	log_vwrite(false, true, fmt, ap);
	va_end(ap);
}
