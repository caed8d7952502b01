/*
 * `xrlm ctl`'s side of the control socket (protocol: layer/u_ctl.h): one
 * connection to a process's socket, its greeting checked, requests sent
 * and replies read line by line, every read bounded by a timeout.
 */
#ifndef XRLM_CTL_CONN_H
#define XRLM_CTL_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Longest reply line read (longer ones are an error). */
#define CTL_CONN_LINE_MAX 32768

struct ctl_conn {
	int fd;
	pid_t pid;
	char path[4096];
	char buf[CTL_CONN_LINE_MAX];
	size_t len;
	int timeout_ms;         /* the wait ctl_conn_deadline() started, */
	long long deadline_ms;  /* and when it ends (CLOCK_MONOTONIC; -1: never) */
	char error[4608]; /* why the last call failed, one line */
};

enum ctl_conn_result {
	CTL_CONN_OK,
	CTL_CONN_STALE,   /* nobody listens on the socket: the process is gone */
	CTL_CONN_ABSENT,  /* no socket for this pid */
	CTL_CONN_FAILED,  /* anything else: see error */
};

/*
 * Connects to process @p pid's socket in the socket directory @p dir and
 * reads its greeting within @p timeout_ms.
 */
enum ctl_conn_result ctl_conn_open(struct ctl_conn *c, const char *dir, pid_t pid,
                                   int timeout_ms);

/* Closes the connection. */
void ctl_conn_close(struct ctl_conn *c);

/* Sends one request line (its '\n' is added). False on failure (see error). */
bool ctl_conn_send(struct ctl_conn *c, const char *request);

/*
 * Starts a wait: the lines read by ctl_conn_line() from now until the next
 * call must all come within @p timeout_ms (negative: no limit), so that a
 * process that keeps sending data lines and never ends its reply cannot
 * hold xrlm past it.
 */
void ctl_conn_deadline(struct ctl_conn *c, int timeout_ms);

/*
 * Reads the next line, without its '\n', into @p line before the deadline
 * ctl_conn_deadline() set. Returns 1 for a data line, 2 for the status line
 * that ends a reply, 0 at end of connection, -1 on error or timeout.
 */
int ctl_conn_line(struct ctl_conn *c, char *line, size_t size);

/*
 * The value of @p key in the data line @p line, as ctl_conn_display()
 * shows it, into @p out ("" when absent).
 */
void ctl_conn_value(const char *line, const char *key, char *out, size_t size);

/*
 * Text from the socket (@p s, @p size bytes) made fit for a terminal, in
 * place: the protocol's escapes decoded, then shown as xrlm shows a file
 * name (quote.h: a control byte, a C1 control or a backslash makes it C
 * escaped), so that what a process sends can neither reach the terminal
 * raw nor pass for other text. Cut to @p size (QUOTE_PATH_MAX at most
 * once escaped, where quote_path() ends it with "...").
 */
void ctl_conn_display(char *s, size_t size);

#endif /* XRLM_CTL_CONN_H */
