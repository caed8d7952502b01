/*
 * The calls files' part of the merge; see merge_calls.h.
 */
#include "merge_calls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "functions_write.h"
#include "merge_check.h"
#include "quote.h"

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

/* Rows' frame ids held in memory before the rest go to a temporary file (8 bytes each). */
#define ROW_FRAMES_MEM 65536

/* ---- the window over pre's xrEndFrame calls ---- */

static uint64_t end_hash(const void *row)
{
	const struct calls_end *e = row;

	return (e->thread_id * 0x9e3779b97f4a7c15ull) ^ (uint64_t)e->t_entry_ns;
}

static bool end_same(const void *a, const void *b)
{
	const struct calls_end *x = a, *y = b;

	return x->thread_id == y->thread_id && x->t_entry_ns == y->t_entry_ns &&
	       x->t_exit_ns == y->t_exit_ns;
}

/*
 * window_source's pull: the next batch of the sandwich's xrEndFrame calls,
 * from the shared spill as the sandwich publishes them (waiting for it),
 * else from its result.
 */
static int pull_ends(void *ctx, const void **rows, size_t *n)
{
	struct merge_calls *mc = ctx;

	*rows = mc->batch;
	if (mc->ends_shared) {
		if (spill_read_published(&mc->shared_ends, mc->ends_pulled, MERGE_CALLS_ENDS_BATCH,
		                         mc->batch, n) != 0) {
			mc->ends_errno = errno ? errno : EIO;
			return -1;
		}
		mc->ends_pulled += *n;
		return *n > 0 ? 1 : 0;
	}
	uint64_t left = mc->r.ends.count - mc->ends_pulled;
	*n = left < MERGE_CALLS_ENDS_BATCH ? (size_t)left : MERGE_CALLS_ENDS_BATCH;
	if (*n > 0 && spill_read(&mc->r.ends, mc->ends_pulled, *n, mc->batch) != 0) {
		mc->ends_errno = errno ? errno : EIO;
		return -1;
	}
	mc->ends_pulled += *n;
	return mc->ends_pulled < mc->r.ends.count ? 1 : 0;
}

/* Prepares the rows' walk. Returns 0, or -1 (out of memory; nothing kept, it may be tried again). */
static int open_walk(struct merge_calls *mc, const char *dir)
{
	/* The sandwich publishes its calls as it goes: the rows' pass
	 * follows it closely (the rows formatted early wait for that pass). */
	const struct window_source src = {.row_size = sizeof(struct calls_end), .hash = end_hash,
	                                  .same = end_same, .pull = pull_ends, .ctx = mc,
	                                  .lazy = true};

	mc->batch = malloc(MERGE_CALLS_ENDS_BATCH * sizeof(*mc->batch));
	if (mc->batch && spill_init(&mc->row_frames, sizeof(uint64_t), ROW_FRAMES_MEM, dir) == 0) {
		/* Read by the rows formatted early as it grows. */
		mc->rows_shared = mc->rows_early && mc->joining &&
		                  spill_share(&mc->row_frames) == 0;
		if (window_init(&mc->ends, &src) == 0) {
			mc->ends_open = true;
			return 0;
		}
		window_destroy(&mc->ends);
		spill_destroy(&mc->row_frames);
	}
	free(mc->batch);
	mc->batch = NULL;
	return -1;
}

void merge_calls_init(struct merge_calls *mc)
{
	memset(mc, 0, sizeof(*mc));
	mc->row_frames.fd = mc->r.frames.fd = mc->r.ends.fd = mc->shared_ends.fd = -1;
	mc->bracket_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	mc->bracket_changed = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	atomic_init(&mc->tally.placed_until_ns, INT64_MIN);
}

/* The sandwich's options: the temporary files in @p dir, the xrEndFrame calls shared if they are. */
static struct calls_join_opts join_opts(struct merge_calls *mc, const char *dir)
{
	return (struct calls_join_opts){.tmp_dir = dir,
	                                .ends = mc->ends_shared ? &mc->shared_ends : NULL,
	                                .frames_hint = mc->join_frames_hint,
	                                .progress = mc->rows_early ? &mc->progress : NULL,
	                                .tally = mc->rows_early ? &mc->tally : NULL};
}

/* calls_join_opts.bracket: waits until merge_calls_bracket() or merge_calls_stop(). */
static int wait_bracket(void *ctx, int64_t *ns)
{
	struct merge_calls *mc = ctx;

	pthread_mutex_lock(&mc->bracket_lock);
	while (mc->bracket_state == 0)
		pthread_cond_wait(&mc->bracket_changed, &mc->bracket_lock);
	int state = mc->bracket_state;
	*ns = mc->join_bracket_ns;
	pthread_mutex_unlock(&mc->bracket_lock);
	return state > 0 ? 0 : -1;
}

/* Ends the wait for the bracket: given (@p state 1, @p ns) or given up (-1), whichever comes first. */
static void end_bracket_wait(struct merge_calls *mc, int state, int64_t ns)
{
	pthread_mutex_lock(&mc->bracket_lock);
	if (mc->bracket_state == 0) {
		mc->bracket_state = state;
		mc->join_bracket_ns = ns;
		pthread_cond_broadcast(&mc->bracket_changed);
	}
	pthread_mutex_unlock(&mc->bracket_lock);
}

static void *join_main(void *arg)
{
	struct merge_calls *mc = arg;
	struct calls_join_opts opts = join_opts(mc, mc->join_dir);

	opts.bracket = wait_bracket;
	opts.bracket_ctx = mc;
	mc->join_ret = calls_join_each(mc->join_pre_csv, mc->join_post_csv, 0, &opts, &mc->r);
	return NULL;
}

void merge_calls_start(struct merge_calls *mc, const struct merge_paths *paths, const char *dir,
                       uint64_t frames_hint, bool rows_early)
{
	if (!paths->calls_pre_csv || !paths->calls_post_csv)
		return;
	mc->join_pre_csv = paths->calls_pre_csv;
	mc->join_post_csv = paths->calls_post_csv;
	mc->join_dir = dir;
	mc->join_frames_hint = frames_hint;
	mc->rows_early = rows_early;
	/* Without a shared spill, the rows' pass waits for the sandwich's end. */
	mc->ends_shared = spill_init(&mc->shared_ends, sizeof(struct calls_end), CALLS_ENDS_MEM,
	                             dir) == 0 &&
	                  spill_share(&mc->shared_ends) == 0;
	mc->joining = thread_start(&mc->thread, join_main, mc) == 0;
}

bool merge_calls_walk_early(struct merge_calls *mc, const char *dir)
{
	if (!mc->joining || !mc->ends_shared)
		return false;
	return mc->ends_open || open_walk(mc, dir) == 0;
}

void merge_calls_bracket(struct merge_calls *mc, int64_t bracket_ns)
{
	end_bracket_wait(mc, 1, bracket_ns);
}

void merge_calls_stop(struct merge_calls *mc)
{
	if (!mc->joining)
		return;
	end_bracket_wait(mc, -1, 0); /* given already, unless the merge gave up */
	thread_join(&mc->thread);
	mc->joining = false;
}

/* The sandwich's result: from the thread merge_calls_start() started, or run here. */
static int join_calls(struct merge_calls *mc, const struct merge_paths *paths, int64_t bracket_ns,
                      const char *dir)
{
	if (!mc->joining) {
		const struct calls_join_opts opts = join_opts(mc, dir);
		return calls_join_each(paths->calls_pre_csv, paths->calls_post_csv, bracket_ns,
		                       &opts, &mc->r);
	}
	merge_calls_stop(mc);
	return mc->join_ret;
}

/* The warning for @p late calls of the calls file @p path (none for 0). */
static void say_late(const char *path, uint64_t late, merge_log_fn log, void *ctx)
{
	char msg[1024], q[QUOTE_PATH_MAX];

	if (late == 0)
		return;
	snprintf(msg, sizeof(msg), "%s: warning: %llu calls came later in their file than "
	         "the sandwich waits (more than %lld ms or %d rows after a later call); "
	         "their target time may be counted in another call (calls_late)",
	         quote_path(q, path), (unsigned long long)late, (long long)(CALLS_JOIN_LAG_NS / 1000000),
	         CALLS_JOIN_LAG_ROWS);
	say(log, ctx, msg);
}

int merge_calls_read(struct merge_calls *mc, const struct merge_paths *paths,
                     const char *pre_session, int64_t bracket_ns, const char *dir,
                     merge_log_fn log, void *ctx)
{
	char msg[1024];

	if (!paths->calls_pre_csv && !paths->calls_post_csv)
		return 0;
	if (merge_one_side_warning(msg, sizeof(msg), "calls", paths->calls_pre_csv,
	                           paths->calls_post_csv, "every-function columns left out")) {
		say(log, ctx, msg);
		return 0;
	}
	int ret = join_calls(mc, paths, bracket_ns, dir);
	say_warnings(&mc->r.pre_diag, log, ctx);
	say_warnings(&mc->r.post_diag, log, ctx);
	if (ret != 0) {
		say(log, ctx, mc->r.pre_diag.failed ? mc->r.pre_diag.error : mc->r.post_diag.error);
		return -1;
	}
	if (check_sessions(mc, paths, pre_session, log, ctx) != 0)
		return -1;
	say_late(paths->calls_pre_csv, mc->r.late_calls - mc->r.late_calls_post, log, ctx);
	say_late(paths->calls_post_csv, mc->r.late_calls_post, log, ctx);
	if (!mc->ends_open && open_walk(mc, dir) != 0) {
		char q[QUOTE_PATH_MAX];
		snprintf(msg, sizeof(msg), "%s: error: out of memory",
		         quote_path(q, paths->calls_pre_csv));
		say(log, ctx, msg);
		return -1;
	}
	mc->present = true;
	return 0;
}

int merge_calls_next_row(struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                         int64_t dur_ns)
{
	if (!mc->ends_open)
		return 0;
	const struct calls_end key = {.thread_id = thread_id, .t_entry_ns = t_entry_ns,
	                              .t_exit_ns = t_entry_ns + dur_ns};
	const void *found;
	uint64_t f = CALLS_NO_FRAME;
	if (window_take(&mc->ends, &key, &found) != WINDOW_NONE)
		f = ((const struct calls_end *)found)->frame_id;
	else if (mc->ends.err) {
		errno = mc->ends_errno ? mc->ends_errno : EIO;
		return -1;
	}
	if (f == CALLS_NO_FRAME) {
		mc->rows_without_calls++;
	} else {
		/* An xrEndFrame's frame has that call at least (the sandwich
		 * finalizes every pre call: times stay below 2^61 ns), so the
		 * frames marked here, counted once, are all frames with calls:
		 * those with calls less these are the unmapped ones. */
		int first = calls_frames_mark_used(&mc->r.frames, f);
		if (first < 0) {
			errno = ENOMEM;
			return -1;
		}
		mc->frames_used += (uint64_t)first;
	}
	uint64_t *kept = spill_append(&mc->row_frames);
	if (!kept) {
		errno = mc->row_frames.error ? mc->row_frames.error : ENOMEM;
		return -1;
	}
	*kept = f;
	return 0;
}

/* The frames merge_calls_rows() reads at once: its rows' and the ones before them. */
#define NEAR_FRAMES (2 * MERGE_CALLS_ROWS_MAX + 2)

/*
 * Reads frames [first, first + n): calls_frames_read_final()'s way, 1 when
 * read, 0 when not final yet, -1 when not readable.
 */
typedef int frames_read_fn(const struct calls_frames *s, uint64_t first, size_t n,
                           struct calls_frame *out);

/* calls_frames_read() as a frames_read_fn, once the sandwich is done. */
static int read_done(const struct calls_frames *s, uint64_t first, size_t n,
                     struct calls_frame *out)
{
	return calls_frames_read(s, first, n, out) == 0 ? 1 : -1;
}

/*
 * The frames row f's columns need (f and f - 1) from @p near, which holds
 * frames [@p lo, @p lo + @p span) when @p span > 0, else read alone by
 * @p read (its result).
 */
static int frames_of(const struct merge_calls *mc, frames_read_fn *read, uint64_t f,
                     const struct calls_frame *near, uint64_t lo, size_t span,
                     struct calls_frame two[2])
{
	if (f == 0) {
		memset(&two[0], 0, sizeof(two[0])); /* no frame before the first */
		return read(&mc->r.frames, 0, 1, &two[1]);
	}
	if (span > 0 && f - 1 >= lo && f < lo + span) {
		two[0] = near[f - 1 - lo];
		two[1] = near[f - lo];
		return 1;
	}
	return read(&mc->r.frames, f - 1, 2, two);
}

/*
 * The columns of @p n rows of frames @p ids into @p cols (see
 * merge_calls_rows()), the frames read by @p read. Returns its result: 1
 * when done.
 */
static int cells_of(const struct merge_calls *mc, frames_read_fn *read, const uint64_t *ids,
                    size_t n, const int64_t *end_entry, const int64_t *end_exit, int64_t *cols)
{
	struct calls_frame near[NEAR_FRAMES];

	/* The rows' frames are near each other, usually: read them at once. */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == CALLS_NO_FRAME)
			continue;
		lo = ids[i] < lo ? ids[i] : lo;
		hi = ids[i] > hi ? ids[i] : hi;
	}
	if (lo == UINT64_MAX)
		return 1;
	lo = lo > 0 ? lo - 1 : 0;
	size_t span = hi - lo + 1 <= NEAR_FRAMES ? (size_t)(hi - lo + 1) : 0;
	int ret = span > 0 ? read(&mc->r.frames, lo, span, near) : 1;
	for (size_t i = 0; ret == 1 && i < n; i++) {
		struct calls_frame two[2];
		if (ids[i] == CALLS_NO_FRAME)
			continue;
		ret = frames_of(mc, read, ids[i], near, lo, span, two);
		/* After a frame is read: the sandwich set the phases before it
		 * published one (calls_result.phases_recorded). */
		if (ret == 1)
			calls_columns_of(&two[1], &two[0], mc->r.phases_recorded, end_entry[i],
			                 end_exit[i], &cols[i * CALLS_COLS]);
	}
	return ret;
}

/* Every cell of @p n rows blank. */
static void blank_cells(int64_t *cols, size_t n)
{
	_Static_assert(CALLS_COLS == MERGED_CALLS_COLUMNS, "one value per appended column");
	_Static_assert(CALLS_BLANK == INT64_MIN, "blank cells");
	for (size_t i = 0; i < n * CALLS_COLS; i++)
		cols[i] = CALLS_BLANK;
}

int merge_calls_rows(const struct merge_calls *mc, uint64_t first, size_t n,
                     const int64_t *end_entry, const int64_t *end_exit, int64_t *cols)
{
	uint64_t ids[MERGE_CALLS_ROWS_MAX];

	blank_cells(cols, n);
	if (!mc->present)
		return 0;
	if (n > MERGE_CALLS_ROWS_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (spill_read(&mc->row_frames, first, n, ids) != 0)
		return -1;
	if (cells_of(mc, read_done, ids, n, end_entry, end_exit, cols) != 1)
		return -1;
	return 0;
}

int merge_calls_rows_final(const struct merge_calls *mc, uint64_t first, size_t n,
                           const int64_t *end_entry, const int64_t *end_exit, int64_t *cols)
{
	uint64_t ids[MERGE_CALLS_ROWS_MAX];
	size_t got;

	blank_cells(cols, n);
	if (!mc->rows_shared || n > MERGE_CALLS_ROWS_MAX)
		return -1;
	/* Waits for the rows' pass; it ends (publishes its end) whatever happens. */
	for (size_t have = 0; have < n; have += got)
		if (spill_read_published(&mc->row_frames, first + have, n - have, ids + have,
		                         &got) != 0 || got == 0)
			return -1;
	return cells_of(mc, calls_frames_read_final, ids, n, end_entry, end_exit, cols);
}

void merge_calls_rows_publish(struct merge_calls *mc, bool end)
{
	if (mc->rows_shared)
		spill_publish(&mc->row_frames, end);
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
	s->calls_late = r->late_calls;
	s->truncated_rows += r->pre_meta.truncated_rows + r->post_meta.truncated_rows;
	s->calls_frames_unmapped = r->frames_with_calls - mc->frames_used;
	s->phases_recorded = r->phases_recorded;
}

/* The share of a session passed below which its counts so far are not scaled to a guess. */
#define GUESS_MIN_SHARE 0.1

/* Count @p c so far, @p share of the session passed: the whole session's, about. */
static uint64_t scale_count(const _Atomic uint64_t *c, double share)
{
	return (uint64_t)((double)atomic_load_explicit(c, memory_order_relaxed) / share + 0.5);
}

bool merge_calls_guess(const struct merge_calls *mc, int64_t first_ns, int64_t last_ns,
                       struct merge_summary *s)
{
	const struct calls_join_tally *t = &mc->tally;
	int64_t at = atomic_load_explicit(&t->placed_until_ns, memory_order_relaxed);

	if (at == INT64_MIN || last_ns <= first_ns || at <= first_ns)
		return false;
	double share = at >= last_ns ? 1.0 : (double)(at - first_ns) / (double)(last_ns - first_ns);
	if (share < GUESS_MIN_SHARE)
		return false;
	s->has_calls = true;
	s->calls_pre = scale_count(&t->pre_calls, share);
	s->calls_post = scale_count(&t->post_calls, share);
	s->self_answered_calls = scale_count(&t->self_answered_calls, share);
	s->induced_calls = scale_count(&t->induced_calls, share);
	s->own_thread_calls = scale_count(&t->own_thread_calls, share);
	s->calls_late = scale_count(&t->late_calls, share);
	s->rows_without_calls = 0;
	s->calls_dropped_queue_full_pre = 0;
	s->calls_dropped_queue_full_post = 0;
	s->calls_frames_unmapped = 0;
	s->phases_recorded = atomic_load_explicit(&t->phases_recorded, memory_order_relaxed);
	return true;
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
	merge_calls_stop(mc);
	if (mc->ends_open)
		window_destroy(&mc->ends);
	free(mc->batch);
	spill_destroy(&mc->row_frames);
	spill_destroy(&mc->shared_ends);
	calls_result_destroy(&mc->r);
	merge_calls_init(mc);
}
