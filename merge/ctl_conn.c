/*
 * `xrlm ctl`'s connection; see ctl_conn.h.
 */
#include "ctl_conn.h"

#include "quote.h"
#include "u_ctl.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum ctl_conn_result ctl_conn_open(struct ctl_conn *c, const char *dir, pid_t pid,
                                   int timeout_ms)
{
	char line[512];

	memset(c, 0, offsetof(struct ctl_conn, buf));
	c->len = 0;
	c->error[0] = '\0';
	c->pid = pid;
	if (!u_ctl_socket_path(c->path, sizeof(c->path), dir, pid)) {
		snprintf(c->error, sizeof(c->error), "socket path too long");
		return CTL_CONN_FAILED;
	}
	c->fd = u_ctl_connect(c->path);
	if (c->fd < 0) {
		int err = errno;
		char q[QUOTE_PATH_MAX];
		snprintf(c->error, sizeof(c->error), "%s: %s%s", quote_path(q, c->path), strerror(err),
		         err == EACCES ? " (a process of another user?)" : "");
		return err == ECONNREFUSED ? CTL_CONN_STALE
		       : err == ENOENT     ? CTL_CONN_ABSENT
		                           : CTL_CONN_FAILED;
	}
	ctl_conn_deadline(c, timeout_ms);
	int r = ctl_conn_line(c, line, sizeof(line));
	if (r == 2 && strncmp(line, "OK " U_CTL_GREETING " ", sizeof(U_CTL_GREETING) + 3) == 0) {
		int version = atoi(line + sizeof(U_CTL_GREETING) + 3);
		if (version == U_CTL_VERSION)
			return CTL_CONN_OK;
		snprintf(c->error, sizeof(c->error), "process %d speaks protocol version %d, this "
		         "xrlm %d", (int)pid, version, U_CTL_VERSION);
	} else if (r == 2) {
		ctl_conn_display(line, sizeof(line));
		snprintf(c->error, sizeof(c->error), "process %d: %.400s", (int)pid,
		         strncmp(line, "ERR ", 4) == 0 ? line + 4 : line);
	} else if (r >= 0) {
		char q[QUOTE_PATH_MAX];
		snprintf(c->error, sizeof(c->error), "process %d: no greeting on %s", (int)pid,
		         quote_path(q, c->path));
	}
	ctl_conn_close(c);
	return CTL_CONN_FAILED;
}

void ctl_conn_close(struct ctl_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

bool ctl_conn_send(struct ctl_conn *c, const char *request)
{
	char line[U_CTL_LINE_MAX + 1];
	int n = snprintf(line, sizeof(line), "%s\n", request);

	if (n < 0 || n > U_CTL_LINE_MAX) {
		snprintf(c->error, sizeof(c->error),
		         "request too long (at most %d bytes before its newline)", U_CTL_LINE_MAX - 1);
		return false;
	}
	for (int off = 0; off < n;) {
		ssize_t w = send(c->fd, line + off, (size_t)(n - off), MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			snprintf(c->error, sizeof(c->error), "process %d: %s", (int)c->pid,
			         strerror(errno));
			return false;
		}
		off += (int)w;
	}
	return true;
}

/* Takes one whole line out of the buffer; see ctl_conn_line. */
static int take_line(struct ctl_conn *c, char *line, size_t size)
{
	char *nl = memchr(c->buf, '\n', c->len);
	if (!nl)
		return -1;
	size_t n = (size_t)(nl - c->buf);
	snprintf(line, size, "%.*s", (int)n, c->buf);
	memmove(c->buf, nl + 1, c->len - n - 1);
	c->len -= n + 1;
	bool status = strncmp(line, "OK", 2) == 0 || strncmp(line, "ERR", 3) == 0;
	return status ? 2 : 1;
}

void ctl_conn_deadline(struct ctl_conn *c, int timeout_ms)
{
	c->timeout_ms = timeout_ms;
	c->deadline_ms = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
}

int ctl_conn_line(struct ctl_conn *c, char *line, size_t size)
{
	long long deadline = c->deadline_ms;

	for (;;) {
		int r = take_line(c, line, size);
		if (r > 0)
			return r;
		if (c->len == sizeof(c->buf)) {
			snprintf(c->error, sizeof(c->error), "process %d: reply line too long", (int)c->pid);
			return -1;
		}
		int wait = deadline < 0 ? -1 : (int)(deadline - now_ms());
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		int pr = deadline >= 0 && wait <= 0 ? 0 : poll(&p, 1, wait);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0) {
			snprintf(c->error, sizeof(c->error), "process %d: no reply within %.1f s",
			         (int)c->pid, c->timeout_ms / 1000.0);
			return -1;
		}
		ssize_t n = pr < 0 ? -1 : recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(c->error, sizeof(c->error), "process %d: %s", (int)c->pid, strerror(errno));
			return -1;
		}
		c->len += (size_t)n;
	}
}

void ctl_conn_value(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *p = line; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) != 0 || p[klen] != '=')
			continue;
		const char *v = p + klen + 1;
		size_t n = strcspn(v, " ");
		snprintf(out, size, "%.*s", (int)n, v);
		ctl_conn_display(out, size);
		return;
	}
}

void ctl_conn_display(char *s, size_t size)
{
	/* In place: an escape's four bytes decode to one, never more. */
	u_ctl_unescape(s, s, size);
	quote_path_to(s, size, s, size);
}
