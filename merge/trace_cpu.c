/*
 * `xrlm trace`'s CPU passes: the window, the sides' calls, the target's
 * slices, the frame markers and the user's marks. With calls files the
 * target's exclusive time per call is the merge's own (calls_join.h, one
 * rule for both); a session with frames files only is paired here
 * (trace_target.h). See cmd_trace.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "calls_join.h"
#include "calls_read.h"
#include "merge_check.h"
#include "trace_job.h"

int trace_report_read(int rc, const struct csvr_diag *d)
{
	for (int i = 0; i < d->warning_count; i++)
		fprintf(stderr, "xrlm: %s\n", d->warnings[i]);
	if (rc != 0)
		fprintf(stderr, "xrlm: %s\n", d->error);
	return rc;
}

/* The session check of trace_read_done(); also for a meta the caller frees. */
static int same_session(struct trace_job *j, const char *path, const struct side_meta *meta)
{
	char msg[2 * MERGE_PATH_MAX + 256];

	if (!j->ref_path[0]) {
		snprintf(j->ref_path, sizeof(j->ref_path), "%s", path);
		snprintf(j->ref_session, sizeof(j->ref_session), "%s", meta->session);
		return 0;
	}
	const struct merge_check_file ref = {j->ref_path, j->ref_session};
	const struct merge_check_file other = {path, meta->session};
	if (merge_check_same_session(&ref, &other, msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "xrlm: %s\n", msg);
	return -1;
}

int trace_read_done(struct trace_job *j, int rc, const struct csvr_diag *d, const char *path,
                    struct side_meta *meta)
{
	if (trace_report_read(rc, d) == 0)
		rc = same_session(j, path, meta);
	side_meta_destroy(meta);
	return rc != 0 ? -1 : 0;
}

/* A calls file's row as trace_call. */
static struct trace_call from_calls_row(const struct calls_row *r)
{
	return (struct trace_call){r->fn, r->thread_id, r->t_entry_ns, r->t_exit_ns,
	                           (int64_t)r->frame_id, 0, r->result};
}

/*
 * Window pass: the first call's time, the frame bounds' times, and the
 * session's span (for the message about a window that holds nothing).
 */
static int window_call(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	(void)msg;
	(void)msg_size;

	if (!j->have_first) {
		j->have_first = true;
		j->first_ns = c->t_entry;
		j->last_ns = c->t_exit;
		j->first_frame_id = j->last_frame_id = c->frame_id;
	}
	if (c->t_exit > j->last_ns)
		j->last_ns = c->t_exit;
	if (c->frame_id < j->first_frame_id)
		j->first_frame_id = c->frame_id;
	if (c->frame_id > j->last_frame_id)
		j->last_frame_id = c->frame_id;
	if (j->from.frame && c->frame_id >= j->from.frame_id && c->t_entry < j->from_ns)
		j->from_ns = c->t_entry;
	if (j->to.frame && c->frame_id <= j->to.frame_id && c->t_exit > j->to_ns)
		j->to_ns = c->t_exit;
	return 0;
}

static int window_row(void *ctx, const struct calls_row *r, char *msg, size_t msg_size)
{
	struct trace_call c = from_calls_row(r);
	return window_call(ctx, &c, msg, msg_size);
}

int trace_cpu_window(struct trace_job *j)
{
	struct csvr_diag d = {0};
	struct side_meta meta;
	int rc;

	j->from_ns = j->from.frame ? INT64_MAX : INT64_MIN;
	j->to_ns = j->to.frame ? INT64_MIN : INT64_MAX;
	if (!j->from.set && !j->to.set)
		return 0;
	if (j->calls)
		rc = calls_read(j->cpu[0], U_NAMES_PRE, &meta, &d, NULL, window_row, j);
	else
		rc = trace_read_frames(j->cpu[0], U_NAMES_PRE, &meta, &d, window_call, NULL, j);
	if (trace_read_done(j, rc, &d, j->cpu[0], &meta) != 0)
		return -1;
	if (j->from.set && !j->from.frame)
		j->from_ns = j->first_ns + (int64_t)(j->from.seconds * 1e9);
	if (j->to.set && !j->to.frame)
		j->to_ns = j->first_ns + (int64_t)(j->to.seconds * 1e9);
	return 0;
}

/* A call's slice on its side's track of its thread. */
static void call_slice(struct trace_job *j, int pid, const struct trace_call *c)
{
	char args[128];

	if (j->calls)
		snprintf(args, sizeof(args), "\"frame_id\":%" PRId64 ",\"result\":%" PRId64,
		         c->frame_id, c->result);
	else
		snprintf(args, sizeof(args), "\"frame_id\":%" PRId64 ",\"display_time\":%" PRId64,
		         c->frame_id, c->display_time);
	j->slices += trace_out_slice(&j->out, pid, c->thread_id, c->fn, c->t_entry,
	                             c->t_exit - c->t_entry, args);
}

/* The app's frame markers, from pre's frame-loop calls (entry and exit). */
static void frame_markers(struct trace_job *j, const struct trace_call *c)
{
	static const char *const names[3][3] = {
		{"xrWaitFrame", "wait_begin", "wait_end"},
		{"xrBeginFrame", "begin_begin", "begin_end"},
		{"xrEndFrame", "end_begin", "end_end"},
	};
	char args[64];

	for (int i = 0; i < 3; i++) {
		if (strcmp(c->fn, names[i][0]) != 0)
			continue;
		snprintf(args, sizeof(args), "\"frame_id\":%" PRId64, c->frame_id);
		trace_out_instant(&j->out, TRACE_PID_PRE, c->thread_id, names[i][1], c->t_entry, args);
		trace_out_instant(&j->out, TRACE_PID_PRE, c->thread_id, names[i][2], c->t_exit, args);
	}
}

/*
 * One pre call's slice on the target's track of its thread. The target_us
 * counter is not this call's exclusive time but the merged file's figure
 * (trace_rows_run()).
 */
static void target_slice(struct trace_job *j, const struct trace_call *c, int64_t below_ns,
                         int64_t target_ns)
{
	char args[160];

	snprintf(args, sizeof(args), "\"target_us\":%.3f,\"below_us\":%.3f,\"frame_id\":%" PRId64,
	         (double)target_ns / 1000.0, (double)below_ns / 1000.0, c->frame_id);
	j->target_slices += trace_out_slice(&j->out, TRACE_PID_TARGET, c->thread_id, c->fn,
	                                    c->t_entry, c->t_exit - c->t_entry, args);
}

/* A user's mark: a global instant event named by its text. */
static void mark(void *ctx, int64_t t_ns, const char *text)
{
	struct trace_job *j = ctx;

	j->marks += trace_out_mark(&j->out, text, t_ns);
}

static void keep_names(struct trace_job *j, int side, const struct side_meta *m)
{
	snprintf(j->layer[side], sizeof(j->layer[side]), "%s", m->layer);
	if (side == 0)
		snprintf(j->target_layer, sizeof(j->target_layer), "%s", m->target_layer);
}

static int64_t correction_of(const struct side_meta *post)
{
	return post->has_bracket_correction ? (int64_t)post->bracket_correction_ns : 0;
}

/* --- calls files --- */

static int post_calls_row(void *ctx, const struct calls_row *r, char *msg, size_t msg_size)
{
	struct trace_call c = from_calls_row(r);
	(void)msg;
	(void)msg_size;

	call_slice(ctx, TRACE_PID_POST, &c);
	return 0;
}

/* calls_join_call_fn: a pre call with the target's exclusive time in it. */
static void joined_call(void *ctx, const struct calls_join_call *p)
{
	struct trace_job *j = ctx;
	struct trace_call c = {p->fn, p->thread_id, p->t_entry_ns, p->t_exit_ns,
	                       (int64_t)p->frame_id, 0, p->result};

	call_slice(j, TRACE_PID_PRE, &c);
	frame_markers(j, &c);
	target_slice(j, &c, p->post_ns, p->excl_ns);
}

static int run_calls(struct trace_job *j)
{
	struct csvr_diag d = {0};
	struct side_meta meta;
	struct calls_result r;

	int rc = calls_read(j->cpu[1], U_NAMES_POST, &meta, &d, NULL, post_calls_row, j);
	keep_names(j, 1, &meta);
	int64_t correction = correction_of(&meta);
	if (trace_read_done(j, rc, &d, j->cpu[1], &meta) != 0)
		return -1;
	const struct calls_join_opts opts = {.each = joined_call, .each_ctx = j};
	rc = calls_join_each(j->cpu[0], j->cpu[1], correction, &opts, &r);
	keep_names(j, 0, &r.pre_meta);
	trace_report_read(0, &r.pre_diag);
	if (rc != 0)
		fprintf(stderr, "xrlm: %s\n", r.pre_diag.failed ? r.pre_diag.error : r.post_diag.error);
	else if (same_session(j, j->cpu[0], &r.pre_meta) != 0)
		rc = -1;
	calls_result_destroy(&r);
	if (rc != 0 || !j->frames_pre[0])
		return rc;
	/* The marks are in pre's frames file. */
	rc = trace_read_frames(j->frames_pre, U_NAMES_PRE, &meta, &d, NULL, mark, j);
	return trace_read_done(j, rc, &d, j->frames_pre, &meta);
}

/* --- frames files only --- */

static int post_frame(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	struct trace_spool_rec r = {{(int64_t)c->thread_id, c->t_entry, c->t_exit, 0}};
	(void)msg;
	(void)msg_size;

	call_slice(j, TRACE_PID_POST, c);
	trace_spool_add(&j->spool, &r);
	return 0;
}

static int pre_frame(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	(void)msg;
	(void)msg_size;

	call_slice(j, TRACE_PID_PRE, c);
	frame_markers(j, c);
	trace_target_pre(&j->target, c);
	return 0;
}

static void paired_frame(void *ctx, const struct trace_target_slice *s)
{
	struct trace_call c = {s->fn, s->thread_id, s->t_entry, s->t_entry + s->dur_ns,
	                       s->frame_id, 0, 0};
	target_slice(ctx, &c, s->below_ns, s->target_ns);
}

static int run_frames(struct trace_job *j)
{
	struct csvr_diag d = {0};
	struct side_meta meta;

	if (trace_spool_create(&j->spool) != 0) {
		fprintf(stderr, "xrlm: cannot create a temporary file: %s\n", strerror(errno));
		return -1;
	}
	int rc = trace_read_frames(j->cpu[1], U_NAMES_POST, &meta, &d, post_frame, NULL, j);
	keep_names(j, 1, &meta);
	int64_t correction = correction_of(&meta);
	if (trace_read_done(j, rc, &d, j->cpu[1], &meta) != 0 ||
	    trace_spool_rewind(&j->spool) != 0) {
		trace_spool_destroy(&j->spool);
		return -1;
	}
	trace_target_init(&j->target, &j->spool, correction, paired_frame, j);
	rc = trace_read_frames(j->cpu[0], U_NAMES_PRE, &meta, &d, pre_frame, mark, j);
	keep_names(j, 0, &meta);
	trace_target_finish(&j->target);
	trace_spool_destroy(&j->spool);
	return trace_read_done(j, rc, &d, j->cpu[0], &meta);
}

int trace_cpu_run(struct trace_job *j)
{
	int rc = j->calls ? run_calls(j) : run_frames(j);

	return rc != 0 ? rc : trace_rows_run(j);
}
