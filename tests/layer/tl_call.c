/*
 * A recorded call's steps on the calling thread (layer/xl_call.h) over
 * real rings (layer/xl_ring.c), without a writer: what lands in a record,
 * and what a call that finds none counts (the files' footers and the
 * session's log line are made of these counts).
 *
 *   record      a claimed and published call's record holds its times,
 *               frame id, display time, thread, session, function and
 *               result, each in its own field.
 *   ring_full   a ring of N records takes N calls the writer has not
 *               popped, and drops the next: every dropped call counts in
 *               calls_dropped, only a dropped xrEndFrame in dropped (the
 *               frames file's footer), neither in no_ring; only this
 *               side's counts move.
 *   nested      a call claimed while one of the same side is open on the
 *               thread (a callback re-entering the chain) is dropped and
 *               counted, and the open one's record is kept.
 *   no_ring     a thread that finds no ring free drops its calls and
 *               counts an xrEndFrame's in no_ring as well as in dropped;
 *               the pool counts the thread once, however often it looks.
 *   pop_order   the writer pops across the threads' rings the oldest
 *               record by (session, t_entry): a session's records before
 *               the next one's, each session's in entry order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_call.h"
#include "tl_thread.h"

#include <string.h>
#include <unistd.h>

const struct xl_side xl_side = {XL_SIDE_PRE, "pre", "pre_layer", "post_layer"};
_Atomic uint32_t xl_frame_epochs;

#define CAPACITY 8
#define SESSION 3

static struct xl_instance inst;
static struct xl_control ctl;

static int setup(void **state)
{
	(void)state;
	memset(&inst, 0, sizeof(inst));
	memset(&ctl, 0, sizeof(ctl));
	inst.ctl = &ctl;
	xl_ring_tls = (struct xl_ring_thread){0};
	return xl_ring_pool_create(&inst.rings, CAPACITY);
}

static int teardown(void **state)
{
	(void)state;
	xl_ring_pool_destroy(&inst.rings);
	xl_ring_tls = (struct xl_ring_thread){0};
	return 0;
}

/* One call of @p fn in session @p id, recorded with these times; false: dropped. */
static bool call(enum xl_fn_id fn, uint32_t id, uint64_t t_entry)
{
	struct xl_call c;
	if (!xl_call_claim(&inst, &c, fn, id))
		return false;
	xl_call_publish(&c, t_entry, t_entry + 1, XR_SUCCESS, 0);
	return true;
}

static uint64_t count(_Atomic uint64_t *side_counts, enum xl_side_index side)
{
	return atomic_load(&side_counts[side]);
}

/* Session @p id's drop counts on side @p side: calls, frames, frames for want of a ring. */
static void assert_drops(uint32_t id, enum xl_side_index side, uint64_t calls, uint64_t frames,
                         uint64_t no_ring)
{
	struct xl_session_info *info = xl_control_session(&ctl, id);
	assert_int_equal(count(info->calls_dropped, side), calls);
	assert_int_equal(count(info->dropped, side), frames);
	assert_int_equal(count(info->no_ring, side), no_ring);
}

static void test_record(void **state)
{
	(void)state;
	struct xl_call c;
	struct xl_call_record rec;

	atomic_store(&inst.frame_count, 4);
	xl_call_enter(&inst, XL_FN_xrWaitFrame); /* frame 5 */
	assert_true(xl_call_claim(&inst, &c, XL_FN_xrEndFrame, SESSION));
	xl_call_publish(&c, 1000, 2500, XR_SESSION_LOSS_PENDING, 77);
	assert_true(xl_ring_pool_pop(&inst.rings, &rec));
	assert_int_equal(rec.t_entry, 1000);
	assert_int_equal(rec.t_exit, 2500);
	assert_int_equal(rec.frame_id, 5);
	assert_int_equal(rec.display_time, 77);
	assert_int_equal(rec.thread_id, (uint32_t)gettid());
	assert_int_equal(rec.session_id, SESSION);
	assert_int_equal(rec.result, XR_SESSION_LOSS_PENDING);
	assert_int_equal(rec.fn, XL_FN_xrEndFrame);
	assert_false(xl_ring_pool_pop(&inst.rings, &rec));
}

static void test_ring_full(void **state)
{
	(void)state;
	struct xl_call_record rec;

	for (uint64_t i = 0; i < CAPACITY; i++)
		assert_true(call(XL_FN_xrLocateViews, SESSION, 100 + i));
	assert_false(call(XL_FN_xrLocateViews, SESSION, 200));
	assert_false(call(XL_FN_xrPollEvent, SESSION, 201));
	assert_false(call(XL_FN_xrEndFrame, SESSION, 202));
	assert_drops(SESSION, XL_SIDE_PRE, 3, 1, 0);
	assert_drops(SESSION, XL_SIDE_POST, 0, 0, 0);
	/* Once the writer popped one, the next call has its record. */
	assert_true(xl_ring_pool_pop(&inst.rings, &rec));
	assert_int_equal(rec.t_entry, 100);
	assert_true(call(XL_FN_xrEndFrame, SESSION, 300));
	assert_drops(SESSION, XL_SIDE_PRE, 3, 1, 0);
}

static void test_nested(void **state)
{
	(void)state;
	struct xl_call outer;
	struct xl_call_record rec;

	assert_true(xl_call_claim(&inst, &outer, XL_FN_xrEndFrame, SESSION));
	assert_false(call(XL_FN_xrEndFrame, SESSION, 50));
	xl_call_publish(&outer, 10, 90, XR_SUCCESS, 0);
	assert_drops(SESSION, XL_SIDE_PRE, 1, 1, 0);
	assert_true(xl_ring_pool_pop(&inst.rings, &rec));
	assert_int_equal(rec.t_entry, 10);
	assert_int_equal(rec.t_exit, 90);
	assert_false(xl_ring_pool_pop(&inst.rings, &rec));
}

static void test_no_ring(void **state)
{
	(void)state;
	atomic_store(&inst.rings.free, 0); /* every ring held by another thread */
	assert_false(call(XL_FN_xrLocateViews, SESSION, 1));
	assert_false(call(XL_FN_xrEndFrame, SESSION, 2));
	assert_drops(SESSION, XL_SIDE_PRE, 2, 1, 1);
	assert_drops(SESSION, XL_SIDE_POST, 0, 0, 0);
	/* The thread looked twice: counted once as a thread left without a ring. */
	assert_int_equal(xl_ring_pool_unserved(&inst.rings), 1);
}

static void test_pop_order(void **state)
{
	(void)state;
	struct xl_ring_thread a = {0}, b = {0};
	struct xl_call_record rec;
	static const struct {
		uint32_t session;
		uint64_t t_entry;
	} want[] = {{SESSION, 100}, {SESSION, 150}, {SESSION, 200}, {SESSION + 1, 50},
	            {SESSION + 1, 60}};

	ON_THREAD(a, assert_true(call(XL_FN_xrWaitFrame, SESSION, 150)));
	ON_THREAD(a, assert_true(call(XL_FN_xrWaitFrame, SESSION + 1, 60)));
	ON_THREAD(b, assert_true(call(XL_FN_xrPollEvent, SESSION, 100)));
	ON_THREAD(b, assert_true(call(XL_FN_xrPollEvent, SESSION, 200)));
	ON_THREAD(b, assert_true(call(XL_FN_xrPollEvent, SESSION + 1, 50)));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(xl_ring_pool_pop(&inst.rings, &rec));
		assert_int_equal(rec.session_id, want[i].session);
		assert_int_equal(rec.t_entry, want[i].t_entry);
	}
	assert_false(xl_ring_pool_pop(&inst.rings, &rec));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pop_order, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
