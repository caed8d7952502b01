/*
 * The control socket's server thread; see xl_ctl_server.h.
 */
#include "xl_ctl_server.h"

#include "quote.h"
#include "u_locale.h"
#include "xl_clock.h"
#include "xl_ctl_cmd.h"
#include "xl_ctl_socket.h"
#include "xl_log.h"
#include "xl_thread.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

/* Clients served at once; more are told so and closed. */
#define MAX_CLIENTS 8
/* A client that has not sent a whole request this long after connecting,
 * or after its last reply, is dropped (a half-open or stalled client). */
#define IDLE_NS 10000000000ull
/* While a reply waits for a frame or the merge, look again this often. */
#define WAIT_POLL_MS 10
#define TICK_NS 1000000000ull

struct xl_ctl_server {
	struct xl_control *ctl;
	struct xl_ctl_socket sock;
	int wake_fd; /* written by xl_ctl_server_destroy */
	pthread_t thread;
	struct xl_ctl_client clients[MAX_CLIENTS];
	uint64_t next_tick_ns;  /* the watchers' next line */
	uint64_t dropped_seen;  /* see xl_ctl_cmd_watch_tick */
	double scratch[2 * XL_LIVE_VALUES];
};

void xl_ctl_client_print(struct xl_ctl_client *c, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(c->out) - c->out_len;

	va_start(ap, fmt);
	int n = vsnprintf(c->out + c->out_len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= room) {
		c->overflow = true; /* a reader too slow for its watch lines */
		return;
	}
	c->out_len += (size_t)n;
	c->out[c->out_len++] = '\n';
}

/* Sends what the socket takes now, never waiting. False: the client is gone. */
static bool flush_out(struct xl_ctl_client *c)
{
	while (c->out_len) {
		ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
		memmove(c->out, c->out + n, c->out_len - (size_t)n);
		c->out_len -= (size_t)n;
	}
	return true;
}

static void drop_client(struct xl_ctl_server *s, struct xl_ctl_client *c)
{
	if (c->wait == XL_CTL_WATCH)
		xl_live_watch(&s->ctl->live, -1);
	else if (c->wait == XL_CTL_MARK)
		xl_marks_abandon(&s->ctl->marks, c->wait_seq);
	/* A start, stop or mark already asked for goes on: the client only leaves. */
	close(c->fd);
	c->fd = -1;
}

/* Says why to a connection that is not served, best effort, and closes it. */
static void refuse(int fd, const char *why)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "ERR %s\n", why);
	send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

/* Whether the peer on @p fd runs as this process's user (logged once when not). */
static bool same_user(int fd, char *why, size_t why_size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		snprintf(why, why_size, "cannot identify the peer: %s", strerror(errno));
		return false;
	}
	if (cred.uid == geteuid())
		return true;
	snprintf(why, why_size, "permission denied: uid %u is not this process's user (uid %u)",
	         (unsigned)cred.uid, (unsigned)geteuid());
	xl_log_once(XL_ONCE_CTL_PEER, "control socket: refused a connection from uid %u (pid %d)",
	            (unsigned)cred.uid, (int)cred.pid);
	return false;
}

static void accept_clients(struct xl_ctl_server *s, uint64_t now)
{
	char why[160];

	for (;;) {
		int fd = accept4(s->sock.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return; /* EAGAIN: no more; anything else: try at the next wake-up */
		if (!same_user(fd, why, sizeof(why))) {
			refuse(fd, why);
			continue;
		}
		struct xl_ctl_client *c = NULL;
		for (int i = 0; i < MAX_CLIENTS && !c; i++)
			if (s->clients[i].fd < 0)
				c = &s->clients[i];
		if (!c) {
			refuse(fd, "too many clients; try again");
			continue;
		}
		memset(c, 0, offsetof(struct xl_ctl_client, in));
		c->fd = fd;
		c->wait = XL_CTL_IDLE;
		c->deadline_ns = now + IDLE_NS;
		xl_ctl_client_print(c, "OK %s %d pid=%d", U_CTL_GREETING, U_CTL_VERSION, (int)getpid());
	}
}

/* Answers the whole lines @p c has sent, one at a time, until one makes it wait. */
static void handle_lines(struct xl_ctl_server *s, struct xl_ctl_client *c, uint64_t now)
{
	while (!c->close_after && c->wait != XL_CTL_START && c->wait != XL_CTL_STOP &&
	       c->wait != XL_CTL_MARK) {
		char *nl = memchr(c->in, '\n', c->in_len);
		if (!nl)
			break;
		size_t len = (size_t)(nl - c->in), text_len = len;
		*nl = '\0';
		if (text_len && c->in[text_len - 1] == '\r')
			c->in[--text_len] = '\0';
		if (c->wait == XL_CTL_WATCH)
			xl_ctl_cmd_end_watch(s->ctl, c, NULL); /* any line ends a watch */
		else if (strlen(c->in) != text_len)
			xl_ctl_client_print(c, "ERR malformed request (a NUL byte)");
		else
			xl_ctl_cmd_request(s->ctl, c, c->in, now);
		memmove(c->in, nl + 1, c->in_len - len - 1);
		c->in_len -= len + 1;
		if (c->wait == XL_CTL_IDLE)
			c->deadline_ns = now + IDLE_NS;
	}
	if (c->in_len == sizeof(c->in) && !memchr(c->in, '\n', c->in_len)) {
		xl_ctl_client_print(c, "ERR request too long (at most %d bytes before its newline)",
		                    U_CTL_LINE_MAX - 1);
		c->close_after = true;
	}
}

static void read_client(struct xl_ctl_server *s, struct xl_ctl_client *c, uint64_t now)
{
	ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, MSG_DONTWAIT);
	if (n > 0) {
		c->in_len += (size_t)n;
		handle_lines(s, c, now);
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		c->eof = true;
	}
}

/* One client's turn after poll: read, move its wait on, write, or drop it. */
static void serve_client(struct xl_ctl_server *s, struct xl_ctl_client *c, short revents,
                         uint64_t now)
{
	if (!c->eof && (revents & (POLLIN | POLLHUP | POLLERR)))
		read_client(s, c, now);
	if (c->wait != XL_CTL_IDLE && c->wait != XL_CTL_WATCH) {
		xl_ctl_cmd_progress(s->ctl, c, now, false);
		if (c->wait == XL_CTL_IDLE) {
			c->deadline_ns = now + IDLE_NS;
			handle_lines(s, c, now); /* requests sent meanwhile */
		}
	}
	bool waiting = c->wait == XL_CTL_START || c->wait == XL_CTL_STOP || c->wait == XL_CTL_MARK;
	/* Closed (not just done sending): no reply can reach it, and a wait
	 * would keep its place taken for nothing. */
	if ((revents & (POLLHUP | POLLERR)) || !flush_out(c) || c->overflow)
		drop_client(s, c);
	else if (c->out_len == 0 && (c->close_after || (c->eof && !waiting)))
		drop_client(s, c);
	else if (c->wait == XL_CTL_IDLE && c->deadline_ns && now >= c->deadline_ns) {
		refuse(c->fd, "timed out waiting for a whole request line");
		c->fd = -1;
	}
}

/* The poll set: the wake-up, the socket, and each client; returns the poll timeout. */
static int poll_set(struct xl_ctl_server *s, struct pollfd *fds, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	bool watching = false;

	fds[0] = (struct pollfd){.fd = s->wake_fd, .events = POLLIN};
	fds[1] = (struct pollfd){.fd = s->sock.fd, .events = POLLIN};
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct xl_ctl_client *c = &s->clients[i];
		bool waiting = c->wait != XL_CTL_IDLE && c->wait != XL_CTL_WATCH;
		fds[2 + i] = (struct pollfd){.fd = c->fd, .events = 0};
		if (c->fd < 0)
			continue;
		if (!c->eof && !waiting && !c->close_after)
			fds[2 + i].events |= POLLIN;
		if (c->out_len)
			fds[2 + i].events |= POLLOUT;
		else if (c->eof && !waiting)
			fds[2 + i].fd = -1; /* a hung-up peer would wake poll at once, every time */
		/* (One that waits, done sending, is polled for POLLHUP alone: a
		 * close drops it at once, see serve_client.) */
		watching |= c->wait == XL_CTL_WATCH;
		if (waiting)
			next = now + WAIT_POLL_MS * 1000000ull;
		else if (c->deadline_ns && c->deadline_ns < next)
			next = c->deadline_ns;
	}
	if (watching && s->next_tick_ns < next)
		next = s->next_tick_ns;
	if (next == UINT64_MAX)
		return -1;
	return next <= now ? 0 : (int)((next - now + 999999) / 1000000);
}

static void *server_main(void *arg)
{
	struct xl_ctl_server *s = arg;
	struct pollfd fds[2 + MAX_CLIENTS];
	/* Numbers go out with '.' whatever the application's locale. */
	locale_t c_locale = u_locale_c();
	locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;

	s->next_tick_ns = xl_clock_mono_ns() + TICK_NS;
	for (;;) {
		uint64_t now = xl_clock_mono_ns();
		int timeout = poll_set(s, fds, now);
		if (poll(fds, 2 + MAX_CLIENTS, timeout) < 0 && errno != EINTR)
			xl_thread_sleep_ns(WAIT_POLL_MS * 1000000ull); /* never spin */
		if (fds[0].revents & POLLIN)
			break;
		now = xl_clock_mono_ns();
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (s->clients[i].fd >= 0)
				serve_client(s, &s->clients[i], fds[2 + i].revents, now);
		if (fds[1].revents & POLLIN)
			accept_clients(s, now);
		if (now >= s->next_tick_ns) {
			xl_ctl_cmd_watch_tick(s->ctl, s->clients, MAX_CLIENTS, s->scratch,
			                      &s->dropped_seen, now);
			s->next_tick_ns = now + TICK_NS;
		}
	}
	if (c_locale)
		uselocale(old);
	return NULL;
}

struct xl_ctl_server *xl_ctl_server_create(struct xl_control *ctl)
{
	char why[XL_PATH_MAX + 128], q[QUOTE_PATH_MAX];
	struct xl_ctl_server *s = calloc(1, sizeof(*s));

	if (!s) {
		xl_log("control socket: out of memory; none this time");
		return NULL;
	}
	s->ctl = ctl;
	for (int i = 0; i < MAX_CLIENTS; i++)
		s->clients[i].fd = -1;
	s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->wake_fd < 0) {
		xl_log("control socket: eventfd: %s; none this time", strerror(errno));
		free(s);
		return NULL;
	}
	if (xl_ctl_socket_open(&s->sock, why, sizeof(why)) != 0) {
		xl_log("control socket: %s; none this time (start and stop by signal)",
		       quote_path(q, why));
		close(s->wake_fd);
		free(s);
		return NULL;
	}
	int err = xl_thread_start(&s->thread, server_main, s, "xrlm-ctl");
	if (err) {
		xl_log("control socket: cannot start its thread: %s; none this time", strerror(err));
		xl_ctl_socket_close(&s->sock);
		close(s->wake_fd);
		free(s);
		return NULL;
	}
	xl_log("control socket: %s (xrlm ctl status %d)", quote_path(q, s->sock.path),
	       (int)getpid());
	return s;
}

/* What a client still waiting gets when the thread ends: its last chance. */
static void last_words(struct xl_ctl_server *s, struct xl_ctl_client *c)
{
	uint64_t now = xl_clock_mono_ns();

	xl_ctl_cmd_progress(s->ctl, c, now, true);
	xl_ctl_cmd_end_watch(s->ctl, c, "the application's instance is going away");
	flush_out(c);
	close(c->fd);
	c->fd = -1;
}

void xl_ctl_server_destroy(struct xl_ctl_server *s)
{
	uint64_t one = 1;

	if (!s)
		return;
	if (write(s->wake_fd, &one, sizeof(one)) != sizeof(one))
		xl_log("control socket: cannot wake its thread: %s", strerror(errno));
	pthread_join(s->thread, NULL);
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (s->clients[i].fd >= 0)
			last_words(s, &s->clients[i]);
	xl_ctl_socket_close(&s->sock);
	close(s->wake_fd);
	free(s);
}
