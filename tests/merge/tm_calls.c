/*
 * Unit tests of the calls files' merge: the calls reader, the nested-call
 * sandwich (forwarded, self-answered, induced, own-thread and nested calls,
 * two threads), the every-function columns, the functions file, frames
 * that map to nothing, bad rows, and the bounded-memory percentiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calls_join.h"
#include "calls_names.h"
#include "calls_read.h"
#include "csvr.h"
#include "functions_read.h"
#include "functions_write.h"
#include "merge.h"
#include "merge_calls.h"
#include "merged_read.h"
#include "qhist.h"
#include "stats.h"
#include "tm_common.h"

/* ---- helpers ---- */

/* A session's four files in a fresh directory, tag "1". */
struct session {
	char dir[256];
	char pre[512], post[512], calls_pre[512], calls_post[512];
	char merged[512], functions[512];
};

static const char pre_head[] = "# clock=CLOCK_MONOTONIC\n# side=pre\n";
static const char post_head[] = "# clock=CLOCK_MONOTONIC\n# side=post\n";
static const char frames_cols[] = "display_time,thread_id,t_entry,t_exit\n";
static const char calls_cols[] = "fn,thread_id,t_entry,t_exit,frame_id,result\n";

static void put(const char *path, const char *head, const char *cols, const char *rows)
{
	size_t n = strlen(head) + strlen(cols) + strlen(rows) + 1;
	char *text = malloc(n);

	assert_non_null(text);
	snprintf(text, n, "%s%s%s", head, cols, rows);
	assert_int_equal(tm_file_write(path, text), 0);
	free(text);
}

/* Writes the files (a NULL calls text: no such file); @p post_extra goes in post's header. */
static void session_write(struct session *s, const char *frames_pre, const char *frames_post,
                          const char *post_extra, const char *calls_pre, const char *calls_post)
{
	char head[256];

	tm_dir_create(s->dir, sizeof(s->dir));
	snprintf(s->pre, sizeof(s->pre), "%s/frames-1-pre.csv", s->dir);
	snprintf(s->post, sizeof(s->post), "%s/frames-1-post.csv", s->dir);
	snprintf(s->calls_pre, sizeof(s->calls_pre), "%s/calls-1-pre.csv", s->dir);
	snprintf(s->calls_post, sizeof(s->calls_post), "%s/calls-1-post.csv", s->dir);
	snprintf(s->merged, sizeof(s->merged), "%s/frames-merged-1.csv", s->dir);
	snprintf(s->functions, sizeof(s->functions), "%s/functions-merged-1.csv", s->dir);
	snprintf(head, sizeof(head), "%s%s", post_head, post_extra ? post_extra : "");
	put(s->pre, pre_head, frames_cols, frames_pre);
	put(s->post, head, frames_cols, frames_post);
	if (calls_pre)
		put(s->calls_pre, pre_head, calls_cols, calls_pre);
	if (calls_post)
		put(s->calls_post, head, calls_cols, calls_post);
}

/* Merges @p s the way the post layer does (siblings found by name). */
static int session_merge(struct session *s, struct merge_summary *sum, struct tm_log *log)
{
	struct merge_siblings sib;
	struct merge_paths paths;

	assert_int_equal(merge_sibling_paths(s->pre, NULL, &sib), 0);
	merge_paths_from_siblings(&sib, s->pre, &paths);
	return merge_files(&paths, sib.merged_csv, sum, tm_log_fn, log);
}

static const struct calls_fn *find_fn(const struct calls_result *r, const char *name)
{
	for (size_t i = 0; i < r->fn_count; i++)
		if (strcmp(r->fns[i].name, name) == 0)
			return &r->fns[i];
	fail_msg("no function %s", name);
	return NULL;
}

/* ---- session A: every kind of call on one thread ---- */

static const char a_frames_pre[] = "1000,7,10000,12000\n"
                                   "2000,7,20000,22000\n";
static const char a_frames_post[] = "1000,7,10500,11500\n"
                                    "2000,7,20500,21500\n";
static const char a_calls_pre[] = "xrWaitFrame,7,5000,6000,1,0\n"
                                  "xrBeginFrame,7,7000,7500,1,0\n"
                                  "xrLocateViews,7,8000,9000,1,0\n" /* self-answered */
                                  "xrEndFrame,7,10000,12000,1,0\n"
                                  "xrWaitFrame,7,15000,16000,2,0\n"
                                  "xrBeginFrame,7,17000,17500,2,0\n"
                                  "xrSyncActions,7,18000,18400,2,0\n"
                                  "xrEndFrame,7,20000,22000,2,0\n";
static const char a_calls_post[] = "xrWaitFrame,7,5100,5900,1,0\n"
                                   "xrBeginFrame,7,7100,7400,1,0\n"
                                   "xrEndFrame,7,10500,11500,1,0\n"
                                   "xrLocateSpace,9,13000,13100,1,0\n" /* own thread */
                                   "xrWaitFrame,7,15100,15900,2,0\n"
                                   "xrBeginFrame,7,17100,17400,2,0\n"
                                   "xrSyncActions,7,18100,18300,2,0\n"
                                   "xrLocateSpace,7,20100,20200,2,0\n" /* induced */
                                   "xrLocateSpace,7,20250,20300,2,0\n" /* induced */
                                   "xrEndFrame,7,20500,21500,2,0\n"
                                   "xrPollEvent,7,23000,23100,2,-2\n"; /* own thread */

static void test_sandwich_kinds(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, a_frames_pre, a_frames_post, NULL, a_calls_pre, a_calls_post);
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 10, &r), 0);
	assert_int_equal(r.pre_calls, 8);
	assert_int_equal(r.post_calls, 11);
	assert_int_equal(r.self_answered_calls, 1);
	assert_int_equal(r.induced_calls, 2);
	assert_int_equal(r.own_thread_calls, 2);

	/* Forwarded: duration - post's - one bracket correction. */
	const struct calls_fn *wait = find_fn(&r, "xrWaitFrame");
	assert_int_equal(wait->calls, 2);
	assert_int_equal(wait->total_ns, 2 * (1000 - 800 - 10));
	assert_int_equal(wait->forwarded_calls, 2);
	assert_int_equal(wait->phase, U_PHASE_WAIT);
	/* Self-answered: all of it but its own clock reads' share (half the
	 * correction: one read). */
	const struct calls_fn *lv = find_fn(&r, "xrLocateViews");
	assert_int_equal(lv->total_ns, 1000 - 5);
	assert_int_equal(lv->forwarded_calls, 0);
	/* Induced: the runtime's time in them is not the target's; one read
	 * (half the correction) for the call's own reads and one per post
	 * call inside. */
	const struct calls_fn *end = find_fn(&r, "xrEndFrame");
	assert_int_equal(end->total_ns, (2000 - 1000 - 10) + (2000 - 1150 - 4 * 5));
	assert_int_equal(end->excl.max, 990);
	assert_int_equal(end->excl.min, 830);
	const struct calls_fn *ls = find_fn(&r, "xrLocateSpace");
	assert_int_equal(ls->calls, 0);
	assert_int_equal(ls->induced_calls, 2);
	assert_int_equal(ls->induced_ns, 150);
	assert_int_equal(ls->own_thread_calls, 1);
	assert_int_equal(ls->own_thread_ns, 100);
	const struct calls_fn *poll = find_fn(&r, "xrPollEvent");
	assert_int_equal(poll->own_thread_calls, 1);
	assert_int_equal(poll->induced_calls, 0);
	assert_int_equal(find_fn(&r, "xrSyncActions")->phase, U_PHASE_SYNC_ACTIONS);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

static void test_merge_with_calls(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, a_frames_pre, a_frames_post, "# bracket_correction_ns=10\n", a_calls_pre,
	              a_calls_post);
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(log.count, 0);
	assert_true(sum.has_calls);
	assert_int_equal(sum.calls_pre, 8);
	assert_int_equal(sum.calls_post, 11);
	assert_int_equal(sum.induced_calls, 2);
	assert_int_equal(sum.own_thread_calls, 2);
	assert_int_equal(sum.self_answered_calls, 1);
	assert_int_equal(sum.calls_frames_unmapped, 0);
	assert_int_equal(sum.rows_without_calls, 0);

	char *got = tm_file_read(s.merged);
	assert_non_null(got);
	assert_non_null(strstr(got, "\n# gate_trips=0\n# calls_pre=8\n# calls_post=11\n"
	                            "# self_answered_calls=1\n# induced_calls=2\n"
	                            "# own_thread_calls=2\n# calls_frames_unmapped=0\n"
	                            "# rows_without_calls=0\n"
	                            "# calls_dropped_queue_full_pre=0\n"
	                            "# calls_dropped_queue_full_post=0\n"
	                            "# calls_late=0\n"
	                            "# phases_recorded=wait,begin,end,locate_views,"
	                            "sync_actions,swapchain,other\n"
	                            "display_time,thread_id,frame_interval_us,pre_us,post_us,"
	                            "target_us,target_cpu_pct_of_frame,target_gpu_us,"
	                            "target_gpu_pct_of_frame,target_wait_us,"
	                            "target_begin_us,target_end_us,target_locate_views_us,"
	                            "target_sync_actions_us,target_swapchain_us,target_other_us,"
	                            "target_total_us,app_wait_us,app_cpu_us,app_render_us,"
	                            "app_submit_us,gate_tripped\n"));
	/* No GPU sample: the GPU statistics are empty, not 0. */
	assert_non_null(strstr(got, "\n# target_gpu_ms_mean=\n"));
	assert_string_equal(tm_rows_of(got),
	                    /* no frame before the first: app_cpu blank */
	                    "1000,7,10.000,2.000,1.000,0.990,9.9000,,,"
	                    "0.190,0.190,0.990,0.995,0.000,0.000,0.000,2.365,1.000,,2.500,2.000,\n"
	                    /* app_cpu: 12000 -> 15000 plus 16000 -> 17000 */
	                    "2000,7,,2.000,1.000,0.990,,,,"
	                    "0.190,0.190,0.830,0.000,0.190,0.000,0.000,1.400,1.000,4.000,2.500,2.000,\n");
	free(got);

	got = tm_file_read(s.functions);
	assert_non_null(got);
	assert_string_equal(got,
	                    "# frame_count=2\n" FUNCTIONS_HEADER "\n"
	                    "xrEndFrame,end,2,1.0000,1.820,0.910,0.910,0.988,0.990,48.3400,0,0,0.000,0.000\n"
	                    "xrLocateViews,locate_views,1,0.5000,0.995,0.995,0.995,0.995,0.995,26.4276,0,0,0.000,0.000\n"
	                    "xrBeginFrame,begin,2,1.0000,0.380,0.190,0.190,0.190,0.190,10.0930,0,0,0.000,0.000\n"
	                    "xrWaitFrame,wait,2,1.0000,0.380,0.190,0.190,0.190,0.190,10.0930,0,0,0.000,0.000\n"
	                    "xrSyncActions,sync_actions,1,0.5000,0.190,0.190,0.190,0.190,0.190,5.0465,0,0,0.000,0.000\n"
	                    "xrLocateSpace,other,0,0.0000,,,,,,,2,1,0.150,0.100\n"
	                    "xrPollEvent,other,0,0.0000,,,,,,,0,1,0.000,0.100\n");
	free(got);

	/* xrlm stats reads the new file back: same counts, same statistics. */
	struct merge_summary back;
	struct csvr_diag diag;
	assert_int_equal(merged_read_stats(s.merged, &back, &diag), 0);
	assert_true(back.has_calls);
	assert_int_equal(back.induced_calls, 2);
	assert_int_equal(back.own_thread_calls, 2);
	assert_int_equal(back.target_cpu_us.count, 2);
	tm_dir_remove(s.dir);
}

/*
 * XRLM_FUNCTIONS left functions out: the calls files' headers say which
 * phases are wholly recorded, and the merge leaves the other phases'
 * columns blank, and the total unless every phase is: unknown, not 0.
 * Both files' phases count (a phase one side did not record wholly is
 * not known); a file without the line records every phase.
 */
static void test_phases_not_recorded(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, a_frames_pre, a_frames_post,
	              "# bracket_correction_ns=10\n"
	              "# phases_recorded=wait, begin,end,locate_views,sync_actions\n",
	              a_calls_pre, a_calls_post);
	/* Pre's file says more: post's bounds what is known. */
	char head[256];
	snprintf(head, sizeof(head), "%s# phases_recorded=wait,begin,end,locate_views,"
	         "sync_actions,swapchain\n", pre_head);
	put(s.calls_pre, head, calls_cols, a_calls_pre);
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(log.count, 0);
	assert_int_equal(sum.phases_recorded, U_PHASE_ALL & ~(1u << U_PHASE_SWAPCHAIN) &
	                                      ~(1u << U_PHASE_OTHER));
	char *got = tm_file_read(s.merged);
	assert_non_null(strstr(got, "\n# calls_late=0\n"
	                            "# phases_recorded=wait,begin,end,locate_views,sync_actions\n"));
	/* As test_merge_with_calls(), swapchain, other and the total blank. */
	assert_string_equal(tm_rows_of(got),
	                    "1000,7,10.000,2.000,1.000,0.990,9.9000,,,"
	                    "0.190,0.190,0.990,0.995,0.000,,,,1.000,,2.500,2.000,\n"
	                    "2000,7,,2.000,1.000,0.990,,,,"
	                    "0.190,0.190,0.830,0.000,0.190,,,,1.000,4.000,2.500,2.000,\n");
	free(got);
	tm_dir_remove(s.dir);

	/* A name that is no phase: a corrupt header. */
	session_write(&s, a_frames_pre, a_frames_post, "# phases_recorded=wait,nonsense\n",
	              a_calls_pre, a_calls_post);
	memset(&log, 0, sizeof(log));
	assert_int_equal(session_merge(&s, &sum, &log), -1);
	assert_non_null(strstr(log.last, "phases_recorded is not a list of phases"));
	tm_dir_remove(s.dir);
}

/* Without calls files (or with one only) the merged file is exactly today's. */
static void test_without_calls_unchanged(void **state)
{
	(void)state;
	struct session s, t;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, a_frames_pre, a_frames_post, NULL, NULL, NULL);
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_false(sum.has_calls);
	assert_int_equal(access(s.functions, F_OK), -1);
	char *plain = tm_file_read(s.merged);

	session_write(&t, a_frames_pre, a_frames_post, NULL, a_calls_pre, NULL);
	assert_int_equal(session_merge(&t, &sum, &log), 0);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "calls-1-pre.csv: warning: no calls file for the post side"));
	char *one = tm_file_read(t.merged);
	assert_string_equal(plain, one);
	assert_null(strstr(plain, "target_wait_us"));
	assert_null(strstr(plain, "calls_pre"));
	assert_int_equal(access(t.functions, F_OK), -1);
	free(plain);
	free(one);
	tm_dir_remove(s.dir);
	tm_dir_remove(t.dir);
}

/* ---- nesting and threads ---- */

/*
 * Frame 1's xrWaitFrame, forwarded, on thread 1: the files of the tests
 * below start with it, so that their frame 1 is wholly recorded (a file
 * starting anywhere else starts inside a frame: test_partial_frames()).
 */
#define WAIT1_PRE "xrWaitFrame,1,1000,2000,1,0\n"
#define WAIT1_POST "xrWaitFrame,1,1100,1900,1,0\n"

/* The pre rows of the nested test, as the writer pops them (a call's record
 * is pushed when it returns: nested ones first), and by t_entry. */
static const char *const nested_pre[] = {
	WAIT1_PRE
	"xrLocateSpace,1,11000,11500,1,0\n"
	"xrEndFrame,1,10000,20000,1,0\n",
	WAIT1_PRE
	"xrEndFrame,1,10000,20000,1,0\n"
	"xrLocateSpace,1,11000,11500,1,0\n",
};

static void test_nested_pre_call(void **state)
{
	int order = *(int *)*state;
	struct session s;
	struct calls_result r;

	/* The target calls the loader's trampoline from its xrEndFrame: a pre
	 * xrLocateSpace inside pre's xrEndFrame, forwarded to post. */
	session_write(&s, "500,1,10000,20000\n", "500,1,12000,13000\n", NULL, nested_pre[order],
	              WAIT1_POST
	              "xrLocateSpace,1,11100,11300,1,0\n"
	              "xrEndFrame,1,12000,13000,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	/* The inner call owns the post call inside it; the outer one loses
	 * the inner one's whole duration and its own forward. */
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 500 - 200);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->forwarded_calls, 1);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 500 - 1000);
	assert_int_equal(r.induced_calls, 0);
	assert_int_equal(r.own_thread_calls, 0);
	uint64_t f = calls_find_frame(&r, 1, 10000, 20000);
	assert_int_equal(f, 1);
	int64_t cols[CALLS_COLS];
	assert_int_equal(calls_frame_columns(&r, f, 10000, 20000, cols), 0);
	assert_int_equal(cols[U_PHASE_END], 8500);
	assert_int_equal(cols[U_PHASE_OTHER], 300);
	assert_int_equal(cols[U_PHASE_WAIT], 200);
	assert_int_equal(cols[CALLS_COL_TARGET_TOTAL], 9000);
	assert_int_equal(cols[CALLS_COL_APP_WAIT], 1000);
	assert_int_equal(cols[CALLS_COL_APP_SUBMIT], 10000);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/* Three levels, written as they returned: only direct children count. */
static void test_nested_three_levels(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "500,1,10000,20000\n", "500,1,18000,19000\n", NULL,
	              WAIT1_PRE
	              "xrPollEvent,1,12000,12500,1,0\n"   /* inside xrLocateSpace */
	              "xrLocateSpace,1,11000,14000,1,0\n" /* inside xrEndFrame */
	              "xrStringToPath,1,15000,15100,1,0\n" /* inside xrEndFrame */
	              "xrEndFrame,1,10000,20000,1,0\n",
	              WAIT1_POST
	              "xrPollEvent,1,12100,12200,1,0\n"
	              "xrLocateSpace,1,13000,13500,1,0\n"
	              "xrEndFrame,1,18000,19000,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(find_fn(&r, "xrPollEvent")->total_ns, 500 - 100);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 3000 - 500 - 500);
	assert_int_equal(find_fn(&r, "xrStringToPath")->total_ns, 100);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 3000 - 100 - 1000);
	assert_int_equal(r.self_answered_calls, 1);
	assert_int_equal(r.induced_calls, 0);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * The target made many app calls through the loader, one nested two deep,
 * before calling down: the post xrEndFrame is still pre's xrEndFrame's,
 * however many calls end between the two (the search once looked 8 back).
 */
static void test_nested_many_before_forward(void **state)
{
	(void)state;
	char pre[4096] = WAIT1_PRE, post[4096] = WAIT1_POST;
	size_t np = strlen(pre), nq = strlen(post);
	struct session s;
	struct calls_result r;

	for (int i = 0; i < 20; i++) {
		int64_t at = 11000 + 300 * i;
		if (i == 5) /* xrPollEvent inside the sixth xrLocateSpace, self-answered */
			np += snprintf(pre + np, sizeof(pre) - np, "xrPollEvent,1,%lld,%lld,1,0\n",
			               (long long)at + 70, (long long)at + 80);
		np += snprintf(pre + np, sizeof(pre) - np, "xrLocateSpace,1,%lld,%lld,1,0\n",
		               (long long)at, (long long)at + 100);
		nq += snprintf(post + nq, sizeof(post) - nq, "xrLocateSpace,1,%lld,%lld,1,0\n",
		               (long long)at + 10, (long long)at + 60);
	}
	snprintf(pre + np, sizeof(pre) - np, "xrEndFrame,1,10000,20000,1,0\n");
	snprintf(post + nq, sizeof(post) - nq, "xrEndFrame,1,18000,19000,1,0\n");
	session_write(&s, "500,1,10000,20000\n", "500,1,18000,19000\n", NULL, pre, post);
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.own_thread_calls, 0);
	assert_int_equal(r.induced_calls, 0);
	assert_int_equal(find_fn(&r, "xrEndFrame")->forwarded_calls, 1);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 20 * 100 - 1000);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->forwarded_calls, 20);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 20 * 50 - 10);
	assert_int_equal(find_fn(&r, "xrPollEvent")->total_ns, 10);
	assert_int_equal(r.self_answered_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

static void test_two_threads(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	/* Thread 2 syncs actions while thread 1 is in xrEndFrame; its post
	 * calls belong to its own pre calls, never to thread 1's. Thread 2's
	 * row at 10500 comes after thread 1's at 11000 (the writer pops
	 * per-thread rings): still placed. */
	session_write(&s, "100,1,10000,12000\n", "100,1,10200,11800\n", NULL,
	              WAIT1_PRE
	              "xrEndFrame,1,10000,12000,1,0\n"
	              "xrSyncActions,1,11000,11100,1,0\n"
	              "xrSyncActions,2,10500,10900,1,0\n",
	              WAIT1_POST
	              "xrEndFrame,1,10200,11800,1,0\n"
	              "xrSyncActions,2,10600,10700,1,0\n"
	              "xrLocateSpace,2,10950,10990,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 2000 - 1600 - 100);
	assert_int_equal(find_fn(&r, "xrSyncActions")->calls, 2);
	/* thread 1's is self-answered (100), thread 2's forwarded (400 - 100) */
	assert_int_equal(find_fn(&r, "xrSyncActions")->total_ns, 100 + 300);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->own_thread_calls, 1);
	assert_int_equal(r.induced_calls, 0);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

static void test_frames_that_map_to_nothing(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	/* Frame 200's display time is not on post's side (a layer above
	 * changed it): its calls have no row. Frame 300's xrEndFrame is not in
	 * the calls file: its row has blank every-function cells. Frame 100
	 * began before the recording (the file starts with its xrEndFrame):
	 * blank but for app_submit_us. */
	session_write(&s, "100,1,1000,2000\n200,1,11000,12000\n300,1,21000,22000\n",
	              "100,1,1100,1900\n300,1,21100,21900\n", NULL,
	              "xrEndFrame,1,1000,2000,1,0\n"
	              "xrWaitFrame,1,10000,10500,2,0\n"
	              "xrEndFrame,1,11000,12000,2,0\n",
	              "xrEndFrame,1,1100,1900,1,0\n"
	              "xrWaitFrame,1,10100,10400,2,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(sum.frame_count, 2);
	assert_int_equal(sum.unmatched_pre, 1);
	assert_int_equal(sum.calls_frames_unmapped, 1);
	assert_int_equal(sum.rows_without_calls, 1);
	char *got = tm_file_read(s.merged);
	assert_non_null(strstr(got, "\n# calls_frames_unmapped=1\n# rows_without_calls=1\n"));
	assert_string_equal(tm_rows_of(got),
	                    "100,1,10.000,1.000,0.800,0.200,2.0000,,,"
	                    ",,,,,,,,,,,1.000,\n"
	                    "300,1,,1.000,0.800,0.200,,,,,,,,,,,,,,,,\n");
	free(got);
	tm_dir_remove(s.dir);
}

/*
 * A recording starts and stops inside pre's xrEndFrame: the file starts
 * with frame 1's xrEndFrame (its xrWaitFrame, xrBeginFrame, ... came
 * before the recording) and ends with frame 4's xrWaitFrame and
 * xrBeginFrame (its xrEndFrame came after). Frame 1's row has every
 * phase blank, unknown rather than 0, but app_submit_us; a later row's
 * phase without a call stays 0. The functions file counts every call
 * recorded, over the merged file's frames; frame 4's calls map to no row.
 */
static void test_partial_frames(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "1000,7,10000,12000\n2000,7,20000,22000\n3000,7,30000,32000\n",
	              "1000,7,10500,11500\n2000,7,20500,21500\n3000,7,30500,31500\n",
	              "# bracket_correction_ns=10\n",
	              "xrEndFrame,7,10000,12000,1,0\n"
	              "xrPollEvent,7,12500,12600,1,0\n"
	              "xrWaitFrame,7,15000,16000,2,0\n"
	              "xrBeginFrame,7,17000,17500,2,0\n"
	              "xrEndFrame,7,20000,22000,2,0\n"
	              "xrWaitFrame,7,25000,26000,3,0\n"
	              "xrBeginFrame,7,27000,27500,3,0\n"
	              "xrEndFrame,7,30000,32000,3,0\n"
	              "xrWaitFrame,7,35000,36000,4,0\n"
	              "xrBeginFrame,7,37000,37500,4,0\n",
	              "xrEndFrame,7,10500,11500,1,0\n"
	              "xrWaitFrame,7,15100,15900,2,0\n"
	              "xrBeginFrame,7,17100,17400,2,0\n"
	              "xrEndFrame,7,20500,21500,2,0\n"
	              "xrWaitFrame,7,25100,25900,3,0\n"
	              "xrBeginFrame,7,27100,27400,3,0\n"
	              "xrEndFrame,7,30500,31500,3,0\n"
	              "xrWaitFrame,7,35100,35900,4,0\n"
	              "xrBeginFrame,7,37100,37400,4,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(log.count, 0);
	assert_int_equal(sum.calls_pre, 10);
	assert_int_equal(sum.calls_frames_unmapped, 1); /* frame 4 */
	char *got = tm_file_read(s.merged);
	assert_non_null(strstr(got, "\n# calls_frames_unmapped=1\n"));
	assert_string_equal(tm_rows_of(got),
	                    "1000,7,10.000,2.000,1.000,0.990,9.9000,,,"
	                    ",,,,,,,,,,,2.000,\n"
	                    "2000,7,10.000,2.000,1.000,0.990,9.9000,,,"
	                    "0.190,0.190,0.990,0.000,0.000,0.000,0.000,1.370,1.000,4.000,2.500,2.000,\n"
	                    "3000,7,,2.000,1.000,0.990,,,,"
	                    "0.190,0.190,0.990,0.000,0.000,0.000,0.000,1.370,1.000,4.000,2.500,2.000,\n");
	free(got);

	/* Every call recorded, frames 1's and 4's too. */
	got = tm_file_read(s.functions);
	assert_string_equal(got,
	                    "# frame_count=3\n" FUNCTIONS_HEADER "\n"
	                    "xrEndFrame,end,3,1.0000,2.970,0.990,0.990,0.990,0.990,70.6302,0,0,0.000,0.000\n"
	                    "xrBeginFrame,begin,3,1.0000,0.570,0.190,0.190,0.190,0.190,13.5553,0,0,0.000,0.000\n"
	                    "xrWaitFrame,wait,3,1.0000,0.570,0.190,0.190,0.190,0.190,13.5553,0,0,0.000,0.000\n"
	                    "xrPollEvent,other,1,0.3333,0.095,0.095,0.095,0.095,0.095,2.2592,0,0,0.000,0.000\n");
	free(got);
	tm_dir_remove(s.dir);
}

/* ---- bad input ---- */

/* Merges a session whose pre (or post) calls file has @p rows; returns the log. */
static int merge_bad(bool post_side, const char *head, const char *rows, struct tm_log *log,
                     struct session *s)
{
	struct merge_summary sum;

	session_write(s, "100,1,1000,2000\n", "100,1,1100,1900\n", NULL,
	              "xrEndFrame,1,1000,2000,1,0\n", "xrEndFrame,1,1100,1900,1,0\n");
	put(post_side ? s->calls_post : s->calls_pre, head, calls_cols, rows);
	memset(log, 0, sizeof(*log));
	return session_merge(s, &sum, log);
}

static void test_bad_calls_rows(void **state)
{
	(void)state;
	static const struct {
		bool post;
		const char *rows;
		const char *want; /* after "<file>:<its line>: error: " */
	} cases[] = {
		{false, "xrEndFrame,1,2000,1000,1,0\n", "t_exit is before t_entry"},
		{false, "xr-End,1,1000,2000,1,0\n", "column 1 (fn) is not a function name"},
		{false, ",1,1000,2000,1,0\n", "column 1 (fn) is not a function name"},
		{false, "xrEndFrame,1,1000,2000,x,0\n", "frame_id"},
		{false, "xrEndFrame,1,1000,2000,1\n", "xrEndFrame,1,1000,2000,1,0"},
		{false, "xrWaitFrame,1,100,200,1,0\nxrEndFrame,1,1000,2000,900000000,0\n",
		 "frame_id 900000000 is out of step"},
		{true, "xrEndFrame,1,3000000000000000000,3000000000000000001,1,0\n",
		 "out of range"},
		/* CALLS_FN_MAX (96) bytes: one too many. */
		{false, "xrLongNameLongNameLongNameLongNameLongNameLongName"
		        "LongNameLongNameLongNameLongNameLongNameAbcdef,1,1000,2000,1,0\n",
		 "column 1 (fn) is not a function name"},
		{false, "xrEndFrame,1,-1000,2000,1,0\n", "t_entry or t_exit is negative"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tm_log log;
		struct session s;
		char want[600];
		/* Short rows followed by another are errors; alone they are cut rows. */
		bool second_line = strchr(cases[i].rows, '\n') != strrchr(cases[i].rows, '\n');
		const char *rows = cases[i].rows;
		char buf[256];
		if (i == 4) {
			snprintf(buf, sizeof(buf), "%s%s", cases[i].rows, cases[i].want);
			rows = buf;
		}
		assert_int_equal(merge_bad(cases[i].post, cases[i].post ? post_head : pre_head, rows,
		                           &log, &s), -1);
		snprintf(want, sizeof(want), "%s:%d: error: ",
		         cases[i].post ? s.calls_post : s.calls_pre, second_line ? 5 : 4);
		if (strncmp(log.last, want, strlen(want)) != 0 ||
		    (i != 4 && !strstr(log.last, cases[i].want)))
			fail_msg("case %zu: %s", i, log.last);
		/* Nothing is written on failure. */
		assert_int_equal(access(s.merged, F_OK), -1);
		assert_int_equal(access(s.functions, F_OK), -1);
		tm_dir_remove(s.dir);
	}
}

static void test_bad_calls_files(void **state)
{
	(void)state;
	struct tm_log log;
	struct session s;
	struct merge_summary sum;

	/* PRE and POST swapped. */
	assert_int_equal(merge_bad(false, post_head, "xrEndFrame,1,1000,2000,1,0\n", &log, &s), -1);
	assert_non_null(strstr(log.last, "calls-1-pre.csv:2: error: file is side=post, expected side=pre"));
	tm_dir_remove(s.dir);
	/* Another session's file. */
	session_write(&s, "100,1,1000,2000\n", "100,1,1100,1900\n", NULL, "", "");
	put(s.pre, "# session=1\n", frames_cols, "100,1,1000,2000\n");
	put(s.calls_post, "# session=2\n", calls_cols, "");
	memset(&log, 0, sizeof(log));
	assert_int_equal(session_merge(&s, &sum, &log), -1);
	assert_int_equal(log.count, 1);
	if (!strstr(log.last, "calls-1-post.csv") || !strstr(log.last, "error"))
		fail_msg("%s", log.last);
	tm_dir_remove(s.dir);
	/* A wrong column header. */
	session_write(&s, "100,1,1000,2000\n", "100,1,1100,1900\n", NULL, "", "");
	assert_int_equal(tm_file_write(s.calls_pre, "fn,thread_id,t_entry,t_exit,result\n"), 0);
	memset(&log, 0, sizeof(log));
	assert_int_equal(session_merge(&s, &sum, &log), -1);
	assert_non_null(strstr(log.last, "calls-1-pre.csv:1: error: "));
	tm_dir_remove(s.dir);
}

/*
 * More different function names than a file may have
 * (CALLS_NAMES_FILE_MAX; OpenXR has under a thousand): an error at the
 * first name too many, in either file, not a crash or a silent merge.
 */
static void test_too_many_names(void **state)
{
	(void)state;
	size_t size = (size_t)(CALLS_NAMES_FILE_MAX + 1) * 40 + 1;
	char *rows = malloc(size), *p = rows;

	assert_non_null(rows);
	for (int i = 0; i <= CALLS_NAMES_FILE_MAX; i++)
		p += sprintf(p, "f%d,1,%d,%d,1,0\n", i, 1000 + 10 * i, 1005 + 10 * i);
	for (int post = 0; post < 2; post++) {
		struct tm_log log;
		struct session s;
		char want[128];
		assert_int_equal(merge_bad(post, post ? post_head : pre_head, rows, &log, &s), -1);
		/* Two header lines, the column header, then the rows. */
		snprintf(want, sizeof(want), "calls-1-%s.csv:%d: error: more than %d different function names",
		         post ? "post" : "pre", CALLS_NAMES_FILE_MAX + 3 + 1, CALLS_NAMES_FILE_MAX);
		if (!strstr(log.last, want))
			fail_msg("%s", log.last);
		tm_dir_remove(s.dir);
	}
	free(rows);
}

/*
 * Names that share a slot of the table's recent names (same length, same
 * first and last byte) keep their own ids, however they alternate.
 */
static void test_names_sharing_a_slot(void **state)
{
	(void)state;
	const char *names[] = {"xrAbcX", "xrDefX", "xrAbcX", "xrGhiX", "xrDefX", "xrAbcX"};
	const uint32_t want[] = {0, 1, 0, 2, 1, 0};
	struct calls_names t;
	char msg[128];

	assert_int_equal(calls_names_create(&t, 8), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint32_t id = 99;
		assert_int_equal(calls_names_intern(&t, names[i], strlen(names[i]), &id, msg,
		                                    sizeof(msg)), 0);
		assert_int_equal(id, want[i]);
		assert_string_equal(calls_names_get(&t, id), names[i]);
	}
	assert_int_equal(calls_names_count(&t), 3);
	/* Bytes of a stored name followed by a NUL, or with one in them, are no name. */
	uint32_t id = 99;
	assert_int_equal(calls_names_intern(&t, "xrAbcX", 7, &id, msg, sizeof(msg)), -1);
	assert_int_equal(calls_names_intern(&t, "xrA\0cX", 6, &id, msg, sizeof(msg)), -1);
	assert_false(calls_names_recent(&t, "xrAbcX", 7, &id));
	assert_true(calls_names_recent(&t, "xrAbcX", 6, &id));
	assert_int_equal(id, 0);
	/* Not NUL-terminated: the bytes given are the name. */
	assert_int_equal(calls_names_intern(&t, "xrDefXYZ", 6, &id, msg, sizeof(msg)), 0);
	assert_int_equal(id, 1);
	assert_int_equal(calls_names_intern(&t, "xrJklXYZ", 6, &id, msg, sizeof(msg)), 0);
	assert_int_equal(id, 3);
	assert_string_equal(calls_names_get(&t, 3), "xrJklX");
	calls_names_destroy(&t);
}

/* What calls_read() handed over, as text. */
struct read_log {
	char text[4096];
	size_t len;
};

static int log_row(void *ctx, const struct calls_row *row, char *msg, size_t msg_size)
{
	struct read_log *l = ctx;
	(void)msg;
	(void)msg_size;
	assert_int_equal(strlen(row->fn), row->fn_len);
	int n = snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s#%u %llu %lld %lld %llu %lld\n",
	                 row->fn, (unsigned)row->fn_id, (unsigned long long)row->thread_id,
	                 (long long)row->t_entry_ns, (long long)row->t_exit_ns,
	                 (unsigned long long)row->frame_id, (long long)row->result);
	assert_true(n > 0 && (size_t)n < sizeof(l->text) - l->len);
	l->len += (size_t)n;
	return 0;
}

/*
 * Reads @p path with calls_read() into @p out: its rows, ids, result and
 * error; read ahead in segments of @p seg bytes (0: not read ahead).
 */
static void read_logged(const char *path, size_t seg_bytes, char *out, size_t out_size)
{
	struct read_log l = {.len = 0};
	struct calls_names names;
	struct side_meta meta;
	struct csvr_diag d;
	size_t min = csvr_ahead_min_bytes, seg = csvr_ahead_seg_bytes, own = csvr_ahead_own_bytes;

	l.text[0] = '\0';
	if (seg_bytes) {
		csvr_ahead_min_bytes = 0;
		csvr_ahead_seg_bytes = seg_bytes;
		csvr_ahead_own_bytes = 0;
	}
	assert_int_equal(calls_names_create(&names, 3), 0);
	int ret = calls_read(path, "pre", &meta, &d, &names, log_row, &l);
	snprintf(out, out_size, "%sret %d names %u error %s\n", l.text, ret,
	         (unsigned)calls_names_count(&names), d.error);
	calls_names_destroy(&names);
	side_meta_destroy(&meta);
	csvr_ahead_min_bytes = min;
	csvr_ahead_seg_bytes = seg;
	csvr_ahead_own_bytes = own;
}

/*
 * Rows read ahead come to the calls reader in their lines (csvr_format's
 * row_in_line), the others as copies: both ways give the same rows, the
 * same ids (in order of first sight) and the same errors, for names found
 * among the recent ones or not, a name followed by a NUL in its cell (the
 * copy ends there: the name), a cell that is no name, and one name more
 * than the table takes.
 */
static void test_calls_read_ahead_same(void **state)
{
	(void)state;
	static const char rows[] =
		"xrWaitFrame,1,100,200,1,0\n"
		"xrBeginFrame,1,300,400,1,0\n"
		"xrEndFrame,1,500,600,1,0\n"
		"xrWaitFrame,1,700,800,2,0\n"
		"xrEndFrame\0junk,1,900,950,2,0\n"
		"xrEndFrame,2,960,990,2,-1\n";
	static const char *const tails[] = {
		"",
		"xrBeginFrame,1,1000,1100,3,0\nxr-Bad,1,1200,1300,3,0\nxrEndFrame,1,1400,1500,3,0\n",
		"xrEndFrame\0,1,1000,1100,3,0\n",
		"xrBeginFrame,1,1000,1100,3,0\nxrLocateViews,1,1200,1300,3,0\n",
		"xrBeginFrame,1,1000,900,3,0\n",
	};
	char dir[256], path[300], plain[8192], ahead[8192];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/calls-1-pre.csv", dir);
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(pre_head, f);
		fputs(calls_cols, f);
		fwrite(rows, 1, sizeof(rows) - 1, f);
		/* A tail's NUL bytes are written too: up to its last newline. */
		size_t n = strlen(tails[i]);
		if (i == 2)
			n = sizeof("xrEndFrame\0,1,1000,1100,3,0\n") - 1;
		fwrite(tails[i], 1, n, f);
		fclose(f);
		read_logged(path, 0, plain, sizeof(plain));
		/* Lines longer than a segment come as pieces, through libcsv:
		 * from 64 bytes on, most lines come whole, in their lines. */
		static const size_t segs[] = {20, 33, 64, 100, 4096};
		for (size_t k = 0; k < sizeof(segs) / sizeof(segs[0]); k++) {
			read_logged(path, segs[k], ahead, sizeof(ahead));
			assert_string_equal(ahead, plain);
		}
		assert_non_null(strstr(plain, "xrEndFrame#2 1 900 950 2 0\n"));
		if (i == 0)
			assert_non_null(strstr(plain, "ret 0 names 3 error \n"));
		if (i == 1)
			assert_non_null(strstr(plain, "calls-1-pre.csv:11: error: column 1 (fn) is not a "
			                              "function name"));
		if (i == 2)
			assert_non_null(strstr(plain, "xrEndFrame#2 1 1000 1100 3 0\nret 0"));
		if (i == 3)
			assert_non_null(strstr(plain, "calls-1-pre.csv:11: error: more than 3 different "
			                              "function names"));
		if (i == 4)
			assert_non_null(strstr(plain, "calls-1-pre.csv:10: error: t_exit is before t_entry"));
	}
	remove(path);
	tm_dir_remove(dir);
}

/* A killed writer's cut last row: skipped with a warning, counted. */
static void test_truncated_calls_row(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "100,1,1000,2000\n", "100,1,1100,1900\n", NULL,
	              "xrEndFrame,1,1000,2000,1,0\nxrWaitFrame,1,3000,40",
	              "xrEndFrame,1,1100,1900,1,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(log.count, 1);
	assert_non_null(strstr(log.last, "calls-1-pre.csv:5: warning: "));
	assert_int_equal(sum.truncated_rows, 1);
	assert_int_equal(sum.calls_pre, 1);
	tm_dir_remove(s.dir);
}

/* ---- paths ---- */

static void test_calls_paths(void **state)
{
	(void)state;
	struct session s;
	struct merge_siblings sib;
	struct merge_paths p;
	char buf[MERGE_PATH_MAX];

	session_write(&s, "", "", NULL, "", NULL);
	assert_int_equal(merge_sibling_paths(s.pre, NULL, &sib), 0);
	assert_string_equal(sib.calls_pre_csv, s.calls_pre);
	assert_string_equal(sib.calls_post_csv, ""); /* absent */
	assert_string_equal(sib.functions_csv, s.functions);
	merge_paths_from_siblings(&sib, s.pre, &p);
	assert_string_equal(p.calls_pre_csv, s.calls_pre);
	assert_null(p.calls_post_csv);
	assert_null(p.gpu_pre_csv);
	tm_dir_remove(s.dir);

	assert_int_equal(merge_functions_path("d/frames-merged-7.csv", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/functions-merged-7.csv");
	assert_int_equal(merge_functions_path("d/out.csv", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/out.functions.csv");
	assert_int_equal(merge_functions_path("out", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "out.functions.csv");
	assert_int_equal(merge_functions_path("d/out.csv", buf, 8), -1);
}

/*
 * The sandwich starts before the frames files' metadata are read, and
 * waits for their bracket correction: a merge that fails on them stops it
 * there (no hang, the frames file's error said, no file written).
 */
static void test_calls_stopped_early(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;

	session_write(&s, a_frames_pre, a_frames_post, NULL, a_calls_pre, a_calls_post);
	/* post's frames file says it is pre's */
	put(s.post, pre_head, frames_cols, a_frames_post);
	struct tm_log log = {0};
	assert_int_equal(session_merge(&s, &sum, &log), -1);
	assert_non_null(strstr(log.all, "frames-1-post.csv"));
	assert_int_equal(access(s.merged, F_OK), -1);
	assert_int_equal(access(s.functions, F_OK), -1);
	/* A missing frames file the same. */
	unlink(s.post);
	struct tm_log missing = {0};
	assert_int_equal(session_merge(&s, &sum, &missing), -1);
	assert_non_null(strstr(missing.all, "frames-1-post.csv"));
	tm_dir_remove(s.dir);
}

/* ---- percentiles in bounded memory ---- */

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 11;
}

static void test_qhist_exact_then_bounded(void **state)
{
	(void)state;
	enum { N = 100000 };
	double *all = malloc(N * sizeof(*all));
	double *copy = malloc(N * sizeof(*copy));
	struct qhist h = {0};
	uint64_t x = 42;

	assert_non_null(all);
	assert_non_null(copy);
	for (size_t i = 0; i < N; i++) {
		/* log-spread magnitudes from 1 ns to ~1 s, one in ten negative */
		int64_t v = (int64_t)((lcg(&x) % 1000000) * (1 + lcg(&x) % 1000));
		if (lcg(&x) % 10 == 0)
			v = -v / 7;
		all[i] = (double)v;
		assert_int_equal(qhist_add(&h, v), 0);
		if (i + 1 == 1000 || i + 1 == QHIST_EXACT || i + 1 == N) {
			for (int k = 0; k < 3; k++) {
				double p = (double[]){0.5, 0.99, 0.01}[k];
				memcpy(copy, all, (i + 1) * sizeof(*copy));
				double want = stats_percentile(copy, i + 1, p);
				double got = qhist_percentile(&h, p);
				if (i + 1 <= QHIST_EXACT)
					assert_true(got == want); /* exact while few */
				else if (fabs(got - want) > fabs(want) / 128 + 1)
					fail_msg("p%g: %.1f, exact %.1f", p * 100, got, want);
			}
		}
	}
	assert_null(h.exact); /* histogrammed past QHIST_EXACT */
	qhist_destroy(&h);

	/* Below 128 ns the buckets are exact. */
	for (int64_t v = -100; v <= 100; v++)
		for (int k = 0; k < 50; k++)
			assert_int_equal(qhist_add(&h, v), 0);
	assert_true(qhist_percentile(&h, 0.5) == 0);
	assert_true(qhist_percentile(&h, 0) == -100);
	assert_true(qhist_percentile(&h, 1) == 100);
	assert_true(qhist_percentile(&h, 0.75) == 50);
	qhist_destroy(&h);
	free(all);
	free(copy);
}

/*
 * Past QHIST_EXACT, a percentile's exact value from the layout: a bucket
 * reads as its middle (1000 ns: [1000, 1008), 1004), ranks are counted
 * from 0 to count - 1 and a rank on a bucket's first value is that
 * bucket's, two ranks in different buckets are interpolated, and the ends
 * are clamped to the values seen (65536 starts a bucket whose middle is
 * 66048; -65536 likewise).
 */
static void test_qhist_bucket_values(void **state)
{
	struct qhist h = {0};
	(void)state;

	assert_int_equal(qhist_add(&h, -65536), 0);
	for (int i = 0; i < 999; i++)
		assert_int_equal(qhist_add(&h, 0), 0);
	for (int i = 0; i < 3001; i++)
		assert_int_equal(qhist_add(&h, 1000), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(qhist_add(&h, 65536), 0);
	assert_null(h.exact); /* 5001 values: histogrammed */
	/* Ranks 0..5000: -65536, 999 zeros, 3001 × 1000, 1000 × 65536.
	 * Rank 1000: the first 1000, not the last 0. */
	assert_true(qhist_percentile(&h, 0.2) == 1004);
	assert_true(qhist_percentile(&h, 0.5) == 1004);
	/* Rank 999.5: halfway from 0 (rank 999) to 1004 (rank 1000). */
	assert_true(fabs(qhist_percentile(&h, 0.1999) - 502) < 1e-6);
	assert_true(qhist_percentile(&h, 1) == 65536);
	assert_true(qhist_percentile(&h, 0) == -65536);
	qhist_destroy(&h);
}

/*
 * The per-frame totals past what memory holds: ids out of order, lower
 * than the first, pages evicted to the temporary file and read back; the
 * same frames all held when the session was expected to have as many
 * (*state: the frames expected, 0: unknown).
 */
static void test_frames_store_pages(void **state)
{
	const uint64_t hint = *(const uint64_t *)*state;
	char dir[256];
	struct calls_frames s;
	const uint64_t first = 500000, n = 40 * CALLS_FRAMES_PAGE;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(calls_frames_init(&s, dir, hint), 0);
	/* n and a quarter more, and a page for each end's partial one: 52, to a power of two */
	assert_int_equal(s.held, hint == n ? 64 : CALLS_FRAMES_PAGES);
	/* Ids from first - n/2 to first + n/2, in a scrambled order, each
	 * touched twice (the second time after its page may have left memory). */
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t k = 0; k < n; k++) {
			uint64_t id = first - n / 2 + (k * 7919) % n;
			if (pass == 0 && k == 0)
				id = first; /* the first id is not the lowest */
			struct calls_frame *f = calls_frames_at(&s, id);
			assert_non_null(f);
			f->phase_ns[0] += (int64_t)id;
			f->has |= CALLS_HAS_ANY;
		}
	}
	/* More pages than memory holds by default; all held with the hint. */
	assert_int_equal(s.fd >= 0, s.held == CALLS_FRAMES_PAGES);
	assert_int_equal(s.min_id, first - n / 2);
	assert_int_equal(s.max_id, first + n / 2 - 1);
	/* Read without changing anything, in runs that cross pages, memory
	 * and file, and the ends of the ids touched. */
	static struct calls_frame run[3 * CALLS_FRAMES_PAGE];
	for (uint64_t id = s.min_id - 5, len = 1; id <= s.max_id + 5; id += len, len = len * 3 % 2999 + 1) {
		assert_int_equal(calls_frames_read(&s, id, len, run), 0);
		for (uint64_t k = 0; k < len; k++) {
			uint64_t at = id + k;
			int64_t times = at < s.min_id || at > s.max_id ? 0
			              : at == first ? 3 : at == first - n / 2 ? 1 : 2;
			assert_int_equal(run[k].phase_ns[0], times * (int64_t)at);
			assert_int_equal(run[k].has, times ? CALLS_HAS_ANY : 0);
		}
	}
	for (uint64_t id = s.min_id; id <= s.max_id; id++) {
		struct calls_frame f;
		assert_int_equal(calls_frames_get(&s, id, &f), 0);
		/* first was touched three times, the id k = 0 stood for once */
		int64_t times = id == first ? 3 : id == first - n / 2 ? 1 : 2;
		assert_int_equal(f.phase_ns[0], times * (int64_t)id);
	}
	struct calls_frame none;
	assert_int_equal(calls_frames_get(&s, s.max_id + 1, &none), 0);
	assert_int_equal(none.has, 0);
	/* Frames marked used: each counts once, across every page, however
	 * the pages came and went (the marks are not kept in them). */
	uint64_t marked = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t k = 0; k < n; k += 3) {
			int r = calls_frames_mark_used(&s, first - n / 2 + (k * 7919) % n);
			assert_true(r == 0 || r == 1);
			assert_int_equal(r, pass == 0);
			marked += (uint64_t)r;
			struct calls_frame f;
			assert_int_equal(calls_frames_get(&s, first - n / 2 + (k * 6007) % n, &f), 0);
		}
	}
	assert_int_equal(marked, (n + 2) / 3);
	/* Beyond twice the span of the first id: refused, not a huge file. */
	assert_null(calls_frames_at(&s, first + 4 * CALLS_FRAME_SPAN));
	calls_frames_destroy(&s);
	tm_dir_remove(dir);
}

/* ---- rows out of order past the sandwich's bounds: counted, never silent ---- */

/* A pre call that comes more than 1 s after a later one: its post call was placed already. */
static const char late_time_pre[] = "xrWaitFrame,7,1000,2000,1,0\n"
                                    "xrWaitFrame,7,3000000000,3000001000,2,0\n"
                                    "xrLocateViews,7,5000,9000,1,0\n";
static const char late_time_post[] = "xrWaitFrame,7,1100,1900,1,0\n"
                                     "xrLocateViews,7,6000,7000,1,0\n"
                                     "xrWaitFrame,7,3000000100,3000000900,2,0\n";

static void test_late_pre_by_time(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL, late_time_pre, late_time_post);
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.late_calls, 1);
	/* Its post call went where the sandwich could put it: the target's own. */
	assert_int_equal(r.own_thread_calls, 1);
	assert_int_equal(r.self_answered_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/* A post call that comes 3 s after a later one: its pre call was final already. */
static void test_late_post_by_time(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL,
	              "xrLocateViews,7,1000,9000,1,0\nxrWaitFrame,7,3000000000,3000001000,2,0\n",
	              "xrWaitFrame,7,3000000100,3000000900,2,0\nxrLocateViews,7,2000,3000,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.late_calls, 1);
	assert_int_equal(r.self_answered_calls, 1);
	assert_int_equal(r.own_thread_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * @p early calls of 10 ns, 100 ns apart (7 ms in all: the time bound never
 * passes), then an xrWaitFrame from before all of them, whose post call
 * comes first in post's file.
 */
static char *rows_then_late_call(int early)
{
	size_t size = (size_t)early * 48 + 64;
	char *text = malloc(size), *p = text;

	assert_non_null(text);
	for (int i = 0; i < early; i++)
		p += sprintf(p, "xrLocateViews,7,%d,%d,1,0\n", 1000000 + i * 100, 1000000 + i * 100 + 10);
	sprintf(p, "xrWaitFrame,7,500,900,1,0\n");
	return text;
}

/*
 * The row bound: a call CALLS_JOIN_LAG_ROWS rows late is counted (the
 * sandwich held the calls for that many rows, not for a second of a fast
 * app's calls); one less late than that is placed exactly.
 */
static void test_late_pre_by_rows(void **state)
{
	(void)state;
	const int early[] = {CALLS_JOIN_LAG_ROWS + 2 * CALLS_JOIN_STAMP_ROWS,
	                     CALLS_JOIN_LAG_ROWS - CALLS_JOIN_STAMP_ROWS};

	for (int k = 0; k < 2; k++) {
		struct session s;
		struct calls_result r;
		char *pre = rows_then_late_call(early[k]);
		session_write(&s, "", "", NULL, pre, "xrWaitFrame,7,600,800,1,0\n");
		assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
		if (k == 0) {
			assert_int_equal(r.late_calls, 1);
			assert_int_equal(r.own_thread_calls, 1);
			assert_int_equal(r.self_answered_calls, (uint64_t)early[k] + 1);
		} else {
			assert_int_equal(r.late_calls, 0);
			assert_int_equal(r.own_thread_calls, 0);
			assert_int_equal(find_fn(&r, "xrWaitFrame")->forwarded_calls, 1);
			assert_int_equal(r.self_answered_calls, (uint64_t)early[k]);
		}
		calls_result_destroy(&r);
		free(pre);
		tm_dir_remove(s.dir);
	}
}

/* ---- frames read by other threads while the sandwich fills them ---- */

/* Frame @p id as the progress tests fill it. */
static void fill_frame(struct calls_frames *s, uint64_t id)
{
	struct calls_frame *f = calls_frames_at(s, id);

	assert_non_null(f);
	f->phase_ns[0] = (int64_t)id;
	f->phase_ns[U_PHASE_COUNT - 1] = -(int64_t)id;
	f->has = CALLS_HAS_ANY;
}

/*
 * Frames below the published bound are read as they stand (zeros for one
 * never touched), none at or above it; the bound only rises; a frame
 * changed below it breaks it for good, and so does a page written back to
 * make room (its frames may be being copied).
 */
static void test_frames_progress(void **state)
{
	(void)state;
	char dir[256];
	struct calls_frames s;
	struct calls_frames_progress p = {0};
	struct calls_frame out[8];

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(calls_frames_init(&s, dir, 100), 0);
	calls_frames_share(&s, &p);
	assert_int_equal(calls_frames_read_final(&s, 0, 1, out), 0); /* nothing final yet */
	for (uint64_t id = 10; id < 20; id++)
		if (id != 13)
			fill_frame(&s, id);
	calls_frames_publish(&s, 15);
	calls_frames_publish(&s, 12); /* lower: no effect */
	assert_int_equal(atomic_load(&p.final_below), 15);
	assert_int_equal(calls_frames_read_final(&s, 9, 6, out), 1);
	assert_int_equal(out[0].has, 0); /* 9: never touched */
	assert_int_equal(out[4].has, 0); /* 13 */
	for (int k = 1; k < 6; k++)
		if (k != 4)
			assert_int_equal(out[k].phase_ns[0], 9 + k);
	assert_int_equal(calls_frames_read_final(&s, 14, 2, out), 0); /* 15 is not final */
	fill_frame(&s, 15);                                           /* above: still sound */
	assert_false(atomic_load(&p.broken));
	fill_frame(&s, 13); /* below: broken */
	assert_true(atomic_load(&p.broken));
	assert_int_equal(calls_frames_read_final(&s, 10, 1, out), -1);
	calls_frames_publish(&s, 30);
	assert_int_equal(atomic_load(&p.final_below), 15);
	calls_frames_destroy(&s);

	/* The default pages held: the 33rd page written back breaks the bound. */
	struct calls_frames_progress q = {0};
	assert_int_equal(calls_frames_init(&s, dir, 0), 0);
	calls_frames_share(&s, &q);
	fill_frame(&s, 0);
	calls_frames_publish(&s, 1);
	/* Frame 0 is the origin here: read as filled, not as never touched. */
	assert_int_equal(calls_frames_read_final(&s, 0, 1, out), 1);
	assert_int_equal(out[0].has, CALLS_HAS_ANY);
	for (uint64_t page = 1; page < CALLS_FRAMES_PAGES; page++)
		fill_frame(&s, page * CALLS_FRAMES_PAGE);
	assert_false(atomic_load(&q.broken));
	fill_frame(&s, CALLS_FRAMES_PAGES * CALLS_FRAMES_PAGE);
	assert_true(atomic_load(&q.broken));
	calls_frames_destroy(&s);
	tm_dir_remove(dir);
}

/*
 * The same frame asked for again (the sandwich's usual case, which
 * calls_frames_at() answers without a search): after its page went to the
 * file and came back it is the page read back, not the place that now
 * holds another page's frames; below a published bound it breaks the
 * bound as any frame does.
 */
static void test_frames_same_again(void **state)
{
	(void)state;
	char dir[256];
	struct calls_frames s;
	struct calls_frames_progress p = {0};
	struct calls_frame f;
	const uint64_t a = 5, b = a + CALLS_FRAMES_PAGES * CALLS_FRAMES_PAGE; /* b's page takes a's place */

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(calls_frames_init(&s, dir, 0), 0);
	calls_frames_at(&s, b)->phase_ns[0] += 1;
	calls_frames_at(&s, a)->phase_ns[0] += 10; /* b's page written back */
	calls_frames_at(&s, a)->phase_ns[0] += 100;
	assert_int_equal(calls_frames_get(&s, b, &f), 0); /* a's written back, b's read back */
	assert_int_equal(f.phase_ns[0], 1);
	calls_frames_at(&s, a)->phase_ns[0] += 1000; /* a's read back */
	calls_frames_at(&s, a)->phase_ns[0] += 10000;
	assert_true(s.fd >= 0);
	assert_int_equal(calls_frames_get(&s, b, &f), 0);
	assert_int_equal(f.phase_ns[0], 1);
	assert_int_equal(calls_frames_get(&s, a, &f), 0);
	assert_int_equal(f.phase_ns[0], 11110);
	calls_frames_destroy(&s);

	assert_int_equal(calls_frames_init(&s, dir, 100), 0);
	calls_frames_share(&s, &p);
	calls_frames_at(&s, 3)->phase_ns[0] = 1;
	calls_frames_publish(&s, 4);
	assert_false(atomic_load(&p.broken));
	calls_frames_at(&s, 3)->phase_ns[0] = 2; /* changed after all */
	assert_true(atomic_load(&p.broken));
	calls_frames_destroy(&s);
	tm_dir_remove(dir);
}

/* A reader of final frames beside the thread filling them (struct progress_race). */
struct progress_race {
	struct calls_frames *s;
	atomic_bool done;
	uint64_t reads; /* frames the reader checked */
	int bad;        /* frames read other than as filled */
};

static void *race_reader(void *arg)
{
	struct progress_race *r = arg;
	struct calls_frame out[16];

	while (!atomic_load(&r->done)) {
		uint64_t below = atomic_load(&r->s->progress->final_below);
		if (below < 16)
			continue;
		if (calls_frames_read_final(r->s, below - 16, 16, out) != 1)
			continue;
		for (int k = 0; k < 16; k++) {
			uint64_t id = below - 16 + (uint64_t)k;
			r->bad += out[k].phase_ns[0] != (int64_t)id ||
			          out[k].phase_ns[U_PHASE_COUNT - 1] != -(int64_t)id;
		}
		r->reads += 16;
	}
	return NULL;
}

/*
 * Frames read while the pages they share are filled (and loaded) past the
 * bound are whole: what was published before. ThreadSanitizer runs this
 * too (test_merge_calls is one of the merge's tests).
 */
static void test_frames_progress_race(void **state)
{
	(void)state;
	char dir[256];
	struct calls_frames s;
	struct calls_frames_progress p = {0};
	const uint64_t n = 8 * CALLS_FRAMES_PAGE;
	pthread_t t;

	tm_dir_create(dir, sizeof(dir));
	assert_int_equal(calls_frames_init(&s, dir, n), 0);
	calls_frames_share(&s, &p);
	struct progress_race r = {.s = &s};
	assert_int_equal(pthread_create(&t, NULL, race_reader, &r), 0);
	for (uint64_t id = 0; id < n; id++) {
		fill_frame(&s, id);
		calls_frames_publish(&s, id + 1);
	}
	atomic_store(&r.done, true);
	pthread_join(t, NULL);
	assert_int_equal(r.bad, 0);
	assert_false(atomic_load(&p.broken));
	calls_frames_destroy(&s);
	tm_dir_remove(dir);
}

/*
 * @p frames frames of pre's (or post's) calls, 10 ms apart (longer than
 * CALLS_JOIN_LAG_NS in all, so that calls are final before the end): a
 * wait, a begin and an end each, 10 µs apart.
 */
static char *many_calls(int frames, bool post)
{
	char *text = malloc((size_t)frames * 3 * 64 + 1);
	const char *fn[] = {"xrWaitFrame", "xrBeginFrame", "xrEndFrame"};
	size_t len = 0;

	assert_non_null(text);
	text[0] = '\0';
	for (int f = 0; f < frames; f++)
		for (int k = 0; k < 3; k++) {
			long t = 10000000L * f + 10000L * k;
			len += (size_t)sprintf(text + len, "%s,7,%ld,%ld,%d,0\n", fn[k], t + (post ? 100 : 0),
			                       t + (post ? 900 : 1000), f + 1);
		}
	return text;
}

/*
 * The sandwich publishes the frames it has made final: every one at its
 * end when no call came late; a call of an old frame later than it waits
 * for breaks the bound (the merge then formats every row after it).
 */
static void test_sandwich_progress(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;
	struct calls_frames_progress p = {0};
	const struct calls_join_opts opts = {.progress = &p};

	session_write(&s, a_frames_pre, a_frames_post, NULL, a_calls_pre, a_calls_post);
	assert_int_equal(calls_join_each(s.calls_pre, s.calls_post, 10, &opts, &r), 0);
	assert_int_equal(atomic_load(&p.final_below), UINT64_MAX);
	assert_false(atomic_load(&p.broken));
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);

	struct calls_frames_progress q = {0};
	const struct calls_join_opts late = {.progress = &q};
	session_write(&s, "", "", NULL, late_time_pre, late_time_post);
	assert_int_equal(calls_join_each(s.calls_pre, s.calls_post, 0, &late, &r), 0);
	assert_int_equal(r.late_calls, 1);
	assert_true(atomic_load(&q.broken));
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);

	/* Calls made final as it goes (20 s of frames, 1 s held): the bound
	 * published is the oldest frame with a call still open, never above
	 * it, or finalizing that call would break the bound. */
	struct calls_frames_progress l = {0};
	const struct calls_join_opts along = {.progress = &l};
	char *pre = many_calls(2000, false), *post = many_calls(2000, true);
	session_write(&s, "", "", NULL, pre, post);
	assert_int_equal(calls_join_each(s.calls_pre, s.calls_post, 0, &along, &r), 0);
	assert_int_equal(r.late_calls, 0);
	assert_false(atomic_load(&l.broken));
	assert_int_equal(atomic_load(&l.final_below), UINT64_MAX);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
	free(pre);
	free(post);
}

/*
 * The sandwich publishes its counts as it goes (calls_join_opts.tally):
 * never more than its result's, and, over a session of thousands of
 * calls, some of them before its end.
 */
static void test_sandwich_tally(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;
	struct calls_join_tally t = {.placed_until_ns = INT64_MIN};
	const struct calls_join_opts opts = {.tally = &t};
	char *pre = many_calls(2000, false), *post = many_calls(2000, true);

	session_write(&s, "", "", NULL, pre, post);
	assert_int_equal(calls_join_each(s.calls_pre, s.calls_post, 0, &opts, &r), 0);
	assert_int_equal(r.pre_calls, 6000);
	assert_int_equal(r.post_calls, 6000);
	uint64_t pre_seen = atomic_load(&t.pre_calls), post_seen = atomic_load(&t.post_calls);
	assert_true(pre_seen > 0 && pre_seen <= r.pre_calls);
	assert_true(post_seen > 0 && post_seen <= r.post_calls);
	assert_true(atomic_load(&t.placed_until_ns) > 0);
	assert_int_equal(atomic_load(&t.self_answered_calls), 0);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
	free(pre);
	free(post);
}

/*
 * The calls counts guessed while the sandwich runs: its counts so far
 * scaled by the share of the session it has passed; none before a tenth
 * of it; the counts from the files' metadata as 0's.
 */
static void test_calls_guess(void **state)
{
	(void)state;
	struct merge_calls mc;
	struct merge_summary s = {0};

	merge_calls_init(&mc);
	assert_false(merge_calls_guess(&mc, 1000, 2000, &s)); /* nothing published */
	atomic_store(&mc.tally.placed_until_ns, 1050);
	atomic_store(&mc.tally.pre_calls, 30);
	assert_false(merge_calls_guess(&mc, 1000, 2000, &s)); /* 5 %: too early */
	assert_false(s.has_calls);
	atomic_store(&mc.tally.placed_until_ns, 1250);
	atomic_store(&mc.tally.pre_calls, 2500);
	atomic_store(&mc.tally.post_calls, 2499);
	atomic_store(&mc.tally.induced_calls, 3);
	atomic_store(&mc.tally.late_calls, 1);
	s.calls_dropped_queue_full_pre = 7;
	assert_true(merge_calls_guess(&mc, 1000, 2000, &s));
	assert_true(s.has_calls);
	assert_int_equal(s.calls_pre, 10000);
	assert_int_equal(s.calls_post, 9996);
	assert_int_equal(s.induced_calls, 12);
	assert_int_equal(s.calls_late, 4);
	assert_int_equal(s.self_answered_calls, 0);
	assert_int_equal(s.calls_dropped_queue_full_pre, 0);
	atomic_store(&mc.tally.placed_until_ns, 5000); /* past the last record: the counts as they are */
	assert_true(merge_calls_guess(&mc, 1000, 2000, &s));
	assert_int_equal(s.calls_pre, 2500);
	merge_calls_destroy(&mc);
}

/* The merge says so: a warning naming the count, and the summary's calls_late. */
static void test_late_calls_reported(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "100,7,10000,12000\n", "100,7,10500,11500\n", NULL, late_time_pre,
	              late_time_post);
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(sum.calls_late, 1);
	assert_non_null(strstr(log.all, "calls-1-pre.csv: warning: 1 calls came later in their file"));
	char *got = tm_file_read(s.merged);
	assert_non_null(got);
	assert_non_null(strstr(got, "\n# calls_late=1\n"));
	free(got);
	tm_dir_remove(s.dir);
}

/* A late call of post's file: the warning names post's file, not pre's. */
static void test_late_post_calls_reported(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "100,7,10000,12000\n", "100,7,10500,11500\n", NULL,
	              "xrLocateViews,7,1000,9000,1,0\nxrWaitFrame,7,3000000000,3000001000,2,0\n",
	              "xrWaitFrame,7,3000000100,3000000900,2,0\nxrLocateViews,7,2000,3000,1,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(sum.calls_late, 1);
	assert_non_null(strstr(log.all, "calls-1-post.csv: warning: 1 calls came later in their file"));
	assert_null(strstr(log.all, "calls-1-pre.csv: warning"));
	tm_dir_remove(s.dir);
}

/* ---- edges the tests above left open (mutation testing) ---- */

/*
 * The bracket correction, per bracket: with an odd correction a forwarded
 * call still loses exactly the whole of it (two halves of 11 are 11, not
 * 10), and a nested app call is a bracket inside its container too: one
 * read more for the container, beside its own forward's.
 */
static void test_bracket_odd_and_nested(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL,
	              WAIT1_PRE
	              "xrLocateSpace,1,11000,11500,1,0\n"
	              "xrEndFrame,1,10000,20000,1,0\n",
	              WAIT1_POST
	              "xrLocateSpace,1,11100,11300,1,0\n"
	              "xrEndFrame,1,12000,13000,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 11, &r), 0);
	assert_int_equal(find_fn(&r, "xrWaitFrame")->total_ns, 1000 - 800 - 11);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 500 - 200 - 11);
	/* its own reads, its forward's and the nested call's: 3 * 11 / 2 */
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 500 - 1000 - 16);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * A coarse clock gives a post call the very entry and exit of its app
 * call, and a nested call the exit of its container: inside all the same
 * (the brackets are closed intervals), never the target's own call.
 */
static void test_same_clock_reads(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL,
	              "xrWaitFrame,1,1000,2000,1,0\n"
	              "xrLocateSpace,1,15000,20000,1,0\n"
	              "xrEndFrame,1,10000,20000,1,0\n",
	              "xrWaitFrame,1,1000,2000,1,0\n"
	              "xrEndFrame,1,11000,12000,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.own_thread_calls, 0);
	assert_int_equal(find_fn(&r, "xrWaitFrame")->forwarded_calls, 1);
	assert_int_equal(find_fn(&r, "xrWaitFrame")->total_ns, 0);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 5000);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 5000 - 1000);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * Only the first post call of the app call's own function forwards it: a
 * second one (the target called it again) is induced, its time the
 * runtime's.
 */
static void test_forwarded_once(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL, "xrLocateSpace,1,1000,2000,1,0\n",
	              "xrLocateSpace,1,1100,1300,1,0\n"
	              "xrLocateSpace,1,1400,1500,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	const struct calls_fn *ls = find_fn(&r, "xrLocateSpace");
	assert_int_equal(ls->forwarded_calls, 1);
	assert_int_equal(ls->induced_calls, 1);
	assert_int_equal(ls->induced_ns, 100);
	assert_int_equal(r.induced_calls, 1);
	assert_int_equal(ls->total_ns, 1000 - 300);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * Without a post row to wait for (an empty post calls file), a call is
 * still held until no pre row to come can be nested in it: the one that
 * comes after its nested call (the order the calls returned) loses it.
 */
static void test_nested_without_post_calls(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	session_write(&s, "", "", NULL,
	              WAIT1_PRE
	              "xrLocateSpace,1,11000,11500,1,0\n"
	              "xrEndFrame,1,10000,20000,1,0\n",
	              "");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.self_answered_calls, 3);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 500);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 500);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * A frame with two calls of a kind (an app that waits, begins or ends a
 * frame twice): app_wait_us, app_render_us and the next frame's
 * app_cpu_us use the first of each.
 */
static void test_first_call_of_each_kind(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;
	int64_t cols[CALLS_COLS];

	session_write(&s, "", "", NULL,
	              "xrWaitFrame,1,1000,2000,1,0\n"
	              "xrWaitFrame,1,2500,2600,1,0\n"
	              "xrBeginFrame,1,3000,3500,1,0\n"
	              "xrBeginFrame,1,3600,3700,1,0\n"
	              "xrEndFrame,1,5000,6000,1,0\n"
	              "xrEndFrame,1,6500,7000,1,0\n"
	              "xrWaitFrame,1,8000,9000,2,0\n"
	              "xrBeginFrame,1,9500,9800,2,0\n"
	              "xrEndFrame,1,11000,12000,2,0\n",
	              "");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(calls_frame_columns(&r, 1, 5000, 6000, cols), 0);
	assert_int_equal(cols[CALLS_COL_APP_WAIT], 1000);
	assert_int_equal(cols[CALLS_COL_APP_RENDER], 5000 - 3500);
	assert_int_equal(cols[U_PHASE_WAIT], 1000 + 100);
	assert_int_equal(calls_frame_columns(&r, 2, 11000, 12000, cols), 0);
	/* from frame 1's first xrEndFrame's return */
	assert_int_equal(cols[CALLS_COL_APP_CPU], (8000 - 6000) + (9500 - 9000));
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * calls_columns_of() at its edges: overlapping frames (a pipelined app)
 * leave the app no time, each gap 0 on its own, never negative; a frame
 * begun before the recording has no app_* but app_submit_us, its
 * xrBeginFrame recorded or not; where xrWaitFrame is not recorded, a
 * frame is partial by CALLS_HAS_PARTIAL alone.
 */
static void test_columns_edges(void **state)
{
	(void)state;
	const struct calls_frame prev = {.end_exit = 5000, .has = CALLS_HAS_ANY | CALLS_HAS_END};
	struct calls_frame fr = {.wait_entry = 4000, .wait_exit = 6000, .begin_entry = 6500,
	                         .begin_exit = 7000,
	                         .has = CALLS_HAS_ANY | CALLS_HAS_WAIT | CALLS_HAS_BEGIN};
	const unsigned no_wait = U_PHASE_ALL & ~(1u << U_PHASE_WAIT);
	int64_t out[CALLS_COLS];

	fr.phase_ns[U_PHASE_BEGIN] = 300;
	/* xrWaitFrame called before the last frame's xrEndFrame returned */
	calls_columns_of(&fr, &prev, U_PHASE_ALL, 8000, 9000, out);
	assert_int_equal(out[CALLS_COL_APP_CPU], 0 + 500);
	assert_int_equal(out[CALLS_COL_APP_WAIT], 2000);
	assert_int_equal(out[CALLS_COL_APP_RENDER], 1000);
	assert_int_equal(out[CALLS_COL_TARGET_TOTAL], 300);
	/* xrBeginFrame before xrWaitFrame returned; xrEndFrame before xrBeginFrame did */
	fr.wait_entry = 6000;
	fr.wait_exit = 7000;
	fr.begin_entry = 6800;
	calls_columns_of(&fr, &prev, U_PHASE_ALL, 6900, 9000, out);
	assert_int_equal(out[CALLS_COL_APP_CPU], 1000 + 0);
	assert_int_equal(out[CALLS_COL_APP_RENDER], 0);
	/* No xrBeginFrame (the app skipped the frame): no app_cpu either. */
	fr.has = CALLS_HAS_ANY | CALLS_HAS_WAIT | CALLS_HAS_END;
	calls_columns_of(&fr, &prev, U_PHASE_ALL, 6900, 9000, out);
	assert_int_equal(out[CALLS_COL_APP_WAIT], 1000);
	assert_int_equal(out[CALLS_COL_APP_CPU], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_RENDER], CALLS_BLANK);

	/* Begun before the recording, its xrBeginFrame recorded: app_submit only. */
	fr.has = CALLS_HAS_ANY | CALLS_HAS_BEGIN | CALLS_HAS_END;
	calls_columns_of(&fr, &prev, U_PHASE_ALL, 8000, 9000, out);
	assert_int_equal(out[U_PHASE_BEGIN], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_RENDER], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_SUBMIT], 1000);

	/* xrWaitFrame not recorded: a frame without it is whole... */
	calls_columns_of(&fr, &prev, no_wait, 8000, 9000, out);
	assert_int_equal(out[U_PHASE_BEGIN], 300);
	assert_int_equal(out[U_PHASE_WAIT], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_TARGET_TOTAL], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_RENDER], 8000 - 7000);
	assert_int_equal(out[CALLS_COL_APP_WAIT], CALLS_BLANK); /* not 0 */
	assert_int_equal(out[CALLS_COL_APP_CPU], CALLS_BLANK);
	/* ...unless below complete_from */
	fr.has |= CALLS_HAS_PARTIAL;
	calls_columns_of(&fr, &prev, no_wait, 8000, 9000, out);
	assert_int_equal(out[U_PHASE_BEGIN], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_RENDER], CALLS_BLANK);
	assert_int_equal(out[CALLS_COL_APP_SUBMIT], 1000);
}

/*
 * Where xrWaitFrame is not recorded (post's header leaves it out), the
 * frames below the first pre row's are partial, and so is that row's
 * unless it is an xrWaitFrame (pre recorded it): the next frame, or that
 * one, is whole.
 */
static void test_partial_without_wait(void **state)
{
	(void)state;
	static const char *const pre[] = {
		"xrBeginFrame,1,1000,1500,1,0\n"
		"xrEndFrame,1,2000,3000,1,0\n"
		"xrBeginFrame,1,4000,4500,2,0\n"
		"xrEndFrame,1,5000,6000,2,0\n",
		"xrWaitFrame,1,500,800,1,0\n"
		"xrBeginFrame,1,1000,1500,1,0\n"
		"xrEndFrame,1,2000,3000,1,0\n",
	};
	int64_t cols[CALLS_COLS];

	for (int k = 0; k < 2; k++) {
		struct session s;
		struct calls_result r;
		session_write(&s, "", "", "# phases_recorded=begin,end,locate_views,sync_actions,"
		              "swapchain,other\n", pre[k], "");
		assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
		assert_int_equal(r.complete_from, k == 0 ? 2 : 1);
		assert_int_equal(calls_frame_columns(&r, 1, 2000, 3000, cols), 0);
		assert_int_equal(cols[U_PHASE_BEGIN], k == 0 ? CALLS_BLANK : 500);
		if (k == 0) {
			assert_int_equal(calls_frame_columns(&r, 2, 5000, 6000, cols), 0);
			assert_int_equal(cols[U_PHASE_BEGIN], 500);
			assert_int_equal(cols[CALLS_COL_APP_RENDER], 5000 - 4500);
		}
		calls_result_destroy(&r);
		tm_dir_remove(s.dir);
	}
}

/*
 * Rows exactly at the bound the sandwich holds calls by are on time, not
 * late: a pre call beginning at the lowest t_entry pre's rows so far
 * allow (no post call placed can lie inside it), and a post call
 * beginning where the calls are final (every final call ended before it).
 */
static void test_rows_at_the_bound(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;

	/* Pre's floor after its first row is 2e9 - 1 s = 1e9. */
	session_write(&s, "", "", NULL,
	              "xrWaitFrame,7,2000000000,2000001000,2,0\n"
	              "xrLocateViews,7,1000000000,1000000500,1,0\n",
	              "xrLocateViews,7,1000000100,1000000400,1,0\n"
	              "xrWaitFrame,7,2000000100,2000000900,2,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.late_calls, 0);
	assert_int_equal(find_fn(&r, "xrLocateViews")->forwarded_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);

	/* Post's xrWaitFrame at 3e9 may be followed by rows from 2e9 on;
	 * pre's rows so far hold it (they are read to 2.5e9): the calls that
	 * ended before 2e9 are final, and post's xrLocateViews begins there. */
	session_write(&s, "", "", NULL,
	              "xrLocateViews,7,1999999900,2000000500,1,0\n"
	              "xrWaitFrame,7,2999999900,3000001000,2,0\n"
	              "xrEndFrame,7,3500000000,3500001000,2,0\n",
	              "xrWaitFrame,7,3000000000,3000000900,2,0\n"
	              "xrLocateViews,7,2000000000,2000000400,1,0\n"
	              "xrEndFrame,7,3500000100,3500000900,2,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.late_calls, 0);
	assert_int_equal(find_fn(&r, "xrLocateViews")->forwarded_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);

	/* The same, pre's xrLocateViews ending at 2e9 and its forward there
	 * (a coarse clock's tick): not final yet, as a post row may still
	 * begin at 2e9. */
	session_write(&s, "", "", NULL,
	              "xrLocateViews,7,1999999900,2000000000,1,0\n"
	              "xrWaitFrame,7,2999999900,3000001000,2,0\n"
	              "xrEndFrame,7,3500000000,3500001000,2,0\n",
	              "xrWaitFrame,7,3000000000,3000000900,2,0\n"
	              "xrLocateViews,7,2000000000,2000000000,1,0\n"
	              "xrEndFrame,7,3500000100,3500000900,2,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(r.late_calls, 0);
	assert_int_equal(r.own_thread_calls, 0);
	assert_int_equal(find_fn(&r, "xrLocateViews")->forwarded_calls, 1);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * Two merged rows whose xrEndFrame calls have one frame id (an app that
 * ends a frame twice): the frame is used once, and no frame of calls is
 * unmapped (calls_frames_unmapped counted the rows, and went below 0).
 */
static void test_two_rows_one_frame(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "100,1,1000,2000\n200,1,3000,4000\n", "100,1,1100,1900\n200,1,3100,3900\n",
	              NULL,
	              "xrWaitFrame,1,500,600,1,0\n"
	              "xrEndFrame,1,1000,2000,1,0\n"
	              "xrEndFrame,1,3000,4000,1,0\n",
	              "xrEndFrame,1,1100,1900,1,0\n"
	              "xrEndFrame,1,3100,3900,1,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(sum.frame_count, 2);
	assert_int_equal(sum.rows_without_calls, 0);
	assert_int_equal(sum.calls_frames_unmapped, 0);
	tm_dir_remove(s.dir);
}

/*
 * The share of target time: of the sum of every function's total,
 * negative ones included (clock reads cost more than a tiny call); blank
 * when that sum is not above 0, not a share of a negative time.
 */
static void test_functions_negative_totals(void **state)
{
	(void)state;
	struct session s;
	struct calls_result r;
	char msg[256];

	/* xrLocateViews: 50 - 100 (its reads); xrWaitFrame: 2000 - 800 - 200 */
	session_write(&s, "", "", NULL,
	              "xrLocateViews,1,1000,1050,1,0\n"
	              "xrWaitFrame,1,2000,4000,1,0\n",
	              "xrWaitFrame,1,2100,2900,1,0\n");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 200, &r), 0);
	assert_int_equal(functions_write(s.functions, &r, 1, msg, sizeof(msg)), 0);
	char *got = tm_file_read(s.functions);
	assert_non_null(got);
	assert_string_equal(got,
	                    "# frame_count=1\n" FUNCTIONS_HEADER "\n"
	                    "xrWaitFrame,wait,1,1.0000,1.000,1.000,1.000,1.000,1.000,105.2632,0,0,0.000,0.000\n"
	                    "xrLocateViews,locate_views,1,1.0000,-0.050,-0.050,-0.050,-0.050,-0.050,-5.2632,0,0,0.000,0.000\n");
	free(got);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);

	session_write(&s, "", "", NULL, "xrLocateViews,1,1000,1050,1,0\n", "");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 200, &r), 0);
	assert_int_equal(functions_write(s.functions, &r, 1, msg, sizeof(msg)), 0);
	got = tm_file_read(s.functions);
	assert_non_null(got);
	assert_non_null(strstr(got, "\nxrLocateViews,locate_views,1,1.0000,-0.050,-0.050,-0.050,"
	                            "-0.050,-0.050,,0,0,0.000,0.000\n"));
	free(got);
	/* No merged frame (none matched): no calls per frame either. */
	char none[600];
	snprintf(none, sizeof(none), "%s/functions-none.csv", s.dir);
	assert_int_equal(functions_write(none, &r, 0, msg, sizeof(msg)), 0);
	got = tm_file_read(none);
	assert_non_null(got);
	assert_non_null(strstr(got, "\nxrLocateViews,locate_views,1,,-0.050,"));
	free(got);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * A session whose frame ids start at 0 (calls before the first
 * xrWaitFrame have frame 0): frame 0 has no frame before it (app_cpu_us
 * blank), and frame 1's app_cpu_us runs from frame 0's xrEndFrame. The
 * merge's rows (merge_calls.c) and calls_frame_columns() alike.
 */
static void test_frame_zero(void **state)
{
	(void)state;
	struct session s;
	struct merge_summary sum;
	struct tm_log log = {0};

	session_write(&s, "100,1,1000,2000\n200,1,11000,12000\n", "100,1,1100,1900\n200,1,11100,11900\n",
	              NULL,
	              "xrWaitFrame,1,500,600,0,0\n"
	              "xrBeginFrame,1,700,800,0,0\n"
	              "xrEndFrame,1,1000,2000,0,0\n"
	              "xrWaitFrame,1,5000,6000,1,0\n"
	              "xrBeginFrame,1,7000,7500,1,0\n"
	              "xrEndFrame,1,11000,12000,1,0\n",
	              "xrEndFrame,1,1100,1900,0,0\n"
	              "xrEndFrame,1,11100,11900,1,0\n");
	assert_int_equal(session_merge(&s, &sum, &log), 0);
	assert_int_equal(sum.rows_without_calls, 0);
	char *got = tm_file_read(s.merged);
	assert_non_null(got);
	assert_string_equal(tm_rows_of(got),
	                    "100,1,10.000,1.000,0.800,0.200,2.0000,,,"
	                    "0.100,0.100,0.200,0.000,0.000,0.000,0.000,0.400,0.100,,0.200,1.000,\n"
	                    "200,1,,1.000,0.800,0.200,,,,"
	                    "1.000,0.500,0.200,0.000,0.000,0.000,0.000,1.700,1.000,4.000,3.500,1.000,\n");
	free(got);

	/* calls_frame_columns() the same, frame 0 after frame 1 (whose frame
	 * before, 0, has its xrEndFrame): still none before frame 0. */
	struct calls_result r;
	int64_t cols[CALLS_COLS];
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(calls_frame_columns(&r, 1, 11000, 12000, cols), 0);
	assert_int_equal(cols[CALLS_COL_APP_CPU], 4000);
	assert_int_equal(calls_frame_columns(&r, 0, 1000, 2000, cols), 0);
	assert_int_equal(cols[CALLS_COL_APP_CPU], CALLS_BLANK);
	assert_int_equal(cols[CALLS_COL_APP_RENDER], 200);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

/*
 * A nested app call that begins on its container's clock tick (a coarse
 * clock, the brackets being closed intervals), written before it (it
 * returned first): still nested, its duration off the container's, and
 * the post call inside it its own (the innermost call), in either order
 * of the rows.
 */
static void test_nested_same_entry(void **state)
{
	(void)state;
	static const char *const pre[] = {
		WAIT1_PRE "xrLocateSpace,1,10000,11000,1,0\nxrEndFrame,1,10000,20000,1,0\n",
		WAIT1_PRE "xrEndFrame,1,10000,20000,1,0\nxrLocateSpace,1,10000,11000,1,0\n",
	};

	for (int k = 0; k < 2; k++) {
		struct session s;
		struct calls_result r;
		session_write(&s, "", "", NULL, pre[k], WAIT1_POST "xrLocateSpace,1,10100,10900,1,0\n");
		assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
		assert_int_equal(r.induced_calls, 0);
		assert_int_equal(find_fn(&r, "xrLocateSpace")->forwarded_calls, 1);
		assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 1000 - 800);
		assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 1000);
		assert_int_equal(r.self_answered_calls, 1);
		calls_result_destroy(&r);
		tm_dir_remove(s.dir);
	}

	/* Three on one tick, and a call on both ticks of the one it holds:
	 * each held by the next one in the file (the order they returned). */
	struct session s;
	struct calls_result r;
	session_write(&s, "", "", NULL,
	              WAIT1_PRE
	              "xrPollEvent,1,10000,10500,1,0\n"
	              "xrLocateSpace,1,10000,11000,1,0\n"
	              "xrEndFrame,1,10000,20000,1,0\n"
	              "xrSyncActions,1,30000,31000,2,0\n"
	              "xrLocateViews,1,30000,31000,2,0\n",
	              "");
	assert_int_equal(calls_join(s.calls_pre, s.calls_post, 0, &r), 0);
	assert_int_equal(find_fn(&r, "xrPollEvent")->total_ns, 500);
	assert_int_equal(find_fn(&r, "xrLocateSpace")->total_ns, 1000 - 500);
	assert_int_equal(find_fn(&r, "xrEndFrame")->total_ns, 10000 - 1000);
	assert_int_equal(find_fn(&r, "xrSyncActions")->total_ns, 1000);
	assert_int_equal(find_fn(&r, "xrLocateViews")->total_ns, 0);
	calls_result_destroy(&r);
	tm_dir_remove(s.dir);
}

int main(void)
{
	static int orders[] = {0, 1};
	/* unknown; the 40 pages' frames expected; more than the most held */
	static uint64_t frame_hints[] = {0, 40 * CALLS_FRAMES_PAGE, 200 * CALLS_FRAMES_PAGE};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandwich_kinds),
		cmocka_unit_test(test_merge_with_calls),
		cmocka_unit_test(test_phases_not_recorded),
		cmocka_unit_test(test_without_calls_unchanged),
		cmocka_unit_test_prestate(test_nested_pre_call, &orders[0]),
		cmocka_unit_test_prestate(test_nested_pre_call, &orders[1]),
		cmocka_unit_test(test_nested_three_levels),
		cmocka_unit_test(test_nested_many_before_forward),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_frames_that_map_to_nothing),
		cmocka_unit_test(test_partial_frames),
		cmocka_unit_test(test_bad_calls_rows),
		cmocka_unit_test(test_bad_calls_files),
		cmocka_unit_test(test_too_many_names),
		cmocka_unit_test(test_names_sharing_a_slot),
		cmocka_unit_test(test_calls_read_ahead_same),
		cmocka_unit_test(test_truncated_calls_row),
		cmocka_unit_test(test_calls_paths),
		cmocka_unit_test(test_calls_stopped_early),
		cmocka_unit_test(test_sandwich_tally),
		cmocka_unit_test(test_calls_guess),
		cmocka_unit_test(test_qhist_exact_then_bounded),
		cmocka_unit_test(test_qhist_bucket_values),
		cmocka_unit_test_prestate(test_frames_store_pages, &frame_hints[0]),
		cmocka_unit_test_prestate(test_frames_store_pages, &frame_hints[1]),
		cmocka_unit_test_prestate(test_frames_store_pages, &frame_hints[2]),
		cmocka_unit_test(test_late_pre_by_time),
		cmocka_unit_test(test_late_post_by_time),
		cmocka_unit_test(test_late_pre_by_rows),
		cmocka_unit_test(test_late_calls_reported),
		cmocka_unit_test(test_late_post_calls_reported),
		cmocka_unit_test(test_frames_progress),
		cmocka_unit_test(test_frames_same_again),
		cmocka_unit_test(test_frames_progress_race),
		cmocka_unit_test(test_sandwich_progress),
		cmocka_unit_test(test_bracket_odd_and_nested),
		cmocka_unit_test(test_same_clock_reads),
		cmocka_unit_test(test_forwarded_once),
		cmocka_unit_test(test_nested_without_post_calls),
		cmocka_unit_test(test_first_call_of_each_kind),
		cmocka_unit_test(test_columns_edges),
		cmocka_unit_test(test_partial_without_wait),
		cmocka_unit_test(test_rows_at_the_bound),
		cmocka_unit_test(test_two_rows_one_frame),
		cmocka_unit_test(test_functions_negative_totals),
		cmocka_unit_test(test_frame_zero),
		cmocka_unit_test(test_nested_same_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
