/*
 * Unit tests of out_file_watch(): a fatal signal removes a placed file
 * that is not whole yet (the functions file before its merged file), and
 * leaves it once it is (out_file_unwatch()). Each case runs in a child
 * that arms the signals and ends by SIGTERM.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watched_file_removed),
		cmocka_unit_test(test_unwatched_file_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
