/*
 * `xrlm ctl`: a handle on running applications through their control
 * sockets (README, "Control socket"): list, status, start, stop, mark,
 * watch.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_conn.h"
#include "quote.h"
#include "u_ctl.h"
#include "u_parse.h"

#define DEFAULT_TIMEOUT_MS 5000
/* stop waits for the frame (5 s) and the merge (300 s) in the layer: a bit more here. */
#define STOP_TIMEOUT_MS 330000

struct ctl_args {
	const char *verb;
	pid_t pid;
	const char *text; /* mark */
	int timeout_ms;
	uint64_t count;   /* watch: lines to print, 0 = until the process ends it */
};

/* "xrlm: MESSAGE" and the input/failure exit status. */
static int failed(const char *message)
{
	fprintf(stderr, "xrlm: %s\n", message);
	return CMD_EXIT_INPUT;
}

/*
 * Whether process @p pid runs (as far as this user can tell: one of
 * another user's answers EPERM, and is alive too).
 */
static bool process_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/*
 * A socket nobody listens on: removed, if it is this user's socket and its
 * process is gone; true then. A process that runs may have bound its
 * socket and not listen on it yet (the layer binds, then listens, at
 * instance creation: a loaded machine can hold it between the two for
 * milliseconds); removing its socket then would leave it unreachable for
 * the rest of its life. Its socket stays; false, and @p c->error says so.
 */
static bool remove_stale(struct ctl_conn *c)
{
	struct stat st;
	char q[QUOTE_PATH_MAX];

	if (process_alive(c->pid)) {
		snprintf(c->error, sizeof(c->error), "process %d runs but does not accept "
		         "connections on %s (not listening yet?): try again", (int)c->pid,
		         quote_path(q, c->path));
		return false;
	}
	if (lstat(c->path, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != geteuid())
		return true;
	if (unlink(c->path) == 0)
		fprintf(stderr, "xrlm: process %d is gone: removed its stale socket %s\n",
		        (int)c->pid, quote_path(q, c->path));
	return true;
}

/* Connects to @p pid's socket; prints why not and returns false. */
static bool open_pid(struct ctl_conn *c, const char *dir, pid_t pid, int timeout_ms)
{
	switch (ctl_conn_open(c, dir, pid, timeout_ms)) {
	case CTL_CONN_OK:
		return true;
	case CTL_CONN_STALE:
		if (!remove_stale(c))
			failed(c->error);
		break;
	case CTL_CONN_ABSENT: {
		char q[QUOTE_PATH_MAX];
		fprintf(stderr, "xrlm: no control socket for process %d in %s (not running with the "
		        "monitor's layers, XRLM_CONTROL=off, or another XDG_RUNTIME_DIR)\n", (int)pid,
		        quote_path(q, dir));
		break;
	}
	case CTL_CONN_FAILED:
		failed(c->error);
		break;
	}
	return false;
}

/*
 * Sends @p request and reads its reply: each data line goes to @p on_data
 * (may be NULL), the status line into @p status. 0 when it says OK.
 */
static int exchange(struct ctl_conn *c, const char *request, int timeout_ms,
                    void (*on_data)(const char *line, void *ctx), void *ctx, char *status,
                    size_t status_size)
{
	char line[CTL_CONN_LINE_MAX];

	if (!ctl_conn_send(c, request))
		return failed(c->error);
	/* The whole reply within the timeout, not each of its lines. */
	ctl_conn_deadline(c, timeout_ms);
	for (;;) {
		int r = ctl_conn_line(c, line, sizeof(line));
		if (r < 0)
			return failed(c->error);
		if (r == 0) {
			fprintf(stderr, "xrlm: process %d closed the connection before replying\n",
			        (int)c->pid);
			return CMD_EXIT_INPUT;
		}
		if (r == 2)
			break;
		if (on_data)
			on_data(line, ctx);
	}
	/* A longer status line is cut: its start says what happened. Shown
	 * as all the process sends, OK's note ("OK stopped; ...") too. */
	if (snprintf(status, status_size, "%s", line) >= (int)status_size)
		status[status_size - 1] = '\0';
	ctl_conn_display(status, status_size);
	if (strncmp(status, "OK", 2) == 0)
		return 0;
	fprintf(stderr, "xrlm: process %d: %s\n", (int)c->pid,
	        strncmp(status, "ERR ", 4) == 0 ? status + 4 : status);
	return CMD_EXIT_INPUT;
}

/* Keeps the last data line of a reply. */
static void keep_line(const char *line, void *ctx)
{
	snprintf(ctx, CTL_CONN_LINE_MAX, "%s", line);
}

/* ---- list ---- */

static void list_one(const char *dir, pid_t pid)
{
	struct ctl_conn *c = malloc(sizeof(*c));
	char *data = malloc(CTL_CONN_LINE_MAX), status[256];
	char app[1024], target[1024], rec[8], session[128];

	if (!c || !data) {
		fprintf(stderr, "xrlm: out of memory\n");
	} else if (ctl_conn_open(c, dir, pid, 2000) == CTL_CONN_STALE && remove_stale(c)) {
		/* gone: not listed */
	} else if (c->fd < 0) {
		printf("%-8d %-9s %s\n", (int)pid, "?", c->error);
	} else {
		data[0] = '\0';
		if (exchange(c, "status", 2000, keep_line, data, status, sizeof(status)) == 0) {
			ctl_conn_value(data, "app", app, sizeof(app));
			ctl_conn_value(data, "target_layer", target, sizeof(target));
			ctl_conn_value(data, "recording", rec, sizeof(rec));
			ctl_conn_value(data, "session", session, sizeof(session));
			printf("%-8d %-9s %-24s %-24s %s\n", (int)pid, strcmp(rec, "1") == 0 ? "yes" : "no",
			       session[0] ? session : "-", app[0] ? app : "-", target);
		}
		ctl_conn_close(c);
	}
	free(data);
	free(c);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

static int run_list(const char *dir)
{
	pid_t pids[4096];
	size_t n = 0;

	DIR *d = opendir(dir);
	if (!d && errno != ENOENT) {
		char q[QUOTE_PATH_MAX];
		int err = errno;
		fprintf(stderr, "xrlm: %s: %s\n", quote_path(q, dir), strerror(err));
		return CMD_EXIT_INPUT;
	}
	for (struct dirent *e; d && (e = readdir(d)) && n < sizeof(pids) / sizeof(pids[0]);)
		if (u_ctl_parse_socket_name(e->d_name, &pids[n]))
			n++;
	if (d)
		closedir(d);
	qsort(pids, n, sizeof(pids[0]), cmp_pid);
	printf("%-8s %-9s %-24s %-24s %s\n", "PID", "RECORDING", "SESSION", "APP", "TARGET");
	for (size_t i = 0; i < n; i++)
		list_one(dir, pids[i]);
	return cmd_finish_output(stdout);
}

/* ---- status, start, stop, mark ---- */

/* Prints a status line's fields one a line, "key: value". */
static void print_fields(const char *line, void *ctx)
{
	(void)ctx;
	for (const char *p = line; *p;) {
		size_t n = strcspn(p, " ");
		const char *eq = memchr(p, '=', n);
		if (eq) {
			char key[64], value[CTL_CONN_LINE_MAX];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
			ctl_conn_value(p, key, value, sizeof(value));
			ctl_conn_display(key, sizeof(key));
			printf("%-14s %s\n", key, value);
		}
		p += n + (p[n] == ' ');
	}
}

/* The reply's value of @p key, kept by keep_lines. */
struct kept {
	char session[256];
	char merged[CTL_CONN_LINE_MAX];
};

static void keep_lines(const char *line, void *ctx)
{
	struct kept *k = ctx;
	if (strncmp(line, "session=", 8) == 0)
		ctl_conn_value(line, "session", k->session, sizeof(k->session));
	else if (strncmp(line, "merged=", 7) == 0)
		ctl_conn_value(line, "merged", k->merged, sizeof(k->merged));
}

/*
 * What the status line @p status adds to "OK @p word" ("; ..."), shown
 * after the reply's line; "" when nothing.
 */
static const char *ok_note(const char *status, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(status, "OK ", 3) != 0 || strncmp(status + 3, word, n) != 0 ||
	    strncmp(status + 3 + n, "; ", 2) != 0)
		return "";
	return status + 3 + n;
}

static int run_verb(struct ctl_conn *c, const struct ctl_args *a)
{
	char status[CTL_CONN_LINE_MAX], request[U_CTL_LINE_MAX + 8];
	struct kept *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return failed("out of memory");
	if (strcmp(a->verb, "status") == 0) {
		rc = exchange(c, "status", a->timeout_ms, print_fields, NULL, status, sizeof(status));
	} else if (strcmp(a->verb, "start") == 0) {
		rc = exchange(c, "start", a->timeout_ms + 5000, keep_lines, k, status, sizeof(status));
		if (rc == 0)
			printf("recording: session %s%s\n", k->session[0] ? k->session : "(tag not known yet)",
			       ok_note(status, "recording"));
	} else if (strcmp(a->verb, "stop") == 0) {
		rc = exchange(c, "stop", STOP_TIMEOUT_MS, keep_lines, k, status, sizeof(status));
		if (rc == 0 && k->merged[0])
			printf("stopped: session %s\nmerged CSV: %s\n", k->session, k->merged);
		else if (rc == 0)
			printf("stopped: session %s%s\n", k->session, ok_note(status, "stopped"));
	} else {
		snprintf(request, sizeof(request), "mark %s", a->text);
		rc = exchange(c, request, a->timeout_ms + 5000, keep_lines, k, status, sizeof(status));
		if (rc == 0)
			printf("mark written into session %s\n", k->session);
	}
	free(k);
	return rc ? rc : cmd_finish_output(stdout);
}

/* ---- watch ---- */

static int run_watch(struct ctl_conn *c, const struct ctl_args *a)
{
	char line[CTL_CONN_LINE_MAX], v[9][128];
	static const char *const keys[] = {"frames", "cpu_mean_us", "cpu_p99_us", "gpu_frames",
	                                   "gpu_mean_us", "gpu_p99_us", "dropped", "session", "t"};
	double t0 = -1.0;
	uint64_t shown = 0;

	if (!ctl_conn_send(c, "watch"))
		return failed(c->error);
	printf("%8s %7s %12s %12s %7s %12s %12s %8s  %s\n", "time_s", "frames", "cpu_mean_us",
	       "cpu_p99_us", "gpu_n", "gpu_mean_us", "gpu_p99_us", "dropped", "session");
	fflush(stdout);
	while (a->count == 0 || shown < a->count) {
		ctl_conn_deadline(c, 5000); /* a line a second is due */
		int r = ctl_conn_line(c, line, sizeof(line));
		if (r < 0)
			return failed(c->error);
		if (r == 0)
			return failed("the process closed the connection");
		if (r == 2) {
			ctl_conn_display(line, sizeof(line));
			printf("%s\n", line);
			return strncmp(line, "OK", 2) == 0 ? cmd_finish_output(stdout) : CMD_EXIT_INPUT;
		}
		if (strncmp(line, "t=", 2) != 0)
			continue; /* the first line, interval_ms= */
		for (size_t i = 0; i < 9; i++)
			ctl_conn_value(line, keys[i], v[i], sizeof(v[i]));
		double t = atof(v[8]) / 1e9;
		if (t0 < 0)
			t0 = t;
		printf("%8.1f %7s %12s %12s %7s %12s %12s %8s  %s\n", t - t0, v[0], v[1][0] ? v[1] : "-",
		       v[2][0] ? v[2] : "-", v[3], v[4][0] ? v[4] : "-", v[5][0] ? v[5] : "-", v[6],
		       v[7][0] ? v[7] : "(not recording)");
		if (fflush(stdout) != 0)
			return cmd_finish_output(stdout);
		shown++;
	}
	return cmd_finish_output(stdout);
}

/* ---- arguments ---- */

static int parse_args(int argc, char **argv, struct ctl_args *a)
{
	static char text[U_CTL_MARK_MAX + 2];
	const char *timeout = NULL, *count = NULL, *pos[3] = {NULL, NULL, NULL};
	const char *const names[] = {"--timeout", "--count"};
	const char **const slots[] = {&timeout, &count};
	int npos = 0;
	bool options_end = false; /* after "--": a mark's text may begin with "--" */
	double t;
	uint64_t v;

	for (int i = 0; i < argc; i++) {
		if (!options_end && strcmp(argv[i], "--") == 0) {
			options_end = true;
			continue;
		}
		int m = options_end ? 0 : cmd_options(argc, argv, &i, names, slots, 2);
		if (m == CMD_EXIT_USAGE)
			return m;
		if (m)
			continue;
		bool in_text = npos >= 2 && strcmp(pos[0], "mark") == 0;
		if (cmd_is_option(argv[i]) && !in_text && !options_end)
			return cmd_usage_error("unknown option", argv[i]);
		if (in_text && npos == 3) {
			/* mark PID TEXT...: the words of the text, joined by spaces */
			size_t used = strlen(text);
			if (used + 1 + strlen(argv[i]) >= sizeof(text))
				return cmd_usage_error("the mark's text is too long", NULL);
			snprintf(text + used, sizeof(text) - used, " %s", argv[i]);
			continue;
		}
		if (npos == 3)
			return cmd_usage_error("too many arguments", argv[i]);
		if (in_text)
			snprintf(text, sizeof(text), "%s", argv[i]);
		pos[npos++] = in_text ? text : argv[i];
	}
	if (!pos[0])
		return cmd_usage_error("ctl needs a command", NULL);
	a->verb = pos[0];
	bool known = false;
	static const char *const verbs[] = {"list", "status", "start", "stop", "mark", "watch"};
	for (size_t k = 0; k < 6; k++)
		known |= strcmp(a->verb, verbs[k]) == 0;
	if (!known)
		return cmd_usage_error("unknown ctl command", a->verb);
	bool is_list = strcmp(a->verb, "list") == 0, is_mark = strcmp(a->verb, "mark") == 0;
	if (npos != 1 + !is_list + is_mark)
		return cmd_usage_error(is_list ? "ctl list takes no argument"
		                       : is_mark ? "usage: ctl mark PID TEXT"
		                                 : "this ctl command takes one PID", NULL);
	if (!is_list) {
		if (u_parse_u64(pos[1], 1, 0x7fffffff, &v) != U_PARSE_OK)
			return cmd_usage_error("not a process id", pos[1]);
		a->pid = (pid_t)v;
	}
	a->text = pos[2];
	a->timeout_ms = DEFAULT_TIMEOUT_MS;
	if (timeout) {
		if (u_parse_double(timeout, 0.001, 3600, &t) != U_PARSE_OK)
			return cmd_usage_error("--timeout needs seconds (0.001 to 3600)", timeout);
		a->timeout_ms = (int)(t * 1000.0 + 0.5);
	}
	if (count) {
		if (strcmp(a->verb, "watch") != 0 || u_parse_u64(count, 1, 1000000000, &a->count) != U_PARSE_OK)
			return cmd_usage_error("--count N (1 to 10^9) goes with watch", count);
	}
	if (is_mark && (strlen(a->text) == 0 || strlen(a->text) > U_CTL_MARK_MAX ||
	                !u_ctl_text_valid(a->text, strlen(a->text))))
		return cmd_usage_error("the mark's text must be 1 to 256 bytes of UTF-8 without "
		                       "control characters", NULL);
	return 0;
}

static int run(int argc, char **argv)
{
	struct ctl_args a = {0};
	char dir[4096], why[256];

	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (!u_ctl_dir(dir, sizeof(dir), why, sizeof(why)))
		return failed(why);
	if (strcmp(a.verb, "list") == 0)
		return run_list(dir);

	struct ctl_conn *c = malloc(sizeof(*c));
	if (!c)
		return failed("out of memory");
	rc = CMD_EXIT_INPUT;
	if (open_pid(c, dir, a.pid, a.timeout_ms)) {
		rc = strcmp(a.verb, "watch") == 0 ? run_watch(c, &a) : run_verb(c, &a);
		ctl_conn_close(c);
	}
	free(c);
	return rc;
}

const struct cmd cmd_ctl = {
	.name = "ctl",
	.synopsis = "list | status PID | start PID | stop PID | mark PID TEXT... | watch PID "
	            "[--count N] [--timeout S]",
	.help = "controls running applications through their layers' control\n"
	        "sockets ($XDG_RUNTIME_DIR/xrlm/<pid>.sock): list them (stale\n"
	        "sockets are removed), show one's status, start or stop its\n"
	        "recording (stop prints the merged CSV's path once it is written),\n"
	        "write a mark into the session's files, or watch the target's\n"
	        "cost second by second while it records\n",
	.run = run,
};
