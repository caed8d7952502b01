/*
 * Unit tests of out_file_watch(): a fatal signal removes a placed file
 * that is not whole yet (the functions file before its merged file), and
 * leaves it once it is (out_file_unwatch()). Each case runs in a child
 * that arms the signals and ends by SIGTERM. And of out_file_remove_placed():
 * a failed merge removes its own functions file, never one another merge
 * put in its place. And of out_file_dir_of(): the directory in which a
 * temporary file goes and stale ones are looked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out_file.h"

/* In a child: arms the signals, watches @p path (and lets it go when @p settle), then SIGTERM. */
static void child_watch(const char *path, bool settle)
{
	if (out_file_cleanup_on_signals() != 0)
		_exit(3);
	out_file_watch(path);
	if (settle)
		out_file_unwatch(path);
	raise(SIGTERM);
	_exit(4); /* not reached: the handler ends the process by the signal */
}

/* Runs child_watch() on a new file; whether the file is still there after. */
static bool survives(bool settle)
{
	char path[] = "/tmp/xrlm-watch-XXXXXX";
	int fd = mkstemp(path);
	int status;

	assert_true(fd >= 0);
	close(fd);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child_watch(path, settle);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	bool there = access(path, F_OK) == 0;
	unlink(path);
	return there;
}

static void test_watched_file_removed(void **state)
{
	(void)state;
	assert_false(survives(false));
}

static void test_unwatched_file_kept(void **state)
{
	(void)state;
	assert_true(survives(true));
}

static void test_remove_placed(void **state)
{
	char path[] = "/tmp/xrlm-placed-XXXXXX";
	struct stat placed;
	(void)state;

	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(lstat(path, &placed), 0);
	/* Another process's file now at the name (made while the first
	 * existed, so never its inode again): left there. */
	char path2[] = "/tmp/xrlm-placed-XXXXXX";
	struct stat other;
	fd = mkstemp(path2);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &other), 0);
	close(fd);
	assert_int_equal(rename(path2, path), 0);
	assert_int_equal(out_file_remove_placed(path, &placed), -1);
	assert_int_equal(access(path, F_OK), 0);
	/* This process's own: removed. */
	assert_int_equal(out_file_remove_placed(path, &other), 0);
	assert_int_not_equal(access(path, F_OK), 0);
	/* Gone already: nothing to do. */
	assert_int_equal(out_file_remove_placed(path, &other), -1);
}

static void test_dir_of(void **state)
{
	static const char *const cases[][2] = {
		{"a/b/c.csv", "a/b"}, {"c.csv", "."}, {"/c.csv", "/"}, {"/a/c.csv", "/a"}, {"a/", "a"},
	};
	char dir[64];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out_file_dir_of(cases[i][0], dir, sizeof(dir));
		assert_string_equal(dir, cases[i][1]);
	}
	/* Cut to its buffer, never past it. */
	out_file_dir_of("abcdef/x", dir, 4);
	assert_string_equal(dir, "abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watched_file_removed),
		cmocka_unit_test(test_unwatched_file_kept),
		cmocka_unit_test(test_remove_placed),
		cmocka_unit_test(test_dir_of),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
