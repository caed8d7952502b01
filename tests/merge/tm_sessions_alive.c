/*
 * Unit tests of sessions_writer()'s answer where the process's
 * descriptors cannot be read (another user's process, or one that is not
 * dumpable): opendir() of /proc/PID/fd is made to fail with EACCES, as it
 * does for `xrlm merge DIR` run as another user. The session's process is
 * a child of the test; its tag's pid is not looked at, only the entry's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sessions.h"

DIR *__real_opendir(const char *path);

/* Whether every /proc/PID/fd is unreadable, as another user's is (the default). */
static bool fd_unreadable = true;

DIR *__wrap_opendir(const char *path)
{
	size_t len = strlen(path);
	if (fd_unreadable && strncmp(path, "/proc/", 6) == 0 && len > 3 &&
	    strcmp(path + len - 3, "/fd") == 0) {
		errno = EACCES;
		return NULL;
	}
	return __real_opendir(path);
}

struct fixture {
	char dir[64];
	struct sessions s;
	struct sessions_entry e;
	pid_t child;
};

/* A process that holds @p dir open (when not NULL), once this returns, and waits to be killed. */
static pid_t start_child_in(const char *dir)
{
	int ready[2];
	char c = 0;

	assert_int_equal(pipe(ready), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		if (dir && open(dir, O_RDONLY | O_DIRECTORY) < 0)
			_exit(1);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

static pid_t start_child(void)
{
	return start_child_in(NULL);
}

/* Writes both per-side files of a session whose stamp is now, written as UTC. */
static void make_session(struct fixture *f, pid_t writer)
{
	time_t now = time(NULL);
	struct tm tm;
	char path[MERGE_PATH_MAX];

	gmtime_r(&now, &tm);
	strftime(f->e.stamp, sizeof(f->e.stamp), "%Y%m%dT%H%M%S", &tm);
	snprintf(f->e.tag, sizeof(f->e.tag), "424242-%s", f->e.stamp);
	f->e.pid = writer;
	f->e.has[SESSIONS_FRAMES_PRE] = f->e.has[SESSIONS_FRAMES_POST] = true;
	for (int side = SESSIONS_FRAMES_PRE; side <= SESSIONS_FRAMES_POST; side++) {
		assert_int_equal(sessions_path(&f->s, &f->e, side, path, sizeof(path)), 0);
		FILE *file = fopen(path, "w");
		assert_non_null(file);
		fputs("display_time,thread_id,t_entry,t_exit\n", file);
		assert_int_equal(fclose(file), 0);
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/xrlm-alive-XXXXXX");
	if (!f || !mkdtemp(f->dir))
		return -1;
	snprintf(f->s.dir, sizeof(f->s.dir), "%s", f->dir);
	f->s.v = &f->e;
	f->s.n = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char path[MERGE_PATH_MAX];

	fd_unreadable = true;
	if (f->child > 0) {
		kill(f->child, SIGKILL);
		waitpid(f->child, NULL, 0);
	}
	for (int side = SESSIONS_FRAMES_PRE; side <= SESSIONS_FRAMES_POST; side++)
		if (sessions_path(&f->s, &f->e, side, path, sizeof(path)) == 0)
			unlink(path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/*
 * A writer recording now, whose tag was stamped in UTC, seen by an xrlm
 * nine hours east: still the writer (the stamp read in our time zone
 * would put the session nine hours before its process).
 */
static void test_writer_in_another_time_zone(void **state)
{
	struct fixture *f = *state;

	f->child = start_child();
	make_session(f, f->child);
	/* POSIX zones: no time zone database needed. */
	setenv("TZ", "EAST-9", 1);
	tzset();
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_RECORDING);
	setenv("TZ", "WEST+8", 1);
	tzset();
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_RECORDING);
	unsetenv("TZ");
	tzset();
}

/* A process started after the session's files last changed is a pid used again, not the writer. */
static void test_process_started_later(void **state)
{
	struct fixture *f = *state;

	make_session(f, 0);
	/* The process start is known to the second (the boot time's
	 * fraction dropped, the age in whole ticks) and so is the files'
	 * change: the start may read up to 2 s early against it, 1 s of which
	 * the check allows. Start it over three seconds later. */
	struct timespec wait = {3, 200 * 1000 * 1000};
	while (nanosleep(&wait, &wait) != 0 && errno == EINTR)
		;
	f->child = start_child();
	f->e.pid = f->child;
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_GONE);
}

/* A process that no longer exists is no writer, readable descriptors or not. */
static void test_process_gone(void **state)
{
	struct fixture *f = *state;

	pid_t pid = start_child();
	make_session(f, pid);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_GONE);
}

/*
 * Readable descriptors: a process holding the session's directory open,
 * as the layers' writers do while their instance lives, with the files
 * closed, is its writer, whose post layer merges it; a process holding
 * neither is a pid used again.
 */
static void test_writer_merging(void **state)
{
	struct fixture *f = *state;

	fd_unreadable = false;
	f->child = start_child_in(f->dir);
	make_session(f, f->child);
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_MERGING);
	kill(f->child, SIGKILL);
	waitpid(f->child, NULL, 0);
	f->child = start_child();
	f->e.pid = f->child;
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_GONE);
}

/*
 * A process holding the directory open that started after the session's
 * files last changed is a pid used again (any app the layers record holds
 * the same default directory), not the writer: its session is no one's
 * to merge but merge DIR's. (Started over three seconds later, as in
 * test_process_started_later.)
 */
static void test_later_process_holding_dir(void **state)
{
	struct fixture *f = *state;

	fd_unreadable = false;
	make_session(f, 0);
	struct timespec wait = {3, 200 * 1000 * 1000};
	while (nanosleep(&wait, &wait) != 0 && errno == EINTR)
		;
	f->child = start_child_in(f->dir);
	f->e.pid = f->child;
	assert_int_equal(sessions_writer(&f->s, &f->e), SESSIONS_WRITER_GONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_writer_in_another_time_zone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_process_started_later, setup, teardown),
		cmocka_unit_test_setup_teardown(test_process_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_merging, setup, teardown),
		cmocka_unit_test_setup_teardown(test_later_process_holding_dir, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
