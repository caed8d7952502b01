/*
 * Unit tests of the control socket's file (layer/xl_ctl_socket.c): a socket
 * file of this pid that a live process listens on is never taken as stale,
 * even while its backlog is full (connect() fails with EAGAIN there); one
 * nobody listens on any more (ECONNREFUSED) is removed and bound again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "u_ctl.h"
#include "xl_ctl_socket.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CLIENTS 4096

static char runtime_dir[] = "/tmp/tl_ctl_socket-XXXXXX";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(runtime_dir))
		return -1;
	return setenv("XDG_RUNTIME_DIR", runtime_dir, 1);
}

static int teardown(void **state)
{
	char cmd[sizeof(runtime_dir) + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", runtime_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The inode at the socket's path now (0: none). */
static ino_t ino_now(const struct xl_ctl_socket *s)
{
	struct stat st;
	return stat(s->path, &st) == 0 ? st.st_ino : 0;
}

/* Connects non-blocking clients until the listener's backlog is full;
 * returns how many connected, their descriptors in @p fds. */
static int fill_backlog(const char *path, int *fds)
{
	int n = 0;
	while (n < MAX_CLIENTS) {
		int fd = u_ctl_connect(path); /* non-blocking: EAGAIN once full */
		if (fd < 0) {
			assert_int_equal(errno, EAGAIN);
			return n;
		}
		fds[n++] = fd;
	}
	fail_msg("the backlog never filled after %d clients", n);
	return n;
}

static void test_full_backlog_is_live(void **state)
{
	(void)state;
	static int fds[MAX_CLIENTS];
	struct xl_ctl_socket live, second;
	char why[512];

	assert_int_equal(xl_ctl_socket_open(&live, why, sizeof(why)), 0);
	int n = fill_backlog(live.path, fds);
	assert_true(n > 0);
	/* Another open of this pid's socket (as a second instance's server
	 * would try) finds it live, busy: it must leave it in place. */
	why[0] = '\0';
	int rc = xl_ctl_socket_open(&second, why, sizeof(why));
	if (rc == 0)
		xl_ctl_socket_close(&second);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(why, "in use"));
	assert_true(ino_now(&live) == live.ino);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	xl_ctl_socket_close(&live);
	assert_true(ino_now(&live) == 0);
}

static void test_refused_is_stale(void **state)
{
	(void)state;
	struct xl_ctl_socket dead, fresh;
	char why[512];

	assert_int_equal(xl_ctl_socket_open(&dead, why, sizeof(why)), 0);
	/* A process killed with kill -9: its file stays, nobody listens. */
	close(dead.fd);
	close(dead.dir_fd);
	assert_int_equal(xl_ctl_socket_open(&fresh, why, sizeof(why)), 0);
	assert_true(ino_now(&fresh) == fresh.ino);
	xl_ctl_socket_close(&fresh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_backlog_is_live),
		cmocka_unit_test(test_refused_is_stale),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
