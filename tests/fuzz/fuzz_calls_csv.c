/*
 * Fuzz entry point: the calls files' reader (calls_read) and the nested-call
 * sandwich over it (calls_join). One input holds pre's calls file, a line
 * "====", then post's (without it, the post file is empty).
 *
 * Besides crashes, leaks and UB: a failure has one error line, and on
 * success every call is accounted once (each pre call in its function's
 * calls, each post call forwarded, induced or own-thread), every xrEndFrame
 * call finds its frame, and percentiles lie within [min, max].
 */
#include "calls_join.h"
#include "fuzz_check.h"
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accounting(struct calls_result *r)
{
	uint64_t pre = 0, post = 0, induced = 0, own = 0;

	for (size_t i = 0; i < r->fn_count; i++) {
		const struct calls_fn *f = &r->fns[i];
		pre += f->calls;
		post += f->forwarded_calls + f->induced_calls + f->own_thread_calls;
		induced += f->induced_calls;
		own += f->own_thread_calls;
		for (double p = 0; p <= 1; p += 0.25) {
			double v = qhist_percentile(&f->excl, p);
			if (f->calls && (v < (double)f->excl.min || v > (double)f->excl.max))
				fuzz_fail("a percentile outside [min, max]");
		}
	}
	if (pre != r->pre_calls || post != r->post_calls || induced != r->induced_calls ||
	    own != r->own_thread_calls || r->self_answered_calls > r->pre_calls)
		fuzz_fail("calls not accounted once each");
	for (uint64_t i = 0; i < r->ends.count; i++) {
		struct calls_end end, *e = &end;
		int64_t cols[CALLS_COLS];
		if (spill_read(&r->ends, i, 1, e) != 0)
			fuzz_fail("an xrEndFrame call cannot be read back");
		uint64_t f = calls_find_frame(r, e->thread_id, e->t_entry_ns, e->t_exit_ns);
		if (f == CALLS_NO_FRAME)
			fuzz_fail("an xrEndFrame call without its frame");
		if (calls_frame_columns(r, f, e->t_entry_ns, e->t_exit_ns, cols) != 0)
			fuzz_fail("a frame cannot be read back");
		if (cols[CALLS_COL_APP_SUBMIT] != e->t_exit_ns - e->t_entry_ns)
			fuzz_fail("app_submit is not the xrEndFrame call");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file pre, post;
	struct calls_result r;
	size_t next;

	if (!pre.path[0]) {
		fuzz_file_init(&pre, "calls-pre.csv");
		fuzz_file_init(&post, "calls-post.csv");
	}
	size_t end = fuzz_part_end(data, size, 0, &next);
	fuzz_file_set(&pre, data, end);
	fuzz_file_set(&post, data + next, size - next);

	int ret = calls_join(pre.path, post.path, (int64_t)(size % 50), &r);
	fuzz_check_diag(&r.pre_diag, r.pre_diag.failed ? -1 : 0);
	fuzz_check_diag(&r.post_diag, r.post_diag.failed ? -1 : 0);
	if ((ret != 0) != (r.pre_diag.failed || r.post_diag.failed))
		fuzz_fail("a failed join must carry an error, a good one none");
	if (ret == 0)
		check_accounting(&r);
	calls_result_destroy(&r);
	return 0;
}
