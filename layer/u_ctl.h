/*
 * The control socket's protocol, shared by the pre layer (the server, see
 * xl_ctl_server.h) and `xrlm ctl` (the client); the README's "Control
 * socket" section is its user-facing description.
 *
 * Lines of text, each ended by '\n'. On connect the server sends its
 * greeting, "OK xrlm-ctl <version> pid=<pid>", or "ERR <why>" and closes.
 * The client sends one request line at a time (at most U_CTL_LINE_MAX
 * bytes with its '\n'); every reply is zero or more data lines followed by
 * exactly one status line, "OK[ <text>]" or "ERR <text>", which ends it. A
 * data line is "key=value" fields separated by single spaces; its values
 * are escaped (u_ctl_escape) and so hold no blank, so a data line never
 * begins with "OK" or "ERR".
 */
#ifndef XRLM_U_CTL_H
#define XRLM_U_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define U_CTL_VERSION 1
#define U_CTL_GREETING "xrlm-ctl"
/* A request line's bytes, its '\n' included. */
#define U_CTL_LINE_MAX 512
/* A mark's text, in bytes before escaping. */
#define U_CTL_MARK_MAX 256
/* Room for any escaped text of @p n bytes, with its NUL. */
#define U_CTL_ESCAPED_SIZE(n) ((n) * 4 + 1)

/*
 * Writes the socket directory "$XDG_RUNTIME_DIR/xrlm" into @p out. Returns
 * false, with the reason in @p why, when XDG_RUNTIME_DIR is unset, not
 * absolute, or the path does not fit.
 */
bool u_ctl_dir(char *out, size_t size, char *why, size_t why_size);

/* Writes "<dir>/<pid>.sock" into @p out; false when it does not fit. */
bool u_ctl_socket_path(char *out, size_t size, const char *dir, pid_t pid);

/*
 * Parses a socket's file name "<pid>.sock" (a positive decimal pid);
 * false for any other name.
 */
bool u_ctl_parse_socket_name(const char *name, pid_t *pid);

/*
 * Connects to the Unix socket @p path without blocking on a full backlog
 * (a close-on-exec, blocking descriptor once connected). -1 and errno on
 * failure: ECONNREFUSED means nobody listens there (a stale socket),
 * EAGAIN a listener too busy to take the connection now.
 */
int u_ctl_connect(const char *path);

/*
 * Escapes @p len bytes of @p in into @p out (at least
 * U_CTL_ESCAPED_SIZE(len) bytes, else the text is cut at a whole escape):
 * every space, byte below 0x20, 0x7f, '\\', '"' and ',' becomes "\xHH"
 * (two lowercase hex digits); other bytes, UTF-8 included, are kept.
 * Used for the protocol's values and for marks in the CSV files.
 */
void u_ctl_escape(const char *in, size_t len, char *out, size_t out_size);

/*
 * Undoes u_ctl_escape: each "\\xHH" of @p s becomes that byte in @p out
 * (@p size bytes, always terminated; a decoded NUL ends the text there).
 * @p out may be @p s: the text only shrinks. Control bytes come out raw:
 * xrlm shows such text through ctl_conn_display().
 */
void u_ctl_unescape(const char *s, char *out, size_t size);

/*
 * Whether @p len bytes of @p s are valid UTF-8 (no overlong forms,
 * surrogates or code points past U+10FFFF) without control characters:
 * what a mark's text may hold.
 */
bool u_ctl_text_valid(const char *s, size_t len);

#endif /* XRLM_U_CTL_H */
