/*
 * The control socket's requests; see xl_ctl_cmd.h.
 */
#include "xl_ctl_cmd.h"

#include "u_names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NS_PER_S 1000000000ull
/* How long start, stop and mark wait for a frame or a writer. */
#define FRAME_WAIT_NS (5 * NS_PER_S)
/* How long stop then waits for the merge (10^7 frames merge in ~10 s here). */
#define MERGE_WAIT_NS (300 * NS_PER_S)
/* Longest value (before escaping) a reply carries: a path, a layer list. */
#define VALUE_MAX 1024

/* @p text escaped (cut at VALUE_MAX bytes) into @p buf, for a data line. */
static const char *esc(char *buf, size_t size, const char *text)
{
	size_t len = strlen(text);
	u_ctl_escape(text, len < VALUE_MAX ? len : VALUE_MAX, buf, size);
	return buf;
}

static uint64_t load_word(struct xl_control *ctl)
{
	return atomic_load_explicit(&ctl->word, memory_order_acquire);
}

/*
 * Session @p id's tag, copied into @p buf (XL_TAG_MAX bytes), or "" when
 * its slot no longer holds it or it has none yet.
 */
static const char *session_tag(struct xl_control *ctl, uint32_t id, char *buf)
{
	xl_control_session_tag(ctl, id, buf);
	return buf;
}

static void finish(struct xl_ctl_client *c)
{
	c->wait = XL_CTL_IDLE;
	c->deadline_ns = 0; /* the server sets the idle deadline again */
}

static void cmd_status(struct xl_control *ctl, struct xl_ctl_client *c)
{
	char app[U_CTL_ESCAPED_SIZE(VALUE_MAX)], target[sizeof(app)], dir[sizeof(app)];
	char tag[sizeof(app)], raw[XL_TAG_MAX], now[XL_PATH_MAX];
	uint64_t word = load_word(ctl);
	bool active = xl_control_word_active(word);

	xl_ctl_client_print(c, "version=%d pid=%d app=%s target_layer=%s recording=%d session=%s "
	                    "frames=%" PRIu64 " output_dir=%s",
	                    U_CTL_VERSION, (int)getpid(), esc(app, sizeof(app), ctl->app_name),
	                    esc(target, sizeof(target), ctl->target_layer), active,
	                    esc(tag, sizeof(tag),
	                        active ? session_tag(ctl, xl_control_word_id(word), raw) : ""),
	                    active ? atomic_load(&ctl->session_rows) : 0,
	                    esc(dir, sizeof(dir), xl_control_output_dir(ctl, now, sizeof(now))));
	xl_ctl_client_print(c, "OK");
}

static void cmd_start(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now)
{
	uint64_t word = load_word(ctl);
	char tag[U_CTL_ESCAPED_SIZE(XL_TAG_MAX)], raw[XL_TAG_MAX];

	if (xl_control_word_active(word)) {
		xl_ctl_client_print(c, "ERR already recording: session %s",
		                    esc(tag, sizeof(tag),
		                        session_tag(ctl, xl_control_word_id(word), raw)));
		return;
	}
	c->wait = XL_CTL_START;
	c->wait_id = xl_control_word_id(word);
	c->deadline_ns = now + FRAME_WAIT_NS;
	xl_control_request(ctl, XL_REQ_START);
}

static void cmd_stop(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now)
{
	uint64_t word = load_word(ctl);

	if (!xl_control_word_active(word)) {
		xl_ctl_client_print(c, "ERR not recording");
		return;
	}
	c->wait = XL_CTL_STOP;
	c->wait_id = xl_control_word_id(word);
	c->stopped = false;
	c->deadline_ns = now + FRAME_WAIT_NS;
	xl_control_request(ctl, XL_REQ_STOP);
}

static void cmd_mark(struct xl_control *ctl, struct xl_ctl_client *c, const char *text,
                     uint64_t now)
{
	char escaped[U_CTL_ESCAPED_SIZE(U_CTL_MARK_MAX)];
	size_t len = strlen(text);
	uint64_t word = load_word(ctl);

	if (len == 0 || len > U_CTL_MARK_MAX || !u_ctl_text_valid(text, len)) {
		xl_ctl_client_print(c, "ERR mark: the text must be 1 to %d bytes of UTF-8 without "
		                    "control characters", U_CTL_MARK_MAX);
		return;
	}
	if (!xl_control_word_active(word)) {
		xl_ctl_client_print(c, "ERR not recording: a mark goes into a session's files");
		return;
	}
	if (ctl->no_files) {
		/* Else it would wait for files that never open, then say the session ended. */
		xl_ctl_client_print(c, "ERR mark: the session writes no files (XRLM_TRACE=lttng): "
		                    "a mark has none to go into");
		return;
	}
	u_ctl_escape(text, len, escaped, sizeof(escaped));
	c->wait_seq = xl_marks_add(&ctl->marks, xl_control_word_id(word), now, escaped);
	if (!c->wait_seq) {
		xl_ctl_client_print(c, "ERR too many marks waiting to be written; try again");
		return;
	}
	c->wait = XL_CTL_MARK;
	c->wait_id = xl_control_word_id(word);
	c->deadline_ns = now + FRAME_WAIT_NS;
}

static void cmd_watch(struct xl_control *ctl, struct xl_ctl_client *c)
{
	c->wait = XL_CTL_WATCH;
	c->deadline_ns = 0;
	xl_live_watch(&ctl->live, 1);
	xl_ctl_client_print(c, "interval_ms=1000");
}

/* The command word of @p line, its argument in *@p arg (NULL when none). */
static const char *split(char *line, char **arg)
{
	char *sp = strchr(line, ' ');
	*arg = NULL;
	if (sp) {
		*sp = '\0';
		*arg = sp + 1;
	}
	return line;
}

void xl_ctl_cmd_request(struct xl_control *ctl, struct xl_ctl_client *c, char *line,
                        uint64_t now_ns)
{
	char shown[U_CTL_ESCAPED_SIZE(32)];
	char *arg;
	const char *cmd = split(line, &arg);

	if (!cmd[0]) {
		xl_ctl_client_print(c, "ERR a request begins with its word, not a blank (status, "
		                    "start, stop, mark TEXT, watch, quit)");
		return;
	}
	if (strcmp(cmd, "mark") == 0 && arg) {
		cmd_mark(ctl, c, arg, now_ns);
		return;
	}
	if (arg) {
		xl_ctl_client_print(c, "ERR %s takes no argument", esc(shown, sizeof(shown), cmd));
		return;
	}
	if (strcmp(cmd, "status") == 0)
		cmd_status(ctl, c);
	else if (strcmp(cmd, "start") == 0)
		cmd_start(ctl, c, now_ns);
	else if (strcmp(cmd, "stop") == 0)
		cmd_stop(ctl, c, now_ns);
	else if (strcmp(cmd, "watch") == 0)
		cmd_watch(ctl, c);
	else if (strcmp(cmd, "quit") == 0) {
		xl_ctl_client_print(c, "OK bye");
		c->close_after = true;
	} else if (strcmp(cmd, "mark") == 0)
		xl_ctl_client_print(c, "ERR mark needs a text: mark TEXT");
	else {
		u_ctl_escape(cmd, strnlen(cmd, 32), shown, sizeof(shown));
		xl_ctl_client_print(c, "ERR unknown request \"%s\" (status, start, stop, mark TEXT, "
		                    "watch, quit)", shown);
	}
}

/* What became of a request the control socket withdraws. */
enum withdrawal {
	WITHDRAWN, /* still pending: taken back */
	TAKEN,     /* a frame took it meanwhile */
	STUCK,     /* a frame thread stays inside a transition: left as it is */
};

/*
 * Withdraws a request the frame thread has not taken. Never while a frame
 * thread holds the word (it would put back a bit it sees changed); one
 * stuck there past XL_BUSY_WAIT_NS may still take it: STUCK then.
 */
static enum withdrawal withdraw(struct xl_control *ctl, unsigned request)
{
	uint64_t cur = load_word(ctl);
	struct xl_busy_wait bw = {0};

	for (;;) {
		if (!xl_control_wait_idle(ctl, &cur, &bw)) {
			xl_control_busy_gave_up("the control socket", "a request is not withdrawn");
			return STUCK;
		}
		if (!(cur & request))
			return TAKEN;
		if (atomic_compare_exchange_weak_explicit(&ctl->word, &cur, cur & ~(uint64_t)request,
		                                          memory_order_acq_rel, memory_order_acquire))
			return WITHDRAWN;
	}
}

/*
 * The reply to a start or stop (@p what) no frame took in time, or that
 * the instance's end (@p give_up) cut short, after its withdrawal @p w
 * (not TAKEN).
 */
static void reply_not_taken(struct xl_ctl_client *c, const char *what, enum withdrawal w,
                            bool give_up)
{
	if (w == STUCK)
		xl_ctl_client_print(c, "ERR a frame thread is stuck inside a recording start or stop "
		                    "(in a signal handler?): %s not withdrawn", what);
	else if (give_up)
		xl_ctl_client_print(c, "ERR the application's instance is going away: %s withdrawn",
		                    what);
	else
		xl_ctl_client_print(c, "ERR no frame ended within %llu s (is the application "
		                    "rendering?): %s withdrawn",
		                    (unsigned long long)(FRAME_WAIT_NS / NS_PER_S), what);
	finish(c);
}

/* The reply to a start whose session has the tag @p raw (and has @p ended by now). */
static void reply_tag(struct xl_ctl_client *c, const char *raw, bool ended)
{
	char tag[U_CTL_ESCAPED_SIZE(XL_TAG_MAX)];

	xl_ctl_client_print(c, "session=%s", esc(tag, sizeof(tag), raw));
	/* A short session (XRLM_RECORD_FRAMES, or stopped at once) may be
	 * over before this thread looks: it was recorded all the same. */
	xl_ctl_client_print(c, "OK recording%s", ended ? "; the session has ended already" : "");
}

/*
 * Replies to a start whose session @p id began (it may have ended since),
 * once pre's writer settled its tag; no reply yet while the tag is on its
 * way, unless @p late (past the deadline, or the thread is ending).
 */
static void reply_started(struct xl_control *ctl, struct xl_ctl_client *c, uint32_t id,
                          bool late)
{
	char raw[XL_TAG_MAX];
	/* Read before the state: pre settles every session's tag before it
	 * finishes it, so a tag still pending after pre had finished it has
	 * no file (read after, a whole short session could fall between). */
	bool pre_done =
		atomic_load_explicit(&ctl->finished[XL_SIDE_PRE], memory_order_acquire) >= id;
	uint64_t state = xl_control_slot_state(ctl, id);
	enum xl_tag_state tag_state = xl_slot_tag_state(state);
	/* Read after the state: a tag settled as absent is one of an ended session. */
	bool ended = xl_control_ended_id(load_word(ctl)) >= id;
	if (tag_state == XL_TAG_PENDING && ended && pre_done)
		tag_state = XL_TAG_NONE;

	if (xl_slot_id(state) != id)
		xl_ctl_client_print(c, "ERR recording started; the session's data was overwritten "
		                    "by later sessions (toggled too fast)");
	else if (tag_state == XL_TAG_READY && xl_control_session_tag(ctl, id, raw))
		reply_tag(c, raw, ended);
	else if (tag_state == XL_TAG_FAILED || (tag_state == XL_TAG_NONE && !ended))
		/* Pre has no file (XL_TAG_NONE) while recording: no usable directory. */
		xl_ctl_client_print(c, "ERR recording started but its files cannot be created "
		                    "(see xrlm-pre.log)");
	else if (tag_state == XL_TAG_NONE)
		xl_ctl_client_print(c, "ERR recording started, but the session ended with no file: "
		                    "no frame of it reached pre's writer, or its files cannot be "
		                    "created (see xrlm-pre.log)");
	else if (!late)
		return; /* the first frame's record is on its way to the writer */
	else
		xl_ctl_client_print(c, "OK recording (session tag not known yet)");
	finish(c);
}

/*
 * Whether the start has yet to begin a session: still waiting, or (once
 * @p late) withdrawn or dropped, with a reply.
 */
static bool start_not_begun(struct xl_control *ctl, struct xl_ctl_client *c, bool late,
                            bool give_up)
{
	if (xl_control_word_id(load_word(ctl)) > c->wait_id)
		return false;
	if (!late)
		return true;
	enum withdrawal w = withdraw(ctl, XL_REQ_START);
	if (w != TAKEN) {
		reply_not_taken(c, "start", w, give_up);
		return true;
	}
	/* Taken: by a frame just now, or dropped by the instance's end. */
	if (xl_control_word_id(load_word(ctl)) > c->wait_id)
		return false;
	xl_ctl_client_print(c, "ERR the application's instance is going away: start dropped");
	finish(c);
	return true;
}

static void progress_start(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now,
                           bool give_up)
{
	bool late = give_up || now >= c->deadline_ns;

	if (start_not_begun(ctl, c, late, give_up))
		return;
	/* The first session begun since the request is the one it started:
	 * that it may have ended by now makes it no less the answer. */
	reply_started(ctl, c, c->wait_id + 1, late);
}

/* The reply to a stop whose session post's writer has settled. */
static void reply_stopped(struct xl_control *ctl, struct xl_ctl_client *c)
{
	char tag[U_CTL_ESCAPED_SIZE(XL_TAG_MAX)], path[XL_PATH_MAX + 128], raw[XL_TAG_MAX];
	char shown[U_CTL_ESCAPED_SIZE(VALUE_MAX)], now[XL_PATH_MAX];
	const char *t = session_tag(ctl, c->wait_id, raw);
	const char *dir = xl_control_output_dir(ctl, now, sizeof(now)); /* renamed: its new path */
	enum xl_merge_state state = xl_control_merge_state(ctl, c->wait_id);

	if (xl_slot_id(xl_control_slot_state(ctl, c->wait_id)) != c->wait_id)
		xl_ctl_client_print(c, "ERR stopped; the session's data was overwritten by later "
		                    "sessions (toggled too fast)");
	else if (ctl->no_files) {
		xl_ctl_client_print(c, "session=%s", esc(tag, sizeof(tag), t));
		xl_ctl_client_print(c, "OK stopped; no files to merge (XRLM_TRACE=lttng)");
	}
	else if (state == XL_MERGE_DONE &&
	         u_names_merged_file(path, sizeof(path), dir, U_NAMES_FRAMES, t) >= 0) {
		xl_ctl_client_print(c, "session=%s", esc(tag, sizeof(tag), t));
		xl_ctl_client_print(c, "merged=%s", esc(shown, sizeof(shown), path));
		xl_ctl_client_print(c, "OK stopped");
	} else if (state == XL_MERGE_LOST) {
		int err = 0;
		bool known = xl_control_lost(ctl, c->wait_id, &err) && err;
		if (err == ENOENT)
			xl_ctl_client_print(c, "ERR stopped; the output directory was deleted: session "
			                    "%s lost", esc(tag, sizeof(tag), t));
		else
			xl_ctl_client_print(c, "ERR stopped; session %s is lost: its files could not be "
			                    "written (%s; see xrlm-pre.log and xrlm-post.log)",
			                    esc(tag, sizeof(tag), t),
			                    known ? strerror(err) : "the reason is in the logs");
	} else if (state == XL_MERGE_FAILED)
		xl_ctl_client_print(c, "ERR stopped session %s, but its merge failed (see xrlm-post.log; "
		                    "`xrlm merge` can retry)", esc(tag, sizeof(tag), t));
	else
		xl_ctl_client_print(c, "ERR stopped; no frame was recorded%s, so nothing was merged",
		                    t[0] ? "" : " or its files could not be created");
	finish(c);
}

/*
 * Whether the session a stop named has ended: its wait moves on to the
 * merge. At the deadline the stop is withdrawn, with a reply.
 */
static bool stop_taken(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now,
                       bool give_up)
{
	if (xl_control_ended_id(load_word(ctl)) < c->wait_id) {
		if (now < c->deadline_ns && !give_up)
			return false;
		enum withdrawal w = withdraw(ctl, XL_REQ_STOP);
		if (w != TAKEN) {
			reply_not_taken(c, "stop", w, give_up);
			return false;
		}
		/* A frame, or the instance's end, took it just now: the
		 * session it named has ended. */
	}
	c->stopped = true;
	c->deadline_ns = now + MERGE_WAIT_NS;
	return true;
}

static void progress_stop(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now,
                          bool give_up)
{
	if (!c->stopped && !stop_taken(ctl, c, now, give_up))
		return;
	if (atomic_load_explicit(&ctl->settled[XL_SIDE_POST], memory_order_acquire) >= c->wait_id) {
		reply_stopped(ctl, c);
		return;
	}
	if (now < c->deadline_ns && !give_up)
		return;
	xl_ctl_client_print(c, "ERR stopped, but the merge %s (see xrlm-post.log)",
	                    give_up ? "was not finished when the instance went away"
	                            : "took too long to wait for");
	finish(c);
}

static void progress_mark(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now,
                          bool give_up)
{
	char tag[U_CTL_ESCAPED_SIZE(XL_TAG_MAX)], raw[XL_TAG_MAX];
	enum xl_mark_result r =
		xl_marks_result(&ctl->marks, c->wait_seq, give_up || now >= c->deadline_ns);

	if (r == XL_MARK_PENDING)
		return;
	if (r == XL_MARK_WRITTEN) {
		xl_ctl_client_print(c, "session=%s", esc(tag, sizeof(tag),
		                                                 session_tag(ctl, c->wait_id, raw)));
		xl_ctl_client_print(c, "OK mark written");
	} else {
		xl_ctl_client_print(c, "ERR the mark was not written: the session ended (or its "
		                    "files failed) first");
	}
	finish(c);
}

void xl_ctl_cmd_progress(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now_ns,
                         bool give_up)
{
	switch (c->wait) {
	case XL_CTL_START:
		progress_start(ctl, c, now_ns, give_up);
		break;
	case XL_CTL_STOP:
		progress_stop(ctl, c, now_ns, give_up);
		break;
	case XL_CTL_MARK:
		progress_mark(ctl, c, now_ns, give_up);
		break;
	case XL_CTL_IDLE:
	case XL_CTL_WATCH:
		break;
	}
}

void xl_ctl_cmd_end_watch(struct xl_control *ctl, struct xl_ctl_client *c, const char *why)
{
	if (c->wait != XL_CTL_WATCH)
		return;
	xl_live_watch(&ctl->live, -1);
	xl_ctl_client_print(c, "OK watch ended%s%s", why ? ": " : "", why ? why : "");
	finish(c);
}

/*
 * Appends printf-style text to @p buf (@p size bytes, *@p len used), cut
 * at the end of the buffer: *@p len never passes size - 1.
 */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;

	if (*len >= size - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size - 1 ? *len + (size_t)n : size - 1;
}

/* Appends " key=<value with 3 decimals>", or " key=" when there is no value. */
static void append_us(char *buf, size_t size, size_t *len, const char *key, uint64_t count,
                      double v)
{
	if (count)
		append(buf, size, len, " %s=%.3f", key, v);
	else
		append(buf, size, len, " %s=", key);
}

void xl_ctl_cmd_watch_tick(struct xl_control *ctl, struct xl_ctl_client *clients, size_t n,
                           double *scratch, uint64_t *dropped_seen, uint64_t now_ns)
{
	struct xl_live_second sec;
	char line[512], tag[U_CTL_ESCAPED_SIZE(XL_TAG_MAX)], raw[XL_TAG_MAX];
	uint64_t word = load_word(ctl);
	bool active = xl_control_word_active(word);
	uint32_t id = xl_control_word_id(word);
	struct xl_session_counts pre = {0}, post = {0};
	size_t len = 0;

	xl_live_take(&ctl->live, &sec, scratch);
	xl_control_session_counts(ctl, id, XL_SIDE_PRE, &pre);
	xl_control_session_counts(ctl, id, XL_SIDE_POST, &post);
	uint64_t dropped = pre.dropped + post.dropped;
	uint64_t new_drops = dropped >= *dropped_seen ? dropped - *dropped_seen : dropped;
	*dropped_seen = dropped;

	append(line, sizeof(line), &len, "t=%" PRIu64 " recording=%d session=%s frames=%" PRIu64,
	       now_ns, active, esc(tag, sizeof(tag), active ? session_tag(ctl, id, raw) : ""),
	       sec.frames);
	append_us(line, sizeof(line), &len, "cpu_mean_us", sec.frames, sec.cpu_mean_us);
	append_us(line, sizeof(line), &len, "cpu_p99_us", sec.frames, sec.cpu_p99_us);
	append(line, sizeof(line), &len, " gpu_frames=%" PRIu64, sec.gpu_frames);
	append_us(line, sizeof(line), &len, "gpu_mean_us", sec.gpu_frames, sec.gpu_mean_us);
	append_us(line, sizeof(line), &len, "gpu_p99_us", sec.gpu_frames, sec.gpu_p99_us);
	append(line, sizeof(line), &len, " dropped=%" PRIu64, new_drops);
	for (size_t i = 0; i < n; i++)
		if (clients[i].fd >= 0 && clients[i].wait == XL_CTL_WATCH)
			xl_ctl_client_print(&clients[i], "%s", line);
}
