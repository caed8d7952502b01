/*
 * Unit tests of the waits for the frame thread's transition (layer/
 * xl_control.c, xl_ctl_cmd.c): a frame thread stopped inside its start or
 * stop (XL_BUSY held: in a signal handler, or under an exit() from one)
 * must not hang the stop of the instance's end, the writer's stop of a
 * session or the control socket's withdrawal, and a stop that did not wait
 * must hold when that thread goes on.
 *
 * The frame thread is a real one, stopped inside xl_control_pre_frame_slow()
 * at a clock read (ld --wrap=clock_gettime): the start's read of
 * CLOCK_REALTIME (begin_session) or the arm's read of CLOCK_MONOTONIC.
 * Before the fix each wait spun for ever: alarm() fails the test then.
 *
 * And the control socket's `start` (xl_ctl_cmd.c) whose session ended
 * before the control thread looked, or which the instance's end dropped:
 * before the fix it got no reply, or a false one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_control.h"
#include "xl_ctl_cmd.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What a wait may take: its bound, and room for a loaded machine. */
#define WAIT_MAX_NS (XL_BUSY_WAIT_NS + 400000000ull)
/* A hung wait ends the test: SIGALRM's default action. */
#define WATCHDOG_S 20

/* ---- the frame thread, stopped at a clock read */
int __real_clock_gettime(clockid_t clock, struct timespec *ts);

static __thread bool on_frame_thread;
static _Atomic int stop_at_clock = -1; /* the clock whose next read stops it; -1: none */
static sem_t stopped, resume;

int __wrap_clock_gettime(clockid_t clock, struct timespec *ts)
{
	int want = (int)clock;
	if (on_frame_thread && atomic_compare_exchange_strong(&stop_at_clock, &want, -1)) {
		sem_post(&stopped);
		sem_wait(&resume);
	}
	return __real_clock_gettime(clock, ts);
}

struct frame_thread {
	pthread_t thread;
	struct xl_control *ctl;
	unsigned request;
	uint32_t recorded; /* what xl_control_pre_frame() returned */
};

static void *frame_main(void *arg)
{
	struct frame_thread *f = arg;

	on_frame_thread = true;
	xl_control_request(f->ctl, f->request);
	f->recorded = xl_control_pre_frame(f->ctl);
	return NULL;
}

/* Starts a frame asking for @p request, and waits until it is stopped at a read of @p clock. */
static void frame_stopped_at(struct frame_thread *f, struct xl_control *ctl, unsigned request,
                             clockid_t clock)
{
	f->ctl = ctl;
	f->request = request;
	atomic_store(&stop_at_clock, (int)clock);
	assert_int_equal(pthread_create(&f->thread, NULL, frame_main, f), 0);
	sem_wait(&stopped);
	assert_true(atomic_load(&ctl->word) & XL_BUSY);
}

/* Lets the stopped frame go on, and waits for its end. */
static void frame_resume(struct frame_thread *f)
{
	sem_post(&resume);
	pthread_join(f->thread, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	__real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t word_of(struct xl_control *ctl)
{
	return atomic_load(&ctl->word);
}

/* ---- the control socket's replies, collected */
void xl_ctl_client_print(struct xl_ctl_client *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	c->out_len += (size_t)vsnprintf(c->out + c->out_len, sizeof(c->out) - c->out_len, fmt, ap);
	va_end(ap);
}

static int setup(void **state)
{
	struct xl_settings settings = {.delay_s = -1.0, .trace_csv = true};

	alarm(WATCHDOG_S);
	*state = xl_control_create(&settings);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	xl_control_unref(*state);
	alarm(0);
	return 0;
}

/* Starts session 1 with a frame that is not stopped. */
static void record_session_1(struct xl_control *ctl)
{
	xl_control_request(ctl, XL_REQ_START);
	assert_int_equal(xl_control_pre_frame(ctl), 1);
}

/*
 * The instance ends (xl_control_stop_now) while the first frame is stopped
 * inside the start of session 1: the stop returns within its bound, no
 * session records, and when the frame goes on, the session it began is
 * ended at once (no record of it, the writers see it ended).
 */
static void test_stop_now_during_start(void **state)
{
	struct xl_control *ctl = *state;
	struct frame_thread f;

	frame_stopped_at(&f, ctl, XL_REQ_START, CLOCK_REALTIME);
	uint64_t t0 = now_ns();
	uint64_t word = xl_control_stop_now(ctl);
	uint64_t took = now_ns() - t0;
	assert_true(took < WAIT_MAX_NS);
	assert_true(took >= XL_BUSY_WAIT_NS); /* it did wait for the frame */
	assert_true(word & XL_FORCE_STOP);
	assert_int_equal(xl_control_recording(ctl), 0);
	/* Again (post's side, after pre's): at once. */
	t0 = now_ns();
	xl_control_stop_now(ctl);
	assert_true(now_ns() - t0 < XL_BUSY_WAIT_NS / 2);

	frame_resume(&f);
	assert_int_equal(f.recorded, 0);
	assert_int_equal(word_of(ctl), (uint64_t)1 << XL_ID_SHIFT);
	assert_int_equal(xl_control_ended_id(word_of(ctl)), 1);
}

/*
 * Pre's writer stops session 1 (its time limit) while a frame is stopped
 * inside a transition that keeps it recording (an arm): the session ends
 * for everyone at once, stays ended when the frame goes on, and a toggle
 * sent meanwhile does not start another.
 */
static void test_stop_session_during_transition(void **state)
{
	struct xl_control *ctl = *state;
	struct frame_thread f;

	record_session_1(ctl);
	frame_stopped_at(&f, ctl, XL_REQ_ARM, CLOCK_MONOTONIC);
	uint64_t t0 = now_ns();
	xl_control_stop_session(ctl, 1);
	assert_true(now_ns() - t0 < WAIT_MAX_NS);
	assert_int_equal(xl_control_recording(ctl), 0);
	assert_int_equal(xl_control_ended_id(word_of(ctl)), 1);
	xl_control_toggle(ctl);

	frame_resume(&f);
	assert_int_equal(f.recorded, 0);
	assert_int_equal(word_of(ctl), (uint64_t)1 << XL_ID_SHIFT);
	assert_int_equal(xl_control_pre_frame(ctl), 0); /* and no frame after */
}

/*
 * The instance ends while a frame is stopped inside the stop of session 1
 * (a toggle, with an arm's clock read): the stop returns within its bound
 * and holds.
 */
static void test_stop_now_during_stop(void **state)
{
	struct xl_control *ctl = *state;
	struct frame_thread f;

	record_session_1(ctl);
	frame_stopped_at(&f, ctl, XL_REQ_TOGGLE | XL_REQ_ARM, CLOCK_MONOTONIC);
	uint64_t t0 = now_ns();
	xl_control_stop_now(ctl);
	assert_true(now_ns() - t0 < WAIT_MAX_NS);
	assert_int_equal(xl_control_recording(ctl), 0);
	assert_int_equal(xl_control_ended_id(word_of(ctl)), 1);

	frame_resume(&f);
	assert_int_equal(f.recorded, 0);
	assert_int_equal(word_of(ctl), (uint64_t)1 << XL_ID_SHIFT);
}

/*
 * The control socket gives up on a `start` whose frame is stopped inside
 * the start, its deadline passed (the instance still alive): it answers
 * within the bound that the start could not be withdrawn, and ends the
 * request, without touching the word.
 */
static void test_withdraw_during_start(void **state)
{
	struct xl_control *ctl = *state;
	struct frame_thread f;
	static struct xl_ctl_client c;

	memset(&c, 0, sizeof(c));
	c.wait = XL_CTL_START;
	c.deadline_ns = 1;
	frame_stopped_at(&f, ctl, XL_REQ_START, CLOCK_REALTIME);
	uint64_t before = word_of(ctl);
	uint64_t t0 = now_ns();
	xl_ctl_cmd_progress(ctl, &c, now_ns(), false);
	assert_true(now_ns() - t0 < WAIT_MAX_NS);
	assert_int_equal(c.wait, XL_CTL_IDLE);
	assert_non_null(strstr(c.out, "ERR a frame thread is stuck inside a recording start or stop"));
	assert_int_equal(word_of(ctl), before);

	frame_resume(&f);
	assert_int_equal(f.recorded, 1); /* nothing stopped it: it records */
}

/* A client whose `start` is waiting for its session (xl_ctl_cmd_request). */
static struct xl_ctl_client *start_client(struct xl_control *ctl)
{
	static struct xl_ctl_client c;
	char line[] = "start";

	memset(&c, 0, sizeof(c));
	xl_ctl_cmd_request(ctl, &c, line, now_ns());
	assert_int_equal(c.wait, XL_CTL_START);
	assert_int_equal(c.out_len, 0);
	return &c;
}

/* Session @p id records one frame and ends before the control thread looks. */
static void record_one_frame(struct xl_control *ctl, uint32_t id)
{
	assert_int_equal(xl_control_pre_frame(ctl), id);
	xl_control_request(ctl, XL_REQ_STOP);
	assert_int_equal(xl_control_pre_frame(ctl), 0);
	assert_int_equal(xl_control_ended_id(word_of(ctl)), id);
}

/* Moves @p c's wait on (at @p now): the reply it must have got. */
static const char *reply_of(struct xl_control *ctl, struct xl_ctl_client *c, uint64_t now,
                            bool give_up)
{
	xl_ctl_cmd_progress(ctl, c, now, give_up);
	assert_int_equal(c->wait, XL_CTL_IDLE);
	return c->out;
}

#define TAG "42-20260101T000000"

/*
 * A `start` whose session ended before the control thread looked (one
 * frame, XRLM_RECORD_FRAMES=1 at a high frame rate) answers with its tag
 * as soon as pre's writer settled it. Before the fix it got no reply,
 * before or after its deadline.
 */
static void test_start_session_ended(void **state)
{
	struct xl_control *ctl = *state;
	struct xl_ctl_client *c = start_client(ctl);

	record_one_frame(ctl, 1);
	xl_ctl_cmd_progress(ctl, c, now_ns(), false);
	assert_int_equal(c->wait, XL_CTL_START); /* the tag is on its way */
	assert_true(xl_control_settle_tag(ctl, 1, XL_TAG_READY, 0, TAG));
	assert_string_equal(reply_of(ctl, c, now_ns(), false),
	                    "session=" TAG "OK recording; the session has ended already");
}

/*
 * A `start` whose session pre stopped at once, its files failed (or with
 * no file at all): a clear error, at once, not a wait for ever.
 */
static void test_start_session_failed(void **state)
{
	struct xl_control *ctl = *state;
	struct xl_ctl_client *c = start_client(ctl);

	record_one_frame(ctl, 1);
	assert_true(xl_control_settle_tag(ctl, 1, XL_TAG_FAILED, 13, NULL));
	assert_string_equal(reply_of(ctl, c, now_ns(), false),
	                    "ERR recording started but its files cannot be created "
	                    "(see xrlm-pre.log)");

	c = start_client(ctl);
	record_one_frame(ctl, 2);
	assert_true(xl_control_settle_tag(ctl, 2, XL_TAG_NONE, 0, NULL));
	assert_non_null(strstr(reply_of(ctl, c, now_ns(), false),
	                       "ERR recording started, but the session ended with no file"));
}

/*
 * The instance's end dropped a pending `start` (xl_control_stop_now): the
 * reply says so, at its deadline or when the thread ends; never "no frame
 * ended within 5 s", and never no reply at all.
 */
static void test_start_dropped_at_end(void **state)
{
	struct xl_control *ctl = *state;
	static const char dropped[] = "ERR the application's instance is going away: start dropped";
	struct xl_ctl_client *c = start_client(ctl);

	xl_control_stop_now(ctl);
	assert_string_equal(reply_of(ctl, c, now_ns(), true), dropped);

	c = start_client(ctl);
	xl_control_stop_now(ctl);
	assert_string_equal(reply_of(ctl, c, c->deadline_ns, false), dropped);
}

/* A `start` still pending when the thread ends is withdrawn, and said so truly. */
static void test_start_withdrawn_at_end(void **state)
{
	struct xl_control *ctl = *state;
	struct xl_ctl_client *c = start_client(ctl);

	assert_string_equal(reply_of(ctl, c, now_ns(), true),
	                    "ERR the application's instance is going away: start withdrawn");
	assert_int_equal(word_of(ctl), 0);
}

static bool count_mark(void *ctx, unsigned at, const char *line)
{
	(void)at;
	(void)line;
	(*(int *)ctx)++;
	return true;
}

/*
 * A mark whose client hung up (the control socket drops it at once) is
 * still written by both sides, and its slot freed then.
 */
static void test_mark_abandoned(void **state)
{
	struct xl_control *ctl = *state;
	const uint32_t open_ids[XL_MARKS_OPEN] = {0, 1};
	int written = 0;

	uint64_t seq = xl_marks_add(&ctl->marks, 1, 1, "left");
	xl_marks_abandon(&ctl->marks, seq);
	xl_marks_write(&ctl->marks, XL_SIDE_PRE, open_ids, 0, count_mark, &written);
	xl_marks_write(&ctl->marks, XL_SIDE_POST, open_ids, 0, count_mark, &written);
	assert_int_equal(written, 2);
	for (int i = 0; i < XL_MARKS_SLOTS; i++)
		assert_true(xl_marks_add(&ctl->marks, 1, 1, "more") != 0);
}

/* An ordinary transition is waited for, not forced. */
static void test_stop_now_idle(void **state)
{
	struct xl_control *ctl = *state;

	record_session_1(ctl);
	assert_int_equal(xl_control_stop_now(ctl), (uint64_t)1 << XL_ID_SHIFT);
	assert_int_equal(xl_control_ended_id(word_of(ctl)), 1);
}

/* A fresh idle client (a static one of @p n), its request @p line answered at @p now. */
static struct xl_ctl_client *request(struct xl_control *ctl, unsigned n, const char *line,
                                     uint64_t now)
{
	static struct xl_ctl_client clients[XL_MARKS_SLOTS + 1];
	char text[U_CTL_LINE_MAX];
	struct xl_ctl_client *c = &clients[n];

	memset(c, 0, sizeof(*c));
	c->fd = (int)n + 10;
	snprintf(text, sizeof(text), "%s", line);
	xl_ctl_cmd_request(ctl, c, text, now);
	return c;
}

/* Session @p id recording (one frame), its tag "<TAG>-<id>" settled. */
static void record_tagged(struct xl_control *ctl, uint32_t id)
{
	char tag[XL_TAG_MAX];
	snprintf(tag, sizeof(tag), TAG "-%u", (unsigned)id);
	xl_control_request(ctl, XL_REQ_START);
	assert_int_equal(xl_control_pre_frame(ctl), id);
	assert_true(xl_control_settle_tag(ctl, id, XL_TAG_READY, 0, tag));
}

/* Ends the session recording (a frame takes the stop). */
static void stop_recording(struct xl_control *ctl)
{
	xl_control_request(ctl, XL_REQ_STOP);
	assert_int_equal(xl_control_pre_frame(ctl), 0);
}

/*
 * mark: an empty text is refused as one (not as "not recording"); as
 * many marks as there are slots wait for the writers, one more is told to
 * try again; one no writer takes by its deadline is said not written.
 */
static void test_mark_requests(void **state)
{
	struct xl_control *ctl = *state;
	uint64_t now = now_ns();

	struct xl_ctl_client *c = request(ctl, 0, "mark ", now);
	assert_string_equal(c->out, "ERR mark: the text must be 1 to 256 bytes of UTF-8 without "
	                            "control characters");
	record_tagged(ctl, 1);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		c = request(ctl, i, "mark waiting", now);
		assert_int_equal(c->wait, XL_CTL_MARK);
		assert_int_equal(c->out_len, 0);
	}
	c = request(ctl, XL_MARKS_SLOTS, "mark one too many", now);
	assert_string_equal(c->out, "ERR too many marks waiting to be written; try again");
	assert_int_equal(c->wait, XL_CTL_IDLE);
}

/*
 * A mark no writer takes: still waiting before its deadline, said not
 * written at it, its slot freed.
 */
static void test_mark_deadline(void **state)
{
	struct xl_control *ctl = *state;
	uint64_t now = now_ns();

	record_tagged(ctl, 1);
	struct xl_ctl_client *c = request(ctl, 0, "mark nobody writes", now);
	assert_int_equal(c->wait, XL_CTL_MARK);
	xl_ctl_cmd_progress(ctl, c, c->deadline_ns - 1, false);
	assert_int_equal(c->wait, XL_CTL_MARK);
	assert_string_equal(reply_of(ctl, c, c->deadline_ns, false),
	                    "ERR the mark was not written: the session ended (or its files failed) "
	                    "first");
	assert_true(xl_marks_add(&ctl->marks, 1, now, "freed") != 0);
}

/*
 * A stop on a connection whose earlier stop went through (its client
 * state says stopped): this one still waits for its own frame, and with
 * none by its deadline is withdrawn as such, not taken for a merge wait.
 */
static void test_stop_withdrawn_at_deadline(void **state)
{
	struct xl_control *ctl = *state;

	record_tagged(ctl, 1);
	struct xl_ctl_client *c = request(ctl, 0, "status", now_ns());
	c->out_len = 0;
	c->out[0] = '\0';
	c->stopped = true; /* as an earlier stop on this connection left it */
	char line[] = "stop";
	xl_ctl_cmd_request(ctl, c, line, now_ns());
	assert_int_equal(c->wait, XL_CTL_STOP);
	xl_ctl_cmd_progress(ctl, c, c->deadline_ns - 1, false);
	assert_int_equal(c->wait, XL_CTL_STOP);
	assert_string_equal(reply_of(ctl, c, c->deadline_ns, false),
	                    "ERR no frame ended within 5 s (is the application rendering?): stop "
	                    "withdrawn");
	assert_int_equal(word_of(ctl) & XL_REQ_STOP, 0);
	assert_int_equal(xl_control_recording(ctl), 1);
}

/* status after a session ended: no frames counted (the ended session's rows are not shown). */
static void test_status_idle_frames(void **state)
{
	struct xl_control *ctl = *state;

	record_tagged(ctl, 1);
	atomic_store(&ctl->session_rows, 5);
	struct xl_ctl_client *c = request(ctl, 0, "status", now_ns());
	assert_non_null(strstr(c->out, " recording=1 session=" TAG "-1 frames=5 "));
	stop_recording(ctl);
	c = request(ctl, 0, "status", now_ns());
	assert_non_null(strstr(c->out, " recording=0 session= frames=0 "));
}

/*
 * The watch's line a second: to watching clients only (not an idle one,
 * not a closed one's slot); values blank with no frame; the drops of the
 * second, not the session's total.
 */
static void test_watch_tick(void **state)
{
	struct xl_control *ctl = *state;
	static struct xl_ctl_client clients[3];
	static double scratch[2 * XL_LIVE_VALUES];
	uint64_t seen = 0;

	memset(clients, 0, sizeof(clients));
	clients[0].fd = 10;
	clients[0].wait = XL_CTL_WATCH;
	clients[1].fd = 11; /* idle */
	clients[2].fd = -1; /* a closed one's slot */
	clients[2].wait = XL_CTL_WATCH;
	xl_ctl_cmd_watch_tick(ctl, clients, 3, scratch, &seen, 123);
	assert_string_equal(clients[0].out,
	                    "t=123 recording=0 session= frames=0 cpu_mean_us= cpu_p99_us= "
	                    "gpu_frames=0 gpu_mean_us= gpu_p99_us= dropped=0");
	assert_int_equal(clients[1].out_len, 0);
	assert_int_equal(clients[2].out_len, 0);

	record_tagged(ctl, 1);
	static const uint64_t totals[] = {3, 3, 5};
	static const char *const wanted[] = {"dropped=3", "dropped=0", "dropped=2"};
	for (unsigned i = 0; i < 3; i++) {
		atomic_store(&xl_control_session(ctl, 1)->dropped[XL_SIDE_PRE], totals[i] - 1);
		atomic_store(&xl_control_session(ctl, 1)->dropped[XL_SIDE_POST], 1);
		clients[0].out_len = 0;
		xl_ctl_cmd_watch_tick(ctl, clients, 3, scratch, &seen, 124 + i);
		assert_non_null(strstr(clients[0].out, "recording=1 session=" TAG "-1 "));
		const char *d = strstr(clients[0].out, " dropped=");
		assert_non_null(d);
		assert_string_equal(d + 1, wanted[i]);
	}
}

/* The reply to a stop, once post's writer has settled the session, for each outcome. */
static void test_stop_replies(void **state)
{
	struct xl_control *ctl = *state;
	static const struct {
		enum xl_merge_state merge;
		int lost_errno; /* > 0: the files lost so */
		bool tag;
		const char *reply;
	} cases[] = {
		{XL_MERGE_FAILED, 0, true,
		 "ERR stopped session " TAG "-1, but its merge failed (see xrlm-post.log; `xrlm merge` "
		 "can retry)"},
		{XL_MERGE_NONE, 0, true, "ERR stopped; no frame was recorded, so nothing was merged"},
		{XL_MERGE_NONE, 0, false,
		 "ERR stopped; no frame was recorded or its files could not be created, so nothing "
		 "was merged"},
		{XL_MERGE_LOST, EIO, true,
		 "ERR stopped; session " TAG "-4 is lost: its files could not be written "
		 "(Input/output error; see xrlm-pre.log and xrlm-post.log)"},
	};
	for (uint32_t id = 1; id <= sizeof(cases) / sizeof(cases[0]); id++) {
		const typeof(cases[0]) *k = &cases[id - 1];
		if (k->tag) {
			record_tagged(ctl, id);
		} else {
			xl_control_request(ctl, XL_REQ_START);
			assert_int_equal(xl_control_pre_frame(ctl), id);
			assert_true(xl_control_settle_tag(ctl, id, XL_TAG_NONE, 0, NULL));
		}
		struct xl_ctl_client *c = request(ctl, 0, "stop", now_ns());
		assert_int_equal(c->wait, XL_CTL_STOP);
		stop_recording(ctl);
		if (k->lost_errno)
			xl_control_files_lost(ctl, id, k->lost_errno, true);
		else
			xl_control_settle_merge(ctl, id, k->merge);
		xl_ctl_cmd_progress(ctl, c, now_ns(), false);
		assert_int_equal(c->wait, XL_CTL_STOP); /* post has not settled it */
		atomic_store(&ctl->settled[XL_SIDE_POST], id);
		assert_string_equal(reply_of(ctl, c, now_ns(), false), k->reply);
	}
}

/*
 * A stop whose session ended but whose merge is not over: at the merge's
 * deadline, or when the thread ends, said so (which of the two).
 */
static void test_stop_merge_unfinished(void **state)
{
	struct xl_control *ctl = *state;

	record_tagged(ctl, 1);
	for (int give_up = 0; give_up <= 1; give_up++) {
		struct xl_ctl_client *c = request(ctl, give_up, "stop", now_ns());
		if (!give_up)
			stop_recording(ctl);
		else {
			/* A client state as the first one's stop left it, waiting on the merge. */
			c->wait = XL_CTL_STOP;
			c->wait_id = 1;
			c->deadline_ns = now_ns() + 1000000000ull;
			c->out_len = 0;
			c->out[0] = '\0';
		}
		xl_ctl_cmd_progress(ctl, c, now_ns(), false);
		assert_true(c->stopped);
		assert_int_equal(c->wait, XL_CTL_STOP);
		assert_string_equal(reply_of(ctl, c, give_up ? now_ns() : c->deadline_ns, give_up),
		                    give_up ? "ERR stopped, but the merge was not finished when the "
		                              "instance went away (see xrlm-post.log)"
		                            : "ERR stopped, but the merge took too long to wait for "
		                              "(see xrlm-post.log)");
	}
}

/*
 * A start answered late, after the session it began has ended and the
 * next one begun: the reply names the session the start began, not the
 * one recording now.
 */
static void test_start_names_its_session(void **state)
{
	struct xl_control *ctl = *state;
	struct xl_ctl_client *c = start_client(ctl);

	record_tagged(ctl, 1);
	stop_recording(ctl);
	record_tagged(ctl, 2);
	assert_string_equal(reply_of(ctl, c, now_ns(), false),
	                    "session=" TAG "-1OK recording; the session has ended already");
}

/* Sessions @p from on, enough to refill every slot: the first's is reused. */
static void sessions_overwrite(struct xl_control *ctl, uint32_t from)
{
	for (uint32_t id = from; id <= from + XL_SESSION_SLOTS; id++) {
		record_tagged(ctl, id);
		stop_recording(ctl);
	}
}

/*
 * A start or stop answered after so many sessions went by that its
 * session's slot holds a later one: said so, never that later session's
 * tag or outcome taken for its own.
 */
static void test_replies_overwritten(void **state)
{
	struct xl_control *ctl = *state;
	struct xl_ctl_client *c = start_client(ctl);

	sessions_overwrite(ctl, 1);
	assert_string_equal(reply_of(ctl, c, now_ns(), false),
	                    "ERR recording started; the session's data was overwritten by later "
	                    "sessions (toggled too fast)");

	const uint32_t id = 2 + XL_SESSION_SLOTS;
	record_tagged(ctl, id);
	c = request(ctl, 0, "stop", now_ns());
	stop_recording(ctl);
	xl_ctl_cmd_progress(ctl, c, now_ns(), false);
	assert_true(c->stopped);
	sessions_overwrite(ctl, id + 1);
	xl_control_settle_merge(ctl, id + XL_SESSION_SLOTS, XL_MERGE_FAILED);
	atomic_store(&ctl->settled[XL_SIDE_POST], id + 1 + XL_SESSION_SLOTS);
	assert_string_equal(reply_of(ctl, c, now_ns(), false),
	                    "ERR stopped; the session's data was overwritten by later sessions "
	                    "(toggled too fast)");
}

/* Usage: tl_control [PATTERN] (a cmocka test filter: one test, for a check). */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stop_now_during_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_session_during_transition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_now_during_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_withdraw_during_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_now_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_session_ended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_session_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_dropped_at_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_withdrawn_at_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_abandoned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_requests, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_withdrawn_at_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_idle_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watch_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_replies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_merge_unfinished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_names_its_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replies_overwritten, setup, teardown),
	};
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	sem_init(&stopped, 0, 0);
	sem_init(&resume, 0, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
