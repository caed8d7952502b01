/*
 * The control socket's protocol helpers; see u_ctl.h.
 */
#include "u_ctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

bool u_ctl_dir(char *out, size_t size, char *why, size_t why_size)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");

	if (!rt || !rt[0]) {
		snprintf(why, why_size, "XDG_RUNTIME_DIR is not set");
		return false;
	}
	if (rt[0] != '/') {
		snprintf(why, why_size, "XDG_RUNTIME_DIR=\"%.64s\" is not an absolute path", rt);
		return false;
	}
	if ((size_t)snprintf(out, size, "%s/xrlm", rt) >= size) {
		snprintf(why, why_size, "XDG_RUNTIME_DIR is too long");
		return false;
	}
	return true;
}

bool u_ctl_socket_path(char *out, size_t size, const char *dir, pid_t pid)
{
	return (size_t)snprintf(out, size, "%s/%d.sock", dir, (int)pid) < size;
}

bool u_ctl_parse_socket_name(const char *name, pid_t *pid)
{
	char *end;

	if (name[0] < '1' || name[0] > '9')
		return false;
	unsigned long v = strtoul(name, &end, 10);
	if (strcmp(end, ".sock") != 0 || v > INT32_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

/*
 * Connects @p fd to the socket at @p path. A path longer than a socket
 * address holds (108 bytes) is reached through its open directory in
 * /proc/self/fd, as the layer binds it (xl_ctl_socket.c).
 */
static int connect_path(int fd, const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len = strlen(path);

	if (len < sizeof(sa.sun_path)) {
		memcpy(sa.sun_path, path, len + 1);
		return connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	int dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0)
		return -1;
	int n = snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", dir_fd, slash + 1);
	int rc = -1;
	if (n > 0 && (size_t)n < sizeof(sa.sun_path))
		rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	else
		errno = ENAMETOOLONG;
	int err = errno;
	close(dir_fd);
	errno = err;
	return rc;
}

int u_ctl_connect(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* A Unix stream connect completes at once or fails: EAGAIN is a full backlog. */
	if (connect_path(fd, path) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

static bool needs_escape(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || c == '\\' || c == '"' || c == ',';
}

void u_ctl_escape(const char *in, size_t len, char *out, size_t out_size)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (out_size == 0)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		size_t need = needs_escape(c) ? 4 : 1;
		if (o + need >= out_size)
			break;
		if (need == 1) {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether @p p starts with "\\xHH"; the byte it stands for in *@p c. */
static bool escaped_byte(const char *p, unsigned char *c)
{
	int hi, lo;

	if (p[0] != '\\' || p[1] != 'x' || (hi = hex_digit(p[2])) < 0 || (lo = hex_digit(p[3])) < 0)
		return false;
	*c = (unsigned char)(hi << 4 | lo);
	return true;
}

void u_ctl_unescape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s && n + 1 < size) {
		unsigned char c;
		if (escaped_byte(s, &c)) {
			out[n++] = (char)c;
			s += 4;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
}

/* Length of the UTF-8 sequence starting with @p c, 0 for a byte that cannot start one. */
static size_t utf8_length(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

bool u_ctl_text_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_length(p[i]);
		if (n == 0 || i + n > len)
			return false;
		if (n == 1 && (p[i] < 0x20 || p[i] == 0x7f))
			return false;
		uint32_t cp = n == 1 ? p[i] : p[i] & (0x7f >> n);
		for (size_t k = 1; k < n; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		/* Overlong 3- and 4-byte forms, surrogates, beyond U+10FFFF; and C1 controls. */
		if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0x80 && cp < 0xa0))
			return false;
		i += n;
	}
	return true;
}
