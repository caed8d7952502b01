/*
 * The calls files' part of the merge; see merge_calls.h.
 */
#include "merge_calls.h"

#include <stdio.h>
#include <string.h>

#include "functions_write.h"
#include "merge_check.h"

static void say(merge_log_fn log, void *ctx, const char *message)
{
	if (log)
		log(ctx, message);
}

static void say_warnings(const struct csvr_diag *d, merge_log_fn log, void *ctx)
{
	for (int i = 0; i < d->warning_count; i++)
		say(log, ctx, d->warnings[i]);
}

/* Both calls files must be of the pre frames file's session (merge_check.h). */
static int check_sessions(const struct merge_calls *mc, const struct merge_paths *paths,
                          const char *pre_session, merge_log_fn log, void *ctx)
{
	char msg[1024];
	const struct merge_check_file ref = {paths->pre_csv, pre_session};
	const struct merge_check_file files[] = {
		{paths->calls_pre_csv, mc->r.pre_meta.session},
		{paths->calls_post_csv, mc->r.post_meta.session},
	};

	for (size_t i = 0; i < 2; i++) {
		if (!merge_check_same_session(&ref, &files[i], msg, sizeof(msg))) {
			say(log, ctx, msg);
			return -1;
		}
	}
	return 0;
}

int merge_calls_read(struct merge_calls *mc, const struct merge_paths *paths,
                     const char *pre_session, int64_t bracket_ns, merge_log_fn log, void *ctx)
{
	char msg[1024];

	memset(mc, 0, sizeof(*mc));
	if (!paths->calls_pre_csv && !paths->calls_post_csv)
		return 0;
	if (!paths->calls_pre_csv || !paths->calls_post_csv) {
		snprintf(msg, sizeof(msg), "%s: warning: no calls file for the %s side; "
		         "every-function columns left out",
		         paths->calls_pre_csv ? paths->calls_pre_csv : paths->calls_post_csv,
		         paths->calls_pre_csv ? "post" : "pre");
		say(log, ctx, msg);
		return 0;
	}
	int ret = calls_join(paths->calls_pre_csv, paths->calls_post_csv, bracket_ns, &mc->r);
	say_warnings(&mc->r.pre_diag, log, ctx);
	say_warnings(&mc->r.post_diag, log, ctx);
	if (ret != 0) {
		say(log, ctx, mc->r.pre_diag.failed ? mc->r.pre_diag.error : mc->r.post_diag.error);
		return -1;
	}
	if (check_sessions(mc, paths, pre_session, log, ctx) != 0)
		return -1;
	mc->present = true;
	return 0;
}

void merge_calls_row(const struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                     int64_t dur_ns, struct merged_row *r)
{
	_Static_assert(CALLS_COLS == MERGED_CALLS_COLUMNS, "one value per appended column");
	_Static_assert(CALLS_BLANK == INT64_MIN, "blank cells");

	r->has_calls = mc->present;
	if (!mc->present)
		return;
	int64_t t_exit_ns = t_entry_ns + dur_ns;
	calls_frame_columns(&mc->r, calls_find_frame(&mc->r, thread_id, t_entry_ns, t_exit_ns),
	                    t_entry_ns, t_exit_ns, r->calls_ns);
}

void merge_calls_note_row(struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                          int64_t dur_ns)
{
	if (!mc->present)
		return;
	uint32_t f = calls_find_frame(&mc->r, thread_id, t_entry_ns, t_entry_ns + dur_ns);
	if (f == CALLS_NONE)
		mc->rows_without_calls++;
	else
		mc->r.frames[f].used = true;
}

void merge_calls_summarize(const struct merge_calls *mc, struct merge_summary *s)
{
	const struct calls_result *r = &mc->r;

	s->has_calls = mc->present;
	if (!mc->present)
		return;
	s->calls_pre = r->pre_calls;
	s->calls_post = r->post_calls;
	s->self_answered_calls = r->self_answered_calls;
	s->induced_calls = r->induced_calls;
	s->own_thread_calls = r->own_thread_calls;
	s->rows_without_calls = mc->rows_without_calls;
	s->calls_dropped_queue_full_pre = r->pre_meta.dropped_queue_full;
	s->calls_dropped_queue_full_post = r->post_meta.dropped_queue_full;
	s->truncated_rows += r->pre_meta.truncated_rows + r->post_meta.truncated_rows;
	s->calls_frames_unmapped = 0;
	for (size_t i = 0; i < r->frame_count; i++)
		s->calls_frames_unmapped += (r->frames[i].has & CALLS_HAS_ANY) && !r->frames[i].used;
}

int merge_calls_write(const struct merge_calls *mc, const char *path, uint64_t frame_count,
                      merge_log_fn log, void *ctx)
{
	char msg[1024];

	if (!mc->present)
		return 0;
	if (functions_write(path, &mc->r, frame_count, msg, sizeof(msg)) != 0) {
		say(log, ctx, msg);
		return -1;
	}
	return 0;
}

void merge_calls_destroy(struct merge_calls *mc)
{
	calls_result_destroy(&mc->r);
	memset(mc, 0, sizeof(*mc));
}
