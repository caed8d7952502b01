/*
 * Unit tests of the control socket's server thread (layer/xl_ctl_server.c)
 * on a real socket and a real control block, without an application: the
 * clients served at once and the one refused beyond them; requests sent
 * together answered in order, one waiting reply holding back the next;
 * watch ended by a line and by a hang-up; a mark whose client hung up
 * still written; what clients still waiting hear when the instance goes.
 *
 * Every wait is for an event (a reply, a state the server sets), bounded
 * by the clients' receive timeout or WAIT_S: never a sleep standing in
 * for one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "u_ctl.h"
#include "xl_control.h"
#include "xl_ctl_server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* The server's own cap (xl_ctl_server.c). */
#define MAX_CLIENTS 8
/* How long a client waits for a line, and the test for a state. */
#define WAIT_S 10
#define TAG "42-20260101T000000"

static char runtime_dir[] = "/tmp/tl_ctl_server-XXXXXX";
static char sock_path[sizeof(runtime_dir) + 64];

struct fixture {
	struct xl_control *ctl;
	struct xl_ctl_server *server;
};

static int setup_group(void **state)
{
	(void)state;
	if (!mkdtemp(runtime_dir) || setenv("XDG_RUNTIME_DIR", runtime_dir, 1) != 0)
		return -1;
	snprintf(sock_path, sizeof(sock_path), "%s/xrlm/%d.sock", runtime_dir, (int)getpid());
	return 0;
}

static int teardown_group(void **state)
{
	char cmd[sizeof(runtime_dir) + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", runtime_dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int setup(void **state)
{
	static struct fixture fx;
	struct xl_settings settings = {.delay_s = -1.0, .trace_csv = true};

	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", runtime_dir);
	fx.ctl = xl_control_create(&settings);
	if (!fx.ctl)
		return -1;
	fx.server = xl_ctl_server_create(fx.ctl);
	if (!fx.server)
		return -1;
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	xl_ctl_server_destroy(fx->server);
	xl_control_unref(fx->ctl);
	return 0;
}

/* Session 1 recording, its tag settled. */
static void record_session_1(struct xl_control *ctl)
{
	xl_control_request(ctl, XL_REQ_START);
	assert_int_equal(xl_control_pre_frame(ctl), 1);
	assert_true(xl_control_settle_tag(ctl, 1, XL_TAG_READY, 0, TAG));
}

/* A blocking connection to the server, WAIT_S to wait for each read. */
static int connect_raw(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = WAIT_S};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	return fd;
}

/* The next line from @p fd into @p line (without its '\n'); false at EOF. */
static bool read_line(int fd, char *line, size_t size)
{
	size_t n = 0;
	for (;;) {
		char ch;
		ssize_t r = recv(fd, &ch, 1, 0);
		/* A reset: the server closed with input of ours unread (after
		 * everything it sent, which comes first). */
		if (r == 0 || (r < 0 && errno == ECONNRESET))
			return false;
		if (r < 0)
			fail_msg("no line within %d s: %s", WAIT_S, strerror(errno));
		if (ch == '\n')
			break;
		assert_true(n + 1 < size);
		line[n++] = ch;
	}
	line[n] = '\0';
	return true;
}

/* The next line that is not a watch's data line ("t=..."). */
static bool read_reply(int fd, char *line, size_t size)
{
	while (read_line(fd, line, size))
		if (strncmp(line, "t=", 2) != 0)
			return true;
	return false;
}

static void expect_eof(int fd)
{
	char line[256];
	assert_false(read_line(fd, line, sizeof(line)));
}

static void send_text(int fd, const char *text)
{
	assert_int_equal(send(fd, text, strlen(text), MSG_NOSIGNAL), (ssize_t)strlen(text));
}

/* A served connection: its greeting read. */
static int connect_served(void)
{
	char line[256], want[64];
	int fd = connect_raw();

	assert_true(read_line(fd, line, sizeof(line)));
	snprintf(want, sizeof(want), "OK xrlm-ctl 1 pid=%d", (int)getpid());
	assert_string_equal(line, want);
	return fd;
}

static void expect_line(int fd, const char *want)
{
	char line[1024];
	assert_true(read_reply(fd, line, sizeof(line)));
	assert_string_equal(line, want);
}

static void expect_prefix(int fd, const char *want)
{
	char line[1024];
	assert_true(read_reply(fd, line, sizeof(line)));
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("got \"%s\", wanted \"%s...\"", line, want);
}

/* Waits (bounded) until @p cond(@p ctl) holds. */
static void wait_until(bool (*cond)(struct xl_control *), struct xl_control *ctl, const char *what)
{
	const struct timespec step = {0, 1000000};
	for (int i = 0; i < WAIT_S * 1000; i++) {
		if (cond(ctl))
			return;
		nanosleep(&step, NULL);
	}
	fail_msg("not within %d s: %s", WAIT_S, what);
}

/* The first mark slot in use, under the marks' lock: its copy, or seq 0. */
static struct xl_mark mark_slot(struct xl_control *ctl)
{
	struct xl_mark k = {0};
	pthread_mutex_lock(&ctl->marks.lock);
	for (int i = 0; i < XL_MARKS_SLOTS; i++)
		if (ctl->marks.slots[i].seq) {
			k = ctl->marks.slots[i];
			break;
		}
	pthread_mutex_unlock(&ctl->marks.lock);
	return k;
}

static bool mark_queued(struct xl_control *ctl)
{
	return mark_slot(ctl).seq != 0;
}

static bool mark_abandoned(struct xl_control *ctl)
{
	return mark_slot(ctl).abandoned;
}

static bool no_watchers(struct xl_control *ctl)
{
	return atomic_load(&ctl->live.watchers) == 0;
}

static bool start_requested(struct xl_control *ctl)
{
	return (atomic_load(&ctl->word) & XL_REQ_START) != 0;
}

static bool write_line(void *ctx, unsigned at, const char *line)
{
	(void)at;
	(void)line;
	(*(int *)ctx)++;
	return true;
}

/* Both writers write the pending marks of session 1. */
static void writers_write_marks(struct xl_control *ctl)
{
	const uint32_t open_ids[XL_MARKS_OPEN] = {1, 0};
	int written = 0;
	xl_marks_write(&ctl->marks, XL_SIDE_PRE, open_ids, 0, write_line, &written);
	xl_marks_write(&ctl->marks, XL_SIDE_POST, open_ids, 0, write_line, &written);
	assert_int_equal(written, 2);
}

/*
 * As many clients as are served at once each get the greeting; one more
 * is told so and closed; once one of them has gone, a new one is served.
 */
static void test_clients_capped(void **state)
{
	(void)state;
	int fds[MAX_CLIENTS];
	char line[256];

	for (int i = 0; i < MAX_CLIENTS; i++)
		fds[i] = connect_served();
	int extra = connect_raw();
	assert_true(read_line(extra, line, sizeof(line)));
	assert_string_equal(line, "ERR too many clients; try again");
	expect_eof(extra);
	close(extra);
	/* Every one of them is served, not only greeted. */
	for (int i = 0; i < MAX_CLIENTS; i++) {
		send_text(fds[i], "status\n");
		expect_prefix(fds[i], "version=1 ");
		expect_line(fds[i], "OK");
	}
	close(fds[0]);
	close(fds[1]);
	fds[0] = connect_served();
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (i != 1)
			close(fds[i]);
}

/*
 * Requests sent at once are answered one after another, in order: a mark
 * (which waits for both writers) holds back the status sent behind it,
 * and the status is answered as soon as the mark's reply is out, with no
 * more input from the client.
 */
static void test_pipelined_after_mark(void **state)
{
	struct fixture *fx = *state;

	record_session_1(fx->ctl);
	int fd = connect_served();
	send_text(fd, "mark one\nstatus\n");
	wait_until(mark_queued, fx->ctl, "the mark queued");
	writers_write_marks(fx->ctl);
	expect_line(fd, "session=" TAG);
	expect_line(fd, "OK mark written");
	expect_prefix(fd, "version=1 ");
	expect_line(fd, "OK");
	close(fd);
}

/*
 * A line from a watching client ends its watch ("OK watch ended"), and
 * the connection serves requests again; a watcher that hangs up is no
 * longer counted either.
 */
static void test_watch_ended(void **state)
{
	struct fixture *fx = *state;
	int fd = connect_served();

	send_text(fd, "watch\n");
	expect_line(fd, "interval_ms=1000");
	assert_int_equal(atomic_load(&fx->ctl->live.watchers), 1);
	send_text(fd, "enough\n");
	expect_line(fd, "OK watch ended");
	assert_int_equal(atomic_load(&fx->ctl->live.watchers), 0);
	send_text(fd, "status\n");
	expect_prefix(fd, "version=1 ");
	expect_line(fd, "OK");

	send_text(fd, "watch\n");
	expect_line(fd, "interval_ms=1000");
	assert_int_equal(atomic_load(&fx->ctl->live.watchers), 1);
	close(fd);
	wait_until(no_watchers, fx->ctl, "the watcher that hung up uncounted");
}

/*
 * A client that asked for a mark and hung up: the server gives up its
 * wait at once, and the mark is left to the writers (abandoned), who
 * still write it and free its slot.
 */
static void test_mark_client_hangs_up(void **state)
{
	struct fixture *fx = *state;

	record_session_1(fx->ctl);
	int fd = connect_served();
	send_text(fd, "mark left behind\n");
	wait_until(mark_queued, fx->ctl, "the mark queued");
	close(fd);
	wait_until(mark_abandoned, fx->ctl, "the mark abandoned");
	writers_write_marks(fx->ctl);
	assert_false(mark_queued(fx->ctl)); /* its slot freed */
}

/*
 * A client that has sent everything (shut its side down) gets its replies,
 * then the server closes the connection (its place freed, not held).
 */
static void test_half_closed(void **state)
{
	(void)state;
	int fd = connect_served();

	send_text(fd, "status\n");
	assert_int_equal(shutdown(fd, SHUT_WR), 0);
	expect_prefix(fd, "version=1 ");
	expect_line(fd, "OK");
	expect_eof(fd);
	close(fd);
}

/*
 * A new connection starts afresh in the place of one that went: the
 * half line, the end of input, of the one before are not its own.
 */
static void test_place_reused_afresh(void **state)
{
	(void)state;
	int fd = connect_served();
	send_text(fd, "sta");
	close(fd);
	fd = connect_served();
	send_text(fd, "tus\n");
	expect_line(fd, "ERR unknown request \"tus\" (status, start, stop, mark TEXT, watch, quit)");
	close(fd);
}

/*
 * A line too long sent while a mark waits is not read until the mark's
 * reply is out: the replies keep the requests' order.
 */
static void test_too_long_after_mark(void **state)
{
	struct fixture *fx = *state;
	char text[U_CTL_LINE_MAX + 100];

	record_session_1(fx->ctl);
	int fd = connect_served();
	send_text(fd, "mark one\n");
	wait_until(mark_queued, fx->ctl, "the mark queued");
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	send_text(fd, text);
	writers_write_marks(fx->ctl);
	expect_line(fd, "session=" TAG);
	expect_line(fd, "OK mark written");
	expect_line(fd, "ERR request too long (at most 511 bytes before its newline)");
	expect_eof(fd);
	close(fd);
}

/*
 * A client that sends requests and reads none of the replies: once they
 * fill the socket and the output the server keeps for it, it is dropped
 * (closed), not kept with its replies lost.
 */
static void test_slow_reader_dropped(void **state)
{
	(void)state;
	static char requests[20000 * 7 + 1];
	char line[1024];
	int fd = connect_served();
	size_t len = 0, sent = 0;

	for (int i = 0; i < 20000; i++, len += 7)
		memcpy(requests + len, "status\n", 7);
	/* Its replies (~100 bytes each, 2 MB) are far more than the socket
	 * and the 16 KiB output hold; the server may close before all is sent. */
	while (sent < len) {
		ssize_t n = send(fd, requests + sent, len - sent, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	unsigned oks = 0;
	bool timed_out = false;
	while (read_line(fd, line, sizeof(line))) {
		oks += strcmp(line, "OK") == 0;
		timed_out |= strncmp(line, "ERR timed out", 13) == 0;
	}
	assert_true(oks < 20000);
	/* Dropped for its output, not kept until it idled out (its lines lost). */
	assert_false(timed_out);
	close(fd);
}

/*
 * The instance goes with clients still waiting: a watch is ended and a
 * start withdrawn, each said so, then each connection closed, and the
 * socket file removed.
 */
static void test_last_words(void **state)
{
	struct fixture *fx = *state;
	struct stat st;

	int watcher = connect_served();
	send_text(watcher, "watch\n");
	expect_line(watcher, "interval_ms=1000");
	int starter = connect_served();
	send_text(starter, "start\n");
	wait_until(start_requested, fx->ctl, "the start requested");
	int idle[MAX_CLIENTS - 2];
	for (int i = 0; i < MAX_CLIENTS - 2; i++)
		idle[i] = connect_served();

	xl_ctl_server_destroy(fx->server);
	fx->server = NULL;
	expect_line(watcher, "OK watch ended: the application's instance is going away");
	expect_eof(watcher);
	expect_line(starter, "ERR the application's instance is going away: start withdrawn");
	expect_eof(starter);
	for (int i = 0; i < MAX_CLIENTS - 2; i++) {
		expect_eof(idle[i]);
		close(idle[i]);
	}
	assert_int_equal(atomic_load(&fx->ctl->word) & XL_REQ_START, 0);
	assert_int_equal(atomic_load(&fx->ctl->live.watchers), 0);
	assert_int_equal(stat(sock_path, &st), -1);
	close(watcher);
	close(starter);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clients_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipelined_after_mark, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watch_ended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_client_hangs_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_half_closed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_place_reused_afresh, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_long_after_mark, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_reader_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_last_words, setup, teardown),
	};
	return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
