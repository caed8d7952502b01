/*
 * The control socket's requests (protocol: u_ctl.h; user view: README,
 * "Control socket"), answered on pre's control thread: status, start,
 * stop, mark, watch, quit. Start, stop and mark take effect through the
 * writers and the next frame, so their replies wait (bounded) without
 * blocking the thread: xl_ctl_cmd_progress is asked again on every pass.
 */
#ifndef XL_CTL_CMD_H
#define XL_CTL_CMD_H

#include "u_ctl.h"
#include "xl_control.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes a client's replies may queue before it counts as too slow a reader. */
#define XL_CTL_OUT_MAX 16384

enum xl_ctl_wait {
	XL_CTL_IDLE,  /* reading requests */
	XL_CTL_START, /* for the first recorded frame of the session */
	XL_CTL_STOP,  /* for the stop, then the merge */
	XL_CTL_MARK,  /* for both writers to write the mark */
	XL_CTL_WATCH, /* sent a line a second until the client says anything */
};

struct xl_ctl_client {
	/* The state, cleared for each new connection (up to in[]). */
	int fd; /* -1: a free slot */
	size_t in_len;
	size_t out_len;
	uint64_t deadline_ns; /* idle: drop the client then; waiting: give up then */
	enum xl_ctl_wait wait;
	uint32_t wait_id;  /* start: the session before; stop: the one stopping */
	uint64_t wait_seq; /* mark: its sequence number */
	bool stopped;      /* stop: the frame thread has stopped the session */
	bool eof;          /* the client sent everything it will */
	bool close_after;  /* close once the output is sent */
	bool overflow;     /* more output than XL_CTL_OUT_MAX: dropped */
	/* The buffers. */
	char in[U_CTL_LINE_MAX];
	char out[XL_CTL_OUT_MAX];
};

/* Appends one line (formatted, '\n' added) to @p c's output. */
void xl_ctl_client_print(struct xl_ctl_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Answers (or begins to answer) one request line @p line, without its '\n'. */
void xl_ctl_cmd_request(struct xl_control *ctl, struct xl_ctl_client *c, char *line,
                        uint64_t now_ns);

/*
 * Moves @p c's wait on: replies and returns to XL_CTL_IDLE when it is over
 * (or @p give_up: the thread is ending).
 */
void xl_ctl_cmd_progress(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now_ns,
                         bool give_up);

/* Ends @p c's watch (a line from the client, or the thread ending). */
void xl_ctl_cmd_end_watch(struct xl_control *ctl, struct xl_ctl_client *c, const char *why);

/*
 * One second of the live view as a data line, for every watching client
 * in @p clients[0..n-1]. @p scratch: see xl_live_take; @p dropped_seen
 * keeps the drop count between calls.
 */
void xl_ctl_cmd_watch_tick(struct xl_control *ctl, struct xl_ctl_client *clients, size_t n,
                           double *scratch, uint64_t *dropped_seen, uint64_t now_ns);

#endif /* XL_CTL_CMD_H */
