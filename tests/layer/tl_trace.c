/*
 * Unit tests of the live-tracing facade (layer/xl_trace.c) against a fake
 * provider table (no LTTng): which events each record, session and GPU
 * sample makes, with which fields; the per-session counts of
 * xrlm:session_end and the totals of xrlm:shutdown; a GPU sample's time on
 * CLOCK_MONOTONIC through the best of the calibration's probes, re-taken
 * only once the last is a second old, across a narrow counter's wrap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_clock.h"
#include "xl_fn.h"
#include "xl_trace.h"

#include <string.h>

#define EVENTS 64

/* One event the fake provider was given. */
struct event {
	const char *name; /* "init", "call", "frame_marker", ... */
	const char *side;
	const char *fn, *marker, *tag;
	uint32_t session_id, sessions;
	uint64_t calls, t_ns;
	int64_t frame_id, display_time;
	uint32_t thread_id;
	struct xl_trace_counts counts;
	struct xl_trace_gpu gpu;
};

static struct {
	struct event e[EVENTS];
	unsigned n;
} got;

static struct event *add(const char *name, const char *side)
{
	assert_true(got.n < EVENTS);
	struct event *e = &got.e[got.n++];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->side = side;
	return e;
}

static void fake_init(const struct xl_trace_ident *id)
{
	add("init", id->side);
}

static void fake_shutdown(const struct xl_trace_ident *id, uint32_t sessions, uint64_t calls)
{
	struct event *e = add("shutdown", id->side);
	e->sessions = sessions;
	e->calls = calls;
}

static void fake_session_begin(const char *side, const char *tag, uint32_t session_id)
{
	struct event *e = add("session_begin", side);
	e->tag = tag;
	e->session_id = session_id;
}

static void fake_session_end(const char *side, const char *tag, uint32_t session_id,
                             const struct xl_trace_counts *counts)
{
	struct event *e = add("session_end", side);
	e->tag = tag;
	e->session_id = session_id;
	e->counts = *counts;
}

static void fake_call(const char *side, const char *fn, const struct xl_call_record *rec)
{
	struct event *e = add("call", side);
	e->fn = fn;
	e->frame_id = rec->frame_id;
	e->session_id = rec->session_id;
}

static void fake_frame_marker(const char *side, int64_t frame_id, const char *marker,
                              uint64_t t_ns, int64_t display_time, uint32_t thread_id)
{
	struct event *e = add("frame_marker", side);
	e->frame_id = frame_id;
	e->marker = marker;
	e->t_ns = t_ns;
	e->display_time = display_time;
	e->thread_id = thread_id;
}

static void fake_gpu(const char *side, const struct xl_trace_gpu *g)
{
	add("gpu", side)->gpu = *g;
}

static const struct xl_trace_api fake_api = {
	.version = XL_TRACE_API_VERSION,
	.size = sizeof(struct xl_trace_api),
	.init = fake_init,
	.shutdown = fake_shutdown,
	.session_begin = fake_session_begin,
	.session_end = fake_session_end,
	.call = fake_call,
	.frame_marker = fake_frame_marker,
	.gpu = fake_gpu,
};

static const struct xl_trace_ident ident = {.side = "post", .layer = "XR_APILAYER_test",
                                            .pid = 42};

/* A facade "loaded" with the fake provider (xl_trace_open without LTTng, then the table). */
static void open_fake(struct xl_trace *t)
{
	xl_trace_open(t, &ident, false);
	assert_null(t->api); /* off unless asked for */
	t->api = &fake_api;
	memset(&got, 0, sizeof(got));
}

static struct xl_call_record record(uint16_t fn, int64_t frame_id, uint32_t session_id)
{
	return (struct xl_call_record){.fn = fn, .frame_id = frame_id, .session_id = session_id,
	                               .t_entry = 1000 + 10 * (uint64_t)frame_id,
	                               .t_exit = 1005 + 10 * (uint64_t)frame_id,
	                               .display_time = 7000 + frame_id, .thread_id = 99};
}

static void assert_marker(const struct event *e, const char *marker, uint64_t t_ns,
                          int64_t frame_id)
{
	assert_string_equal(e->name, "frame_marker");
	assert_string_equal(e->side, "post");
	assert_string_equal(e->marker, marker);
	assert_int_equal(e->t_ns, t_ns);
	assert_int_equal(e->frame_id, frame_id);
	assert_int_equal(e->display_time, 7000 + frame_id);
	assert_int_equal(e->thread_id, 99);
}

/*
 * Each record: one xrlm:call; a frame function's also its entry and exit
 * markers (named for the function, at the call's entry and exit). Each
 * session begins with xrlm:init again and ends with its own counts, once;
 * xrlm:shutdown counts them all.
 */
static void test_records_and_sessions(void **state)
{
	(void)state;
	struct xl_trace t;
	struct xl_call_record rec;

	open_fake(&t);
	xl_trace_session_begin_on(&t, 3, "tag-3");
	assert_int_equal(got.n, 2);
	assert_string_equal(got.e[0].name, "init");
	assert_string_equal(got.e[1].name, "session_begin");
	assert_string_equal(got.e[1].tag, "tag-3");
	assert_int_equal(got.e[1].session_id, 3);

	static const struct {
		uint16_t fn;
		const char *begin, *end;
	} frame_fns[] = {
		{XL_FN_xrWaitFrame, "wait_begin", "wait_end"},
		{XL_FN_xrBeginFrame, "begin_begin", "begin_end"},
		{XL_FN_xrEndFrame, "end_begin", "end_end"},
	};
	for (unsigned i = 0; i < 3; i++) {
		unsigned at = got.n;
		rec = record(frame_fns[i].fn, 5, 3);
		xl_trace_record_on(&t, &rec);
		assert_int_equal(got.n, at + 3);
		assert_string_equal(got.e[at].name, "call");
		assert_string_equal(got.e[at].fn, xl_fn_names[frame_fns[i].fn]);
		assert_int_equal(got.e[at].frame_id, 5);
		assert_marker(&got.e[at + 1], frame_fns[i].begin, rec.t_entry, 5);
		assert_marker(&got.e[at + 2], frame_fns[i].end, rec.t_exit, 5);
	}
	/* Not a frame function: the call alone. An id past the list: "(unknown)". */
	unsigned at = got.n;
	rec = record(XL_FN_xrLocateViews, 5, 3);
	xl_trace_record_on(&t, &rec);
	rec = record(XL_FN_COUNT, 5, 3);
	xl_trace_record_on(&t, &rec);
	assert_int_equal(got.n, at + 2);
	assert_string_equal(got.e[at].fn, "xrLocateViews");
	assert_string_equal(got.e[at + 1].fn, "(unknown)");

	xl_trace_session_end_on(&t, 11, 12);
	struct event *end = &got.e[got.n - 1];
	assert_string_equal(end->name, "session_end");
	assert_string_equal(end->tag, "tag-3");
	assert_int_equal(end->session_id, 3);
	assert_int_equal(end->counts.calls, 5);
	assert_int_equal(end->counts.frames, 1); /* xrEndFrame's */
	assert_int_equal(end->counts.gpu_samples, 0);
	assert_int_equal(end->counts.dropped_queue_full, 11);
	assert_int_equal(end->counts.gpu_ring_overflow, 12);
	/* Ended: a second end says nothing. */
	at = got.n;
	xl_trace_session_end_on(&t, 0, 0);
	assert_int_equal(got.n, at);

	/* The next session counts from zero. */
	xl_trace_session_begin_on(&t, 4, "tag-4");
	rec = record(XL_FN_xrEndFrame, 6, 4);
	xl_trace_record_on(&t, &rec);
	xl_trace_session_end_on(&t, 0, 0);
	end = &got.e[got.n - 1];
	assert_int_equal(end->session_id, 4);
	assert_int_equal(end->counts.calls, 1);
	assert_int_equal(end->counts.frames, 1);

	xl_trace_close(&t);
	assert_null(t.api);
	struct event *last = &got.e[got.n - 1];
	assert_string_equal(last->name, "shutdown");
	assert_int_equal(last->sessions, 2);
	assert_int_equal(last->calls, 6);
}

/* The fake calibration: its probes' deviations in turn, each probe's values apart. */
static struct {
	unsigned calls;
	unsigned fail_from; /* the n-th call on fails (0: none) */
	uint64_t deviation[4];
	uint64_t gpu_ticks, monotonic_ns;
} cal;

static bool fake_calibrate(void *ctx, struct xl_gpu_calibration *out)
{
	assert_ptr_equal(ctx, &cal);
	unsigned i = cal.calls++;
	if (cal.fail_from && cal.calls >= cal.fail_from)
		return false;
	*out = (struct xl_gpu_calibration){.gpu_ticks = cal.gpu_ticks + i,
	                                   .monotonic_ns = cal.monotonic_ns + 1000 * i,
	                                   .max_deviation_ns = cal.deviation[i % 4]};
	return true;
}

static struct xl_gpu_sample gpu_sample(uint64_t ticks, uint32_t session_id)
{
	return (struct xl_gpu_sample){.display_time = 7005, .frame_id = 5, .ticks = ticks,
	                              .period_ns = 2.0f, .valid = true, .valid_bits = 64,
	                              .session_id = session_id};
}

/* The last event, which must be an xrlm:gpu. */
static const struct xl_trace_gpu *last_gpu(void)
{
	assert_true(got.n > 0);
	assert_string_equal(got.e[got.n - 1].name, "gpu");
	return &got.e[got.n - 1].gpu;
}

/*
 * A sample's time: the calibration's CLOCK_MONOTONIC time plus its ticks
 * since the calibration's, times the period; the calibration the probe of
 * least deviation of four, re-taken once a second old (not before), the
 * deviation carried. Across a 12-bit wrap the ticks still count forward.
 * Without a calibration, or for an invalid sample, no time (0); a time
 * before the clock's zero is 0; a sample of another session is not traced.
 */
static void test_gpu_time(void **state)
{
	(void)state;
	struct xl_trace t;
	struct xl_gpu_sample s;

	open_fake(&t);
	memset(&cal, 0, sizeof(cal));
	cal.deviation[0] = 50, cal.deviation[1] = 10, cal.deviation[2] = 30, cal.deviation[3] = 20;
	cal.gpu_ticks = 1000000;
	cal.monotonic_ns = 5000000000ull;
	xl_trace_session_begin_on(&t, 2, "tag-2");

	/* Probe 1 is the best: ticks 1000001 at 5000001000 ns. */
	s = gpu_sample(1000001 + 300, 2);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 4);
	const struct xl_trace_gpu *g = last_gpu();
	assert_int_equal(g->t_ns, 5000001000ull + 600);
	assert_int_equal(g->cal_deviation_ns, 10);
	assert_int_equal(g->gpu_ticks, 1000301);
	assert_true(g->gpu_period_ns == 2.0);
	assert_int_equal(g->frame_id, 5);
	assert_int_equal(g->display_time, 7005);
	assert_int_equal(g->session_id, 2);
	assert_true(g->valid);
	/* Before the calibration's ticks: an earlier time. */
	s = gpu_sample(1000001 - 100, 2);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->t_ns, 5000001000ull - 200);
	assert_int_equal(cal.calls, 4); /* not re-taken within the second */

	/* Half a second old: kept; more than a second old: re-taken. */
	t.cal_at_ns = xl_clock_mono_ns() - 500000000ull;
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 4);
	t.cal_at_ns = xl_clock_mono_ns() - 1000000001ull;
	cal.deviation[0] = 5; /* probe 4 (the fifth call) is now the best */
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 8);
	assert_int_equal(last_gpu()->cal_deviation_ns, 5);
	assert_int_equal(last_gpu()->t_ns, 5000004000ull + 2 * ((1000001 - 100) - 1000004));

	/* A 12-bit counter: from 4090 at the calibration to 5, 11 ticks later. */
	t.cal_valid = false;
	memset(&cal, 0, sizeof(cal));
	cal.gpu_ticks = 4090;
	cal.monotonic_ns = 1000000;
	s = gpu_sample(5, 2);
	s.valid_bits = 12;
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->t_ns, 1000000 + 2 * 11);

	/* A time before zero: 0. */
	s = gpu_sample(4090 - 1000000, 2);
	s.valid_bits = 64;
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->t_ns, 0);

	/* Invalid: traced, with no time. */
	s = gpu_sample(4100, 2);
	s.valid = false;
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->t_ns, 0);
	assert_int_equal(last_gpu()->cal_deviation_ns, 0);
	assert_false(last_gpu()->valid);

	/* Another session's sample: nothing. */
	unsigned at = got.n;
	s = gpu_sample(4100, 3);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(got.n, at);

	xl_trace_session_end_on(&t, 0, 0);
	assert_int_equal(got.e[got.n - 1].counts.gpu_samples, 7);
}

/*
 * A frame's timestamps come back after it, the last frames' often once the
 * next session has begun: a sample of the session that ended last is
 * traced after its session_end (which counted those before it), with its
 * own session id, and counted in no session; one of an older session is
 * not traced.
 */
static void test_gpu_late(void **state)
{
	(void)state;
	struct xl_trace t;
	struct xl_gpu_sample s;

	open_fake(&t);
	memset(&cal, 0, sizeof(cal));
	xl_trace_session_begin_on(&t, 1, "tag-1");
	s = gpu_sample(100, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	xl_trace_session_end_on(&t, 0, 0);
	assert_int_equal(got.e[got.n - 1].counts.gpu_samples, 1);

	/* Session 1 ended, none open: its late sample is traced. */
	unsigned at = got.n;
	s = gpu_sample(200, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(got.n, at + 1);
	assert_int_equal(last_gpu()->session_id, 1);
	assert_int_equal(last_gpu()->gpu_ticks, 200);

	/* Session 2 begun: session 1's next late sample still is, and counts
	 * in neither session; session 2's own are counted in it. */
	xl_trace_session_begin_on(&t, 2, "tag-2");
	s = gpu_sample(300, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->session_id, 1);
	assert_int_equal(last_gpu()->gpu_ticks, 300);
	s = gpu_sample(400, 2);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(last_gpu()->session_id, 2);
	xl_trace_session_end_on(&t, 0, 0);
	assert_int_equal(got.e[got.n - 1].counts.gpu_samples, 1);

	/* Session 2 ended last: session 1's samples are no longer traced, nor
	 * a sample of no session. */
	at = got.n;
	s = gpu_sample(500, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	s = gpu_sample(600, 0);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(got.n, at);
	s = gpu_sample(700, 2);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(got.n, at + 1);
	assert_int_equal(last_gpu()->session_id, 2);
}

/* No calibration to be had: the samples traced without a time, and asked again each time. */
static void test_gpu_uncalibrated(void **state)
{
	(void)state;
	struct xl_trace t;

	open_fake(&t);
	memset(&cal, 0, sizeof(cal));
	cal.fail_from = 1;
	xl_trace_session_begin_on(&t, 1, "tag-1");
	struct xl_gpu_sample s = gpu_sample(123456, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 1); /* the first probe failed: no more */
	assert_int_equal(last_gpu()->t_ns, 0);
	assert_int_equal(last_gpu()->gpu_ticks, 123456);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 2);
	/* A calibration that fails part way: the probes had are used. */
	memset(&cal, 0, sizeof(cal));
	cal.fail_from = 3;
	cal.deviation[0] = 9, cal.deviation[1] = 4;
	cal.gpu_ticks = 100;
	cal.monotonic_ns = 1000000;
	s = gpu_sample(111, 1);
	xl_trace_gpu_on(&t, &s, fake_calibrate, &cal);
	assert_int_equal(cal.calls, 3);
	assert_int_equal(last_gpu()->t_ns, 1001000 + 2 * 10);
	assert_int_equal(last_gpu()->cal_deviation_ns, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_and_sessions),
		cmocka_unit_test(test_gpu_time),
		cmocka_unit_test(test_gpu_late),
		cmocka_unit_test(test_gpu_uncalibrated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
