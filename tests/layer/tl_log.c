/*
 * Unit tests of the side's log (layer/xl_log.c), in a directory of their
 * own: each line is "<local time to the ms> [pid] <side>: message"; a line
 * said once is said once per opening of the log (each instance), and a
 * reopening appends to what an earlier one wrote; logging leaves errno as
 * it was, a failed write's too (callers log, then read it); a loud line
 * also goes to stderr as "xrlm <side>: message", a plain one does not, and
 * without a log file every line goes to stderr.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_log.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static int dir_fd = -1;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tl_log-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dir_fd >= 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	xl_log_close();
	unlinkat(dir_fd, "xrlm-t.log", 0);
	close(dir_fd);
	rmdir(dir);
	return 0;
}

/* The whole of the file open as @p fd. */
static char *slurp_fd(int fd)
{
	static char buf[8192];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* The whole of file @p name in the directory. */
static char *slurp(const char *name)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
	char *text = slurp_fd(fd);

	if (fd >= 0)
		close(fd);
	return text;
}

/* Lines of @p text matching the extended regular expression @p re. */
static int lines_matching(const char *text, const char *re)
{
	regex_t r;
	char line[1024];
	int n = 0;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		n += regexec(&r, line, 0, NULL, 0) == 0;
		p += len + (p[len] == '\n');
	}
	regfree(&r);
	return n;
}

static void test_line_format(void **state)
{
	(void)state;
	char why[128], re[128];

	assert_true(xl_log_open(dir_fd, "t", why, sizeof(why)));
	xl_log("hello %d", 5);
	snprintf(re, sizeof(re),
	         "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} \\[%d\\] t: hello 5$",
	         (int)getpid());
	const char *text = slurp("xrlm-t.log");
	assert_int_equal(lines_matching(text, re), 1);
	assert_int_equal(lines_matching(text, ""), 1);
}

static void test_errno_kept(void **state)
{
	(void)state;
	char why[128];

	assert_true(xl_log_open(dir_fd, "t", why, sizeof(why)));
	errno = EDQUOT;
	xl_log("plain");
	assert_int_equal(errno, EDQUOT);
	errno = EXDEV;
	xl_log_once(XL_ONCE_MERGE, "once");
	assert_int_equal(errno, EXDEV);
	/* Also when a write fails: stderr open read-only (EBADF). */
	int saved = dup(STDERR_FILENO), ro = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(saved >= 0 && ro >= 0);
	dup2(ro, STDERR_FILENO);
	errno = ENOTDIR;
	xl_log_loud("loud");
	int after = errno;
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(ro);
	assert_int_equal(after, ENOTDIR);
}

static void test_once_per_opening(void **state)
{
	(void)state;
	char why[128];

	assert_true(xl_log_open(dir_fd, "t", why, sizeof(why)));
	xl_log_once(XL_ONCE_SESSION_INFO, "said once");
	xl_log_once(XL_ONCE_SESSION_INFO, "said once");
	xl_log("between");
	assert_int_equal(lines_matching(slurp("xrlm-t.log"), "t: said once$"), 1);
	/* The next instance opens the log again: appended, the warning said anew. */
	assert_true(xl_log_open(dir_fd, "t", why, sizeof(why)));
	xl_log_once(XL_ONCE_SESSION_INFO, "said once");
	xl_log_once(XL_ONCE_SESSION_INFO, "said once");
	const char *text = slurp("xrlm-t.log");
	assert_int_equal(lines_matching(text, "t: said once$"), 2);
	assert_int_equal(lines_matching(text, "t: between$"), 1);
	assert_int_equal(lines_matching(text, ""), 3);
}

/* Runs @p fn with stderr going to a file; returns what it wrote there. */
static char *stderr_of(void (*fn)(void))
{
	int saved = dup(STDERR_FILENO);
	int fd = openat(dir_fd, "stderr", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, STDERR_FILENO);
	fn();
	dup2(saved, STDERR_FILENO);
	close(saved);
	char *text = slurp_fd(fd);
	close(fd);
	unlinkat(dir_fd, "stderr", 0);
	return text;
}

static void loud_and_plain(void)
{
	xl_log_loud("look %s", "here");
	xl_log("only in the file");
}

static void test_stderr(void **state)
{
	(void)state;
	char why[128];

	assert_true(xl_log_open(dir_fd, "t", why, sizeof(why)));
	assert_string_equal(stderr_of(loud_and_plain), "xrlm t: look here\n");
	assert_int_equal(lines_matching(slurp("xrlm-t.log"), "t: (look here|only in the file)$"),
	                 2);
	/* No log file at all: every line to stderr. */
	assert_true(xl_log_open(-1, "t", why, sizeof(why)));
	assert_string_equal(stderr_of(loud_and_plain), "xrlm t: look here\nxrlm t: only in the file\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_line_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errno_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_once_per_opening, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stderr, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
