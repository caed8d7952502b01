/*
 * Fuzz entry point: the calls files' reader (calls_read) and the nested-call
 * sandwich over it (calls_join). One input holds pre's calls file, a line
 * "====", then post's (without it, the post file is empty).
 *
 * Besides crashes, leaks and UB: a failure has one error line, pre's file
 * reads the same read ahead (its rows in their lines) as not, and on
 * success every call is accounted once (each pre call in its function's
 * calls, each post call forwarded, induced or own-thread), every xrEndFrame
 * call finds its frame, and percentiles lie within [min, max].
 */
#include <string.h>

#include "calls_join.h"
#include "calls_names.h"
#include "calls_read.h"
#include "csvr.h"
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

/* What one calls_read() saw, folded into a hash (FNV-1a). */
struct seen {
	uint64_t hash, rows;
};

static void mix(struct seen *t, const void *p, size_t n)
{
	fuzz_hash_mix(&t->hash, p, n);
}

static int seen_row(void *ctx, const struct calls_row *row, char *msg, size_t msg_size)
{
	struct seen *t = ctx;
	(void)msg;
	(void)msg_size;
	if (strlen(row->fn) != row->fn_len)
		fuzz_fail("a row's fn_len is not its name's length");
	t->rows++;
	mix(t, row->fn, row->fn_len + 1);
	mix(t, &row->fn_id, sizeof(row->fn_id));
	mix(t, &row->thread_id, sizeof(row->thread_id));
	mix(t, &row->t_entry_ns, sizeof(row->t_entry_ns));
	mix(t, &row->t_exit_ns, sizeof(row->t_exit_ns));
	mix(t, &row->frame_id, sizeof(row->frame_id));
	mix(t, &row->result, sizeof(row->result));
	return 0;
}

/*
 * Reads @p path with calls_read() as a merge does (its names interned), on
 * this thread and again read ahead in segments of 1 to 48 bytes, whose
 * rows come in their lines (csvr_format.row_in_line): the same rows, ids
 * and messages.
 */
static void check_read_ahead(const char *path, size_t size)
{
	struct seen t[2];
	struct csvr_diag d[2];
	int ret[2];
	size_t min = csvr_ahead_min_bytes, seg = csvr_ahead_seg_bytes, own = csvr_ahead_own_bytes;

	for (int i = 0; i < 2; i++) {
		struct calls_names names;
		struct side_meta meta;
		if (calls_names_create(&names, 4) != 0)
			fuzz_fail("out of memory");
		if (i == 1) {
			csvr_ahead_min_bytes = 0;
			csvr_ahead_seg_bytes = 1 + size % 48;
			csvr_ahead_own_bytes = size % 61;
		}
		t[i] = (struct seen){.hash = FUZZ_HASH_START};
		ret[i] = calls_read(path, "pre", &meta, &d[i], &names, seen_row, &t[i]);
		fuzz_check_diag(&d[i], ret[i]);
		side_meta_destroy(&meta);
		calls_names_destroy(&names);
	}
	csvr_ahead_min_bytes = min;
	csvr_ahead_seg_bytes = seg;
	csvr_ahead_own_bytes = own;
	if (ret[0] != ret[1] || t[0].hash != t[1].hash || t[0].rows != t[1].rows)
		fuzz_fail("calls_read() read ahead and not read the file differently");
	if (strcmp(d[0].error, d[1].error) != 0 || d[0].warning_count != d[1].warning_count)
		fuzz_fail("calls_read() read ahead and not report differently");
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
	check_read_ahead(pre.path, size);
	return 0;
}
