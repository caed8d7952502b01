/*
 * The merge of one session's per-side files; see merge.h.
 *
 * Data path: the two sides are read in parallel (one extra thread, when it
 * can be created), the CPU rows joined, the GPU rows joined, the statistics
 * computed over flat arrays, then the summary and rows written through a
 * buffered writer. Memory is about 110 bytes per frame at the peak.
 */
#include "merge.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "side_cpu.h"
#include "side_gpu.h"
#include "fmt.h"
#include "join.h"
#include "merge_calls.h"
#include "merge_check.h"
#include "merge_gate.h"
#include "merged_write.h"
#include "u_names.h"

#define MERGE_MSG_MAX 1024

/* Everything read from one side. */
struct input {
	const char *name; /* "pre" or "post" */
	const char *cpu_path;
	const char *gpu_path; /* NULL: none */
	struct side_cpu_file cpu;
	struct side_gpu_file gpu;
	int ret;
};

static void *read_side(void *arg)
{
	struct input *s = arg;

	s->ret = side_cpu_read(s->cpu_path, s->name, &s->cpu);
	if (s->ret == 0 && s->gpu_path)
		s->ret = side_gpu_read(s->gpu_path, s->name, &s->gpu);
	return NULL;
}

static void input_destroy(struct input *s)
{
	side_cpu_destroy(&s->cpu);
	side_gpu_destroy(&s->gpu);
}

static void say(merge_log_fn log, void *ctx, const char *message)
{
	if (log)
		log(ctx, message);
}

static void sayf(merge_log_fn log, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void sayf(merge_log_fn log, void *ctx, const char *fmt, ...)
{
	char msg[MERGE_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say(log, ctx, msg);
}

static void say_warnings(const struct csvr_diag *d, merge_log_fn log, void *ctx)
{
	for (int i = 0; i < d->warning_count; i++)
		say(log, ctx, d->warnings[i]);
}

/* Reads both sides, the post side on a second thread when possible. */
static int read_sides(struct input *pre, struct input *post, merge_log_fn log, void *ctx)
{
	pthread_t thread;
	bool threaded = pthread_create(&thread, NULL, read_side, post) == 0;

	read_side(pre);
	if (threaded)
		pthread_join(thread, NULL);
	else
		read_side(post);

	/* Warnings first, in a fixed order, then the first error. */
	say_warnings(&pre->cpu.diag, log, ctx);
	say_warnings(&pre->gpu.diag, log, ctx);
	say_warnings(&post->cpu.diag, log, ctx);
	say_warnings(&post->gpu.diag, log, ctx);
	const struct csvr_diag *order[] = {&pre->cpu.diag, &pre->gpu.diag, &post->cpu.diag,
	                                   &post->gpu.diag};
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i]->failed) {
			say(log, ctx, order[i]->error);
			return -1;
		}
	}
	if (pre->ret != 0 || post->ret != 0) {
		sayf(log, ctx, "%s: error: cannot read", pre->ret ? pre->cpu_path : post->cpu_path);
		return -1;
	}
	return 0;
}

/* Both sides must bracket with the same clock for the subtraction to mean anything. */
static int check_clocks(const struct input *pre, const struct input *post, merge_log_fn log,
                        void *ctx)
{
	const char *a = pre->cpu.meta.clock, *b = post->cpu.meta.clock;

	if (a[0] && b[0] && strcmp(a, b) != 0) {
		sayf(log, ctx, "%s: error: clock=%s but %s has clock=%s", post->cpu_path, b,
		     pre->cpu_path, a);
		return -1;
	}
	return 0;
}

/* Every file must be of the pre CPU file's session (see merge_check.h). */
static int check_sessions(const struct input *pre, const struct input *post, merge_log_fn log,
                          void *ctx)
{
	char msg[MERGE_MSG_MAX];
	const struct merge_check_file ref = {pre->cpu_path, pre->cpu.meta.session};
	const struct merge_check_file others[] = {
		{post->cpu_path, post->cpu.meta.session},
		{pre->gpu_path, pre->gpu.meta.session},
		{post->gpu_path, post->gpu.meta.session},
	};

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		if (others[i].path && !merge_check_same_session(&ref, &others[i], msg, sizeof(msg))) {
			say(log, ctx, msg);
			return -1;
		}
	}
	return 0;
}

/*
 * A merge that matches nothing is an error, not an empty result: files of
 * different sessions that nothing else told apart, or an empty session.
 */
static int check_matched(const struct input *pre, const struct input *post,
                         const struct join_result *j, merge_log_fn log, void *ctx)
{
	if (j->matched == 0) {
		if (pre->cpu.count == 0 && post->cpu.count == 0)
			sayf(log, ctx, "%s: error: no frame recorded on either side; nothing to merge",
			     pre->cpu_path);
		else
			sayf(log, ctx, "%s: error: none of its %zu frames is in %s (%zu frames): "
			     "not the same session?", pre->cpu_path, pre->cpu.count, post->cpu_path,
			     post->cpu.count);
		return -1;
	}
	if (j->gpu_us && j->gpu_matched == 0 && pre->gpu.count > 0 && post->gpu.count > 0) {
		sayf(log, ctx, "%s: error: none of its rows matches both a frame of %s and a row of "
		     "%s: not the same session?", pre->gpu_path, pre->cpu_path, post->gpu_path);
		return -1;
	}
	return 0;
}

/* An overflowed value has no text (fmt_fixed() writes nothing for it), so
 * it must not count as present in the statistics either. */
static double blank_if_infinite(double v)
{
	return isinf(v) ? NAN : v;
}

/* What the rows are made from. */
struct rows_ctx {
	const struct input *pre;
	const struct input *post;
	const struct join_result *j;
	const struct merge_gate *gate;
	bool has_gpu_files; /* gate_tripped is blank without */
	const struct merge_calls *calls;
};

static void make_row(const struct rows_ctx *c, size_t i, struct merged_row *r)
{
	const struct input *pre = c->pre, *post = c->post;
	const struct join_result *j = c->j;
	const struct side_cpu_row *a = &pre->cpu.rows[i];
	const struct side_cpu_row *b = &post->cpu.rows[j->match[i]];

	r->display_time = a->display_time;
	r->thread_id = a->thread_id;
	r->pre_ns = a->dur_ns;
	r->post_ns = b->dur_ns;
	r->target_ns = a->dur_ns - b->dur_ns - (int64_t)post->cpu.meta.bracket_correction_ns;
	r->has_interval = j->next[i] != JOIN_NONE;
	r->interval_ns = r->has_interval ? pre->cpu.rows[j->next[i]].t_entry_ns - a->t_entry_ns : 0;
	r->gpu_us = j->gpu_us ? j->gpu_us[i] : NAN;
	r->has_gpu_raw = c->has_gpu_files;
	r->gpu_raw_us = j->gpu_raw_us ? j->gpu_raw_us[i] : NAN;
	r->gate_tripped = c->has_gpu_files ? merge_gate_tripped(c->gate, a->display_time) : -1;
	merge_calls_row(c->calls, a->thread_id, a->t_entry_ns, a->dur_ns, r);

	/* Percentages are rounded as written (see fmt.h) and need a positive
	 * interval: a zero or backwards one has no meaningful share. */
	bool has_share = r->has_interval && r->interval_ns > 0;
	double interval_us = (double)r->interval_ns / 1000.0;
	r->cpu_pct = has_share ? fmt_round((double)r->target_ns / (double)r->interval_ns * 100.0, 4) : NAN;
	r->gpu_pct = has_share && !isnan(r->gpu_us) ? fmt_round(r->gpu_us / interval_us * 100.0, 4) : NAN;
	r->gpu_pct = blank_if_infinite(r->gpu_pct);
}

/* Copies @p src into @p dst, cut to its @p size. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int summarize(const struct rows_ctx *rc, struct merge_calls *calls, struct merge_summary *s)
{
	const struct input *pre = rc->pre, *post = rc->post;
	const struct join_result *j = rc->j;
	struct columns c;

	if (columns_create(&c, j->matched) != 0)
		return -1;
	for (size_t i = 0; i < j->count; i++) {
		struct merged_row r;
		if (j->match[i] == JOIN_NONE)
			continue;
		make_row(rc, i, &r);
		const struct side_cpu_row *a = &pre->cpu.rows[i];
		merge_calls_note_row(calls, a->thread_id, a->t_entry_ns, a->dur_ns);
		/* Values as the text of the row reads back. */
		double interval_us = r.has_interval ? fmt_ns_as_us_value(r.interval_ns) : NAN;
		if (columns_add(&c, fmt_ns_as_us_value(r.target_ns), r.cpu_pct, r.gpu_us, r.gpu_pct,
		             interval_us) != 0) {
			columns_destroy(&c);
			return -1;
		}
	}
	columns_summarize(&c, s);
	columns_destroy(&c);

	s->dropped_queue_full_pre = pre->cpu.meta.dropped_queue_full;
	s->dropped_queue_full_post = post->cpu.meta.dropped_queue_full;
	s->gpu_ring_overflow_pre = pre->gpu.meta.gpu_ring_overflow;
	s->gpu_ring_overflow_post = post->gpu.meta.gpu_ring_overflow;
	s->unmatched_pre = j->unmatched_pre;
	s->unmatched_post = j->unmatched_post;
	s->has_bracket_correction = post->cpu.meta.has_bracket_correction;
	s->bracket_correction_ns = post->cpu.meta.bracket_correction_ns;
	s->has_gpu_raw = rc->has_gpu_files;
	s->has_gpu_bracket = j->gpu_bracket_frames > 0;
	if (s->has_gpu_bracket)
		s->gpu_bracket_ns = (uint64_t)llround(j->gpu_bracket_ns_sum / (double)j->gpu_bracket_frames);
	s->truncated_rows = pre->cpu.meta.truncated_rows + post->cpu.meta.truncated_rows +
	                    pre->gpu.meta.truncated_rows + post->gpu.meta.truncated_rows;
	const char *name = pre->cpu.meta.target_layer[0] ? pre->cpu.meta.target_layer
	                                                  : post->cpu.meta.target_layer;
	copy_text(s->target_layer, sizeof(s->target_layer), name);
	const char *mode = pre->gpu.meta.gpu_mode[0] ? pre->gpu.meta.gpu_mode
	                                             : post->gpu.meta.gpu_mode;
	copy_text(s->gpu_mode, sizeof(s->gpu_mode),
	          !rc->has_gpu_files ? "" : mode[0] ? mode : "unknown");
	s->gate_trips = rc->gate->trips;
	s->has_gpu_info = true;
	merge_calls_summarize(calls, s);
	return 0;
}


/* merged_write_fill_fn: the matched rows among pre rows [first, last). */
static size_t fill_rows(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	const struct rows_ctx *c = ctx;
	char *p = buf;
	size_t i = first;

	for (; i < last && (size_t)(p - buf) + MERGED_ROW_MAX <= cap; i++) {
		struct merged_row r;
		if (c->j->match[i] == JOIN_NONE)
			continue;
		make_row(c, i, &r);
		p = merged_write_format_row(p, &r);
	}
	*used = (size_t)(p - buf);
	return i;
}

static int write_output(const char *out_path, const char *functions_path,
                        const struct rows_ctx *rows, const struct merge_summary *s,
                        merge_log_fn log, void *ctx)
{
	char msg[MERGE_MSG_MAX];
	struct merged_writer o;

	if (merged_write_open(&o, out_path, msg, sizeof(msg)) != 0) {
		say(log, ctx, msg);
		return -1;
	}
	merged_write_summary(&o, s);
	merged_write_rows(&o, rows->j->count, fill_rows, (void *)rows);
	/* Written while the merged file's writer keeps SIGXFSZ blocked. */
	if (merge_calls_write(rows->calls, functions_path, s->frame_count, log, ctx) != 0) {
		merged_write_abort(&o);
		return -1;
	}
	if (merged_write_commit(&o, msg, sizeof(msg)) != 0) {
		say(log, ctx, msg);
		/* The session is not merged: leave no functions file that would
		 * stop the next try (files are never replaced). */
		if (rows->calls->present)
			unlink(functions_path);
		return -1;
	}
	return 0;
}

/* The GPU join needs both files; with one only the GPU columns stay blank. */
static int join_gpu_sides(const struct input *pre, const struct input *post, struct join_result *j,
                          merge_log_fn log, void *ctx)
{
	if (!pre->gpu_path && !post->gpu_path)
		return 0;
	if (!pre->gpu_path || !post->gpu_path) {
		sayf(log, ctx, "%s: warning: no GPU file for the %s side; GPU columns left blank",
		     pre->gpu_path ? pre->gpu_path : post->gpu_path, pre->gpu_path ? "post" : "pre");
		return 0;
	}
	return join_gpu(&pre->cpu, &pre->gpu, &post->gpu, j);
}

static int merge_sides(struct input *pre, struct input *post, struct merge_calls *calls,
                       const char *out_path, const char *functions_path,
                       struct merge_summary *summary, merge_log_fn log, void *ctx)
{
	struct join_result j;
	struct merge_gate gate = {0};
	struct merge_summary s = {0};
	int ret = -1;

	if (join_cpu(&pre->cpu, &post->cpu, &j) != 0 ||
	    join_gpu_sides(pre, post, &j, log, ctx) != 0 ||
	    merge_gate_collect(&gate, pre->gpu_path ? &pre->gpu.meta : NULL,
	                       post->gpu_path ? &post->gpu.meta : NULL) != 0) {
		sayf(log, ctx, "%s: error: out of memory joining %zu frames", pre->cpu_path,
		     pre->cpu.count);
		goto out;
	}
	if (check_matched(pre, post, &j, log, ctx) != 0)
		goto out;
	/* The GPU rows are folded into j.gpu_us: free them before the
	 * statistics allocate, to keep the peak low. */
	side_gpu_destroy(&pre->gpu);
	side_gpu_destroy(&post->gpu);

	struct rows_ctx rows = {.pre = pre, .post = post, .j = &j, .gate = &gate,
	                        .has_gpu_files = pre->gpu_path || post->gpu_path, .calls = calls};
	if (summarize(&rows, calls, &s) != 0) {
		sayf(log, ctx, "%s: error: out of memory computing statistics", pre->cpu_path);
		goto out;
	}
	if (write_output(out_path, functions_path, &rows, &s, log, ctx) != 0)
		goto out;
	if (summary)
		*summary = s;
	ret = 0;
out:
	merge_gate_destroy(&gate);
	join_result_destroy(&j);
	return ret;
}

int merge_files(const struct merge_paths *paths, const char *out_path,
                struct merge_summary *summary, merge_log_fn log, void *ctx)
{
	struct stat st;

	if (!paths || !paths->pre_csv || !paths->post_csv || !out_path) {
		say(log, ctx, "merge: error: a pre, post and output path are required");
		return -1;
	}
	/* Fail before the work; the final rename refuses to replace too. */
	if (lstat(out_path, &st) == 0) {
		sayf(log, ctx, "%s: error: already exists; not overwriting it", out_path);
		return -1;
	}

	char functions_path[MERGE_PATH_MAX];
	if (!paths->functions_csv &&
	    merge_functions_path(out_path, functions_path, sizeof(functions_path)) != 0) {
		sayf(log, ctx, "%.200s...: error: path too long", out_path);
		return -1;
	}
	struct input pre = {.name = "pre", .cpu_path = paths->pre_csv, .gpu_path = paths->gpu_pre_csv};
	struct input post = {.name = "post", .cpu_path = paths->post_csv, .gpu_path = paths->gpu_post_csv};
	struct merge_calls calls = {0};
	int ret = read_sides(&pre, &post, log, ctx);
	if (ret == 0)
		ret = check_sessions(&pre, &post, log, ctx);
	if (ret == 0)
		ret = check_clocks(&pre, &post, log, ctx);
	if (ret == 0)
		ret = merge_calls_read(&calls, paths, pre.cpu.meta.session,
		                       (int64_t)post.cpu.meta.bracket_correction_ns, log, ctx);
	if (ret == 0)
		ret = merge_sides(&pre, &post, &calls, out_path,
		                  paths->functions_csv ? paths->functions_csv : functions_path, summary,
		                  log, ctx);
	merge_calls_destroy(&calls);
	input_destroy(&pre);
	input_destroy(&post);
	return ret;
}

/* ---- default sibling paths ---- */

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Session @p n's file of @p kind and @p side, next to @p near, into @p out. */
static bool sibling(char *out, const char *near, const struct u_names_parsed *n,
                    const char *kind, const char *side)
{
	return u_names_sibling(out, MERGE_PATH_MAX, near, n, kind, side) >= 0;
}

/* As sibling(), left "" unless the file exists. */
static void existing_sibling(char *out, const char *near, const struct u_names_parsed *n,
                             const char *kind, const char *side)
{
	if (!sibling(out, near, n, kind, side) || !is_file(out))
		out[0] = '\0';
}

int merge_sibling_paths(const char *pre_csv, const char *post_csv, struct merge_siblings *out)
{
	struct u_names_parsed n;

	memset(out, 0, sizeof(*out));
	if (!pre_csv || !u_names_parse(pre_csv, &n) || !u_names_is(&n, U_NAMES_FRAMES, U_NAMES_PRE))
		return -1;
	if (!sibling(out->post_csv, pre_csv, &n, U_NAMES_FRAMES, U_NAMES_POST) ||
	    !sibling(out->merged_csv, pre_csv, &n, U_NAMES_FRAMES, NULL) ||
	    !sibling(out->functions_csv, pre_csv, &n, U_NAMES_FUNCTIONS, NULL)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	existing_sibling(out->gpu_pre_csv, pre_csv, &n, U_NAMES_GPU, U_NAMES_PRE);
	existing_sibling(out->calls_pre_csv, pre_csv, &n, U_NAMES_CALLS, U_NAMES_PRE);

	/* The post side's files live next to the post CPU file. */
	const char *post = post_csv ? post_csv : out->post_csv;
	if (u_names_parse(post, &n) && u_names_is(&n, U_NAMES_FRAMES, U_NAMES_POST)) {
		existing_sibling(out->gpu_post_csv, post, &n, U_NAMES_GPU, U_NAMES_POST);
		existing_sibling(out->calls_post_csv, post, &n, U_NAMES_CALLS, U_NAMES_POST);
	}
	return 0;
}

/* NULL for an empty path. */
static const char *optional(const char *path)
{
	return path[0] ? path : NULL;
}

void merge_paths_from_siblings(const struct merge_siblings *sib, const char *pre_csv,
                               struct merge_paths *out)
{
	*out = (struct merge_paths){
		.pre_csv = pre_csv,
		.post_csv = sib->post_csv,
		.gpu_pre_csv = optional(sib->gpu_pre_csv),
		.gpu_post_csv = optional(sib->gpu_post_csv),
		.calls_pre_csv = optional(sib->calls_pre_csv),
		.calls_post_csv = optional(sib->calls_post_csv),
		.functions_csv = optional(sib->functions_csv),
	};
}

int merge_functions_path(const char *merged_csv, char *out, size_t size)
{
	struct u_names_parsed n;
	static const char ext[] = ".csv";

	if (u_names_parse(merged_csv, &n) && u_names_is(&n, U_NAMES_FRAMES, NULL))
		return u_names_sibling(out, size, merged_csv, &n, U_NAMES_FUNCTIONS, NULL) >= 0 ? 0 : -1;
	size_t len = strlen(merged_csv);
	if (len >= sizeof(ext) - 1 && strcmp(merged_csv + len - (sizeof(ext) - 1), ext) == 0)
		len -= sizeof(ext) - 1;
	int w = snprintf(out, size, "%.*s.functions.csv", (int)len, merged_csv);
	return w >= 0 && (size_t)w < size ? 0 : -1;
}
