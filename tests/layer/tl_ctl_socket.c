/*
 * Unit tests of the control socket's file (layer/xl_ctl_socket.c): a socket
 * file of this pid that a live process listens on is never taken as stale,
 * even while its backlog is full (connect() fails with EAGAIN there); one
 * nobody listens on any more (ECONNREFUSED) is removed and bound again.
 * The directories' checks: $XDG_RUNTIME_DIR writable by nobody else, the
 * xrlm directory this user's and private; a file not a socket replaced,
 * and a close that removes only its own socket's file.
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

/* The socket directory's path ($XDG_RUNTIME_DIR/xrlm). */
static const char *xrlm_dir(void)
{
	static char path[sizeof(runtime_dir) + 8];
	snprintf(path, sizeof(path), "%s/xrlm", runtime_dir);
	return path;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

/*
 * $XDG_RUNTIME_DIR writable by its group or by others: no socket in it
 * (another user could replace the xrlm directory); 0700 or 0755: one.
 */
static void test_runtime_dir_writable(void **state)
{
	(void)state;
	static const struct {
		mode_t mode;
		bool refused;
	} cases[] = {{0770, true}, {0720, true}, {0702, true}, {0700, false}, {0755, false}};
	struct xl_ctl_socket s;
	char why[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(chmod(runtime_dir, cases[i].mode), 0);
		why[0] = '\0';
		int rc = xl_ctl_socket_open(&s, why, sizeof(why));
		if (rc == 0)
			xl_ctl_socket_close(&s);
		assert_int_equal(rc, cases[i].refused ? -1 : 0);
		if (cases[i].refused)
			assert_non_null(strstr(why, "writable by others"));
	}
	assert_int_equal(chmod(runtime_dir, 0700), 0);
}

/* An xrlm directory found open to the group or others is made 0700 again. */
static void test_socket_dir_mode_restored(void **state)
{
	(void)state;
	static const mode_t modes[] = {0750, 0705, 0777};
	struct xl_ctl_socket s;
	char why[512];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		mkdir(xrlm_dir(), 0700);
		assert_int_equal(chmod(xrlm_dir(), modes[i]), 0);
		assert_int_equal(xl_ctl_socket_open(&s, why, sizeof(why)), 0);
		assert_int_equal(mode_of(xrlm_dir()), 0700);
		assert_int_equal(mode_of(s.path), 0600);
		xl_ctl_socket_close(&s);
	}
}

/* An xrlm directory of another user: refused (root only: the test gives it away). */
static void test_socket_dir_other_owner(void **state)
{
	(void)state;
	struct xl_ctl_socket s;
	char why[512];

	if (geteuid() != 0)
		skip();
	mkdir(xrlm_dir(), 0700);
	assert_int_equal(chown(xrlm_dir(), 65534, 65534), 0);
	int rc = xl_ctl_socket_open(&s, why, sizeof(why));
	if (rc == 0)
		xl_ctl_socket_close(&s);
	assert_int_equal(chown(xrlm_dir(), 0, 0), 0);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(why, "is not this user's private directory"));
}

/* Something not a socket at the socket's path (a crash's leftover): replaced by the socket. */
static void test_not_a_socket_replaced(void **state)
{
	(void)state;
	struct xl_ctl_socket s;
	char why[512], path[sizeof(runtime_dir) + 64];

	mkdir(xrlm_dir(), 0700);
	snprintf(path, sizeof(path), "%s/%d.sock", xrlm_dir(), (int)getpid());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(xl_ctl_socket_open(&s, why, sizeof(why)), 0);
	assert_true(ino_now(&s) == s.ino);
	xl_ctl_socket_close(&s);
	assert_true(ino_now(&s) == 0);
}

/*
 * The socket's file replaced meanwhile (another instance's server bound
 * its own there after removing ours as stale): closing ours leaves that
 * one in place.
 */
static void test_close_leaves_another(void **state)
{
	(void)state;
	struct xl_ctl_socket first, second;
	char why[512];

	assert_int_equal(xl_ctl_socket_open(&first, why, sizeof(why)), 0);
	assert_int_equal(unlink(first.path), 0);
	assert_int_equal(xl_ctl_socket_open(&second, why, sizeof(why)), 0);
	assert_true(second.ino != first.ino);
	xl_ctl_socket_close(&first);
	assert_true(ino_now(&second) == second.ino);
	xl_ctl_socket_close(&second);
	assert_true(ino_now(&second) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_backlog_is_live),
		cmocka_unit_test(test_refused_is_stale),
		cmocka_unit_test(test_runtime_dir_writable),
		cmocka_unit_test(test_socket_dir_mode_restored),
		cmocka_unit_test(test_socket_dir_other_owner),
		cmocka_unit_test(test_not_a_socket_replaced),
		cmocka_unit_test(test_close_leaves_another),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
