/*
 * Unit tests of GPU clocks narrower than 64 bits (`# gpu_valid_bits=` in a
 * GPU file, README "GPU files"): the header line is read or refused with a
 * clear message; the merge gives a frame whose timestamps straddle the
 * clock's wrap the ticks that passed; `xrlm trace`'s reader places every
 * timestamp of a clock that wraps again and again, and pairs pre's with
 * post's across a wrap; a file without the line reads as it always did.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "side_gpu.h"
#include "tm_common.h"
#include "trace_read.h"
#include "trace_spool.h"
#include "trace_target.h"

/* ---- the files ---- */

/* Six frames 1 ms apart, each with its CPU values (as data/frames-s3-*.csv). */
static const char frames_pre[] =
	"# side=pre\n"
	"display_time,thread_id,t_entry,t_exit\n"
	"10,5,1000000,1000100\n20,5,2000000,2000100\n30,5,3000000,3000100\n"
	"40,5,4000000,4000100\n50,5,5000000,5000100\n60,5,6000000,6000100\n"
	"# session_end dropped_queue_full=0\n";
static const char frames_post[] =
	"# side=post\n"
	"display_time,thread_id,t_entry,t_exit\n"
	"10,5,1000020,1000070\n20,5,2000020,2000070\n30,5,3000020,3000070\n"
	"40,5,4000020,4000070\n50,5,5000020,5000070\n60,5,6000020,6000070\n"
	"# session_end dropped_queue_full=0\n";

/*
 * GPU rows of a 12-bit clock (4096 ticks, one a microsecond): frames 10,
 * 30 and 50 straddle its wrap, 20 and 60 do not, and at 40 post is 1990
 * ticks before pre (2106 after it modulo the wrap: more than half of it,
 * so backwards).
 */
static const char gpu_pre_rows[] =
	"display_time,gpu_ticks,gpu_period_ns,valid\n"
	"10,4090,1000,1\n20,100,1000,1\n30,4095,1000,1\n40,2000,1000,1\n50,4000,1000,1\n"
	"60,3000,1000,1\n# session_end gpu_ring_overflow=0\n";
static const char gpu_post_rows[] =
	"display_time,gpu_ticks,gpu_period_ns,valid\n"
	"10,6,1000,1\n20,110,1000,1\n30,0,1000,1\n40,10,1000,1\n50,146,1000,1\n"
	"60,3001,1000,1\n# session_end gpu_ring_overflow=0\n";

/* Writes @p rows as GPU file @p name of @p dir, with "# gpu_valid_bits=@p bits" (NULL: none). */
static void write_gpu(const char *dir, const char *name, const char *side, const char *bits,
                      const char *rows)
{
	char path[512], line[64] = "", text[1024];

	if (bits)
		snprintf(line, sizeof(line), "# gpu_valid_bits=%s\n", bits);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(text, sizeof(text), "# gpu_clock=vulkan\n# side=%s\n%s%s", side, line, rows);
	assert_int_equal(tm_file_write(path, text), 0);
}

/* The session of the files above in @p dir; the GPU files' widths @p pre_bits, @p post_bits. */
static void write_session(const char *dir, const char *pre_bits, const char *post_bits)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/frames-w-pre.csv", dir);
	assert_int_equal(tm_file_write(path, frames_pre), 0);
	snprintf(path, sizeof(path), "%s/frames-w-post.csv", dir);
	assert_int_equal(tm_file_write(path, frames_post), 0);
	write_gpu(dir, "gpu-w-pre.csv", "pre", pre_bits, gpu_pre_rows);
	write_gpu(dir, "gpu-w-post.csv", "post", post_bits, gpu_post_rows);
}

/* Merges the session of @p dir; the merged file's rows (free them). */
static char *merge_session(const char *dir, struct merge_summary *s)
{
	char pre[512], post[512], gpu_pre[512], gpu_post[512], out[512];
	struct tm_log log = {0};

	snprintf(pre, sizeof(pre), "%s/frames-w-pre.csv", dir);
	snprintf(post, sizeof(post), "%s/frames-w-post.csv", dir);
	snprintf(gpu_pre, sizeof(gpu_pre), "%s/gpu-w-pre.csv", dir);
	snprintf(gpu_post, sizeof(gpu_post), "%s/gpu-w-post.csv", dir);
	snprintf(out, sizeof(out), "%s/out.csv", dir);
	struct merge_paths p = {.pre_csv = pre, .post_csv = post, .gpu_pre_csv = gpu_pre,
	                        .gpu_post_csv = gpu_post};
	if (merge_files(&p, out, s, tm_log_fn, &log) != 0)
		fail_msg("merge failed: %s", log.all);
	assert_int_equal(log.count, 0);
	char *text = tm_file_read(out);
	assert_non_null(text);
	return text;
}

/* ---- the header line ---- */

static void test_read_valid_bits(void **state)
{
	(void)state;
	char dir[256], path[512];
	struct side_gpu_file f;

	tm_dir_create(dir, sizeof(dir));
	write_session(dir, "12", NULL);
	snprintf(path, sizeof(path), "%s/gpu-w-pre.csv", dir);
	assert_int_equal(side_gpu_read(path, "pre", &f), 0);
	assert_int_equal(f.meta.gpu_valid_bits, 12);
	assert_int_equal(side_meta_gpu_bits(&f.meta), 12);
	assert_true(f.rows[0].ticks == 4090);
	side_gpu_destroy(&f);
	/* Without the line: 64 bits, as every older file. */
	snprintf(path, sizeof(path), "%s/gpu-w-post.csv", dir);
	assert_int_equal(side_gpu_read(path, "post", &f), 0);
	assert_int_equal(f.meta.gpu_valid_bits, 0);
	assert_int_equal(side_meta_gpu_bits(&f.meta), 64);
	side_gpu_destroy(&f);
	/* The limits. */
	write_session(dir, "1", "64");
	snprintf(path, sizeof(path), "%s/gpu-w-pre.csv", dir);
	assert_int_equal(side_gpu_read(path, "pre", &f), 0);
	assert_int_equal(f.meta.gpu_valid_bits, 1);
	side_gpu_destroy(&f);
	snprintf(path, sizeof(path), "%s/gpu-w-post.csv", dir);
	assert_int_equal(side_gpu_read(path, "post", &f), 0);
	assert_int_equal(f.meta.gpu_valid_bits, 64);
	side_gpu_destroy(&f);
	tm_dir_remove(dir);
}

/* A width that is not 1..64 is an error naming the key, the file and its line. */
static void test_read_bad_valid_bits(void **state)
{
	(void)state;
	static const char *const bad[] = {"0", "65", "x", "", "12abc", "-1", "1e1",
	                                  "99999999999999999999"};
	char dir[256], path[512];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/gpu-w-pre.csv", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct side_gpu_file f;
		write_session(dir, bad[i], NULL);
		if (side_gpu_read(path, "pre", &f) != -1)
			fail_msg("gpu_valid_bits=%s was accepted", bad[i]);
		if (!strstr(f.diag.error, "gpu-w-pre.csv:3: error:") ||
		    !strstr(f.diag.error, "gpu_valid_bits is not a width in bits from 1 to 64"))
			fail_msg("gpu_valid_bits=%s: \"%s\"", bad[i], f.diag.error);
		side_gpu_destroy(&f);
	}
	tm_dir_remove(dir);
}

/* ---- the merge ---- */

/* A 12-bit clock: the frames across its wrap have their GPU time. */
static void test_merge_across_wrap(void **state)
{
	(void)state;
	char dir[256];
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	write_session(dir, "12", "12");
	char *got = merge_session(dir, &s);
	assert_string_equal(tm_rows_of(got),
	                    /* 4090 -> 6: 12 ticks across the wrap */
	                    "10,5,1000.000,0.100,0.050,0.050,0.0050,12.000,1.2000,,,,,,,,,,,,,12.000,0\n"
	                    "20,5,1000.000,0.100,0.050,0.050,0.0050,10.000,1.0000,,,,,,,,,,,,,10.000,0\n"
	                    /* 4095 -> 0: one tick */
	                    "30,5,1000.000,0.100,0.050,0.050,0.0050,1.000,0.1000,,,,,,,,,,,,,1.000,0\n"
	                    /* 2000 -> 10: backwards, blank */
	                    "40,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    /* 4000 -> 146: 242 ticks */
	                    "50,5,1000.000,0.100,0.050,0.050,0.0050,242.000,24.2000,,,,,,,,,,,,,242.000,0\n"
	                    "60,5,,0.100,0.050,0.050,,1.000,,,,,,,,,,,,,,1.000,0\n");
	assert_int_equal(s.gpu_frame_count, 5);
	free(got);
	tm_dir_remove(dir);
}

/* Files without the line: 64 bits, each post < pre blank as before. */
static void test_merge_without_line(void **state)
{
	(void)state;
	char dir[256];
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	write_session(dir, NULL, NULL);
	char *got = merge_session(dir, &s);
	assert_string_equal(tm_rows_of(got),
	                    "10,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "20,5,1000.000,0.100,0.050,0.050,0.0050,10.000,1.0000,,,,,,,,,,,,,10.000,0\n"
	                    "30,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "40,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "50,5,1000.000,0.100,0.050,0.050,0.0050,,,,,,,,,,,,,,,,0\n"
	                    "60,5,,0.100,0.050,0.050,,1.000,,,,,,,,,,,,,,1.000,0\n");
	assert_int_equal(s.gpu_frame_count, 2);
	free(got);
	/* "64" said is the same as nothing said. */
	tm_dir_remove(dir);
	tm_dir_create(dir, sizeof(dir));
	write_session(dir, "64", NULL);
	got = merge_session(dir, &s);
	assert_int_equal(s.gpu_frame_count, 2);
	free(got);
	tm_dir_remove(dir);
}

/* Two widths are two clocks: no frame has a GPU time (as with two periods). */
static void test_merge_widths_differ(void **state)
{
	(void)state;
	char dir[256];
	struct merge_summary s;

	tm_dir_create(dir, sizeof(dir));
	write_session(dir, "12", NULL);
	char *got = merge_session(dir, &s);
	assert_int_equal(s.gpu_frame_count, 0);
	assert_null(strstr(tm_rows_of(got), ",10.000,"));
	free(got);
	tm_dir_remove(dir);
}

/* ---- the trace ---- */

struct placed {
	int n;
	int64_t t_ns[32];
	bool placed[32];
};

static int collect(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size)
{
	struct placed *p = ctx;
	(void)msg;
	(void)msg_size;

	if (p->n < 32) {
		p->t_ns[p->n] = g->t_ns;
		p->placed[p->n] = g->placed;
	}
	p->n++;
	return 0;
}

/*
 * An 8-bit clock of 1 ns ticks, a row every 100 ticks from 200 on: it
 * wraps four times over the rows, far more than half its range from the
 * calibration (250 ticks = 1 ms); each row is placed where its unwrapped
 * ticks put it. An invalid row's ticks (garbage) move nothing.
 */
static void test_trace_unwraps(void **state)
{
	(void)state;
	enum { ROWS = 12 };
	char dir[256], path[512], text[2048];
	size_t used = 0;
	struct side_meta meta;
	struct csvr_diag diag = {0};
	struct placed p = {0};

	used += (size_t)snprintf(text, sizeof(text), "# gpu_clock=vulkan\n# side=pre\n"
	                         "# gpu_valid_bits=8\ndisplay_time,gpu_ticks,gpu_period_ns,valid\n"
	                         "# calibration gpu_ticks=250 monotonic_ns=1000000 "
	                         "max_deviation_ns=1\n");
	for (int i = 0; i < ROWS; i++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%d,%d,1,1\n", i + 1,
		                         (200 + 100 * i) % 256);
		if (i == 5)
			used += (size_t)snprintf(text + used, sizeof(text) - used, "99,77,1,0\n");
	}
	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/gpu-w-pre.csv", dir);
	assert_int_equal(tm_file_write(path, text), 0);
	if (trace_read_gpu(path, "pre", &meta, &diag, collect, &p) != 0)
		fail_msg("%s", diag.error);
	assert_int_equal(p.n, ROWS + 1);
	for (int i = 0, row = 0; i < ROWS; i++, row++) {
		if (i == 6)
			assert_false(p.placed[row++]); /* the invalid row */
		int64_t want = 1000000 + (200 + 100 * i) - 250;
		if (!p.placed[row] || p.t_ns[row] != want)
			fail_msg("row %d (%d ticks unwrapped): placed %d at %lld, want %lld", i,
			         200 + 100 * i, p.placed[row], (long long)p.t_ns[row], (long long)want);
	}
	tm_dir_remove(dir);
}

/* A GPU period as post's spooled record carries it (its double's bits: trace_gpu.c). */
static int64_t period_bits(double period_ns)
{
	int64_t bits;

	memcpy(&bits, &period_ns, sizeof(bits));
	return bits;
}

/* Pre's and post's timestamps of a frame across the wrap: the ticks between them. */
static void test_trace_pairs_across_wrap(void **state)
{
	(void)state;
	struct trace_spool post;
	struct trace_spool_rec next;
	struct trace_gpu_pair pair;
	const int64_t flags = TRACE_GPU_VALID | TRACE_GPU_PLACED;
	const int64_t period = period_bits(1000);

	assert_int_equal(trace_spool_create(&post), 0);
	/* Frame 1 at 6 ticks (12 after pre's 4090); frame 2 on a 64-bit clock. */
	const struct trace_spool_rec recs[2] = {
		{{1, 6, 2000, flags | 12 << TRACE_GPU_BITS_SHIFT, period}},
		{{2, 6, 3000, flags | 64 << TRACE_GPU_BITS_SHIFT, period}}};
	trace_spool_add(&post, &recs[0]);
	trace_spool_add(&post, &recs[1]);
	assert_int_equal(trace_spool_rewind(&post), 0);
	bool has_next = trace_spool_next(&post, &next);

	struct trace_gpu pre = {.display_time = 1, .ticks = 4090, .valid_bits = 12,
	                        .period_ns = 1000, .valid = true, .placed = true, .t_ns = 1000};
	assert_true(trace_target_gpu(&post, &next, &has_next, &pre, &pair));
	assert_true(pair.raw_us == 12.0 && pair.gpu_us == 12.0);
	/* Widths differ: two clocks, no pair. */
	pre.display_time = 2;
	assert_false(trace_target_gpu(&post, &next, &has_next, &pre, &pair));
	trace_spool_destroy(&post);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_valid_bits),
		cmocka_unit_test(test_read_bad_valid_bits),
		cmocka_unit_test(test_merge_across_wrap),
		cmocka_unit_test(test_merge_without_line),
		cmocka_unit_test(test_merge_widths_differ),
		cmocka_unit_test(test_trace_unwraps),
		cmocka_unit_test(test_trace_pairs_across_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
