/*
 * The merge of one session's per-side files; see merge.h.
 *
 * Data path, in bounded memory (merge/README.md "Memory"): the four files'
 * metadata first (the checks), then pre's rows joined as they are read
 * with windows over post's and the GPU files (read ahead on threads), each
 * matched frame a record in a spill; a pass over the records for the
 * statistics (values spilled, percentiles by radix selection); then the
 * summary and the rows formatted from the records by a buffered writer.
 */
#include "merge.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "side_cpu.h"
#include "side_gpu.h"
#include "join.h"
#include "merge_calls.h"
#include "merge_check.h"
#include "merge_early.h"
#include "merge_gate.h"
#include "merge_rows.h"
#include "merged_write.h"
#include "out_file.h"
#include "prefetch.h"
#include "quote.h"
#include "spill.h"
#include "thread.h"

#define MERGE_MSG_MAX 1024

/* Records held in memory before the rest goes to a temporary file (64 bytes each). */
#define MERGE_RECS_MEM (1u << 17)
/* Above this size of pre's CPU file (~1 300 frames), the files are read on threads. */
#define MERGE_THREADS_BYTES (64u << 10)

/*
 * One side's files, read a chunk at a time. Each file's reader thread
 * writes its file's row count on every row and reads its stream's
 * context: the CPU file's part and the GPU file's each start a cache line
 * of their own, and so does what follows them, so that no line holds both
 * readers' fields wherever the struct lands. Side by side, the GPU
 * reader's count and the CPU reader's context shared a line whenever
 * the struct began 48 bytes into one, which made every reader ~25 %
 * slower (bench/RESULTS.md, thirtieth session).
 */
struct input {
	const char *name; /* "pre" or "post" */
	const char *cpu_path;
	const char *gpu_path; /* NULL: none */
	struct side_cpu_file cpu;
	struct side_stream cpu_stream;
	_Alignas(64) struct side_gpu_file gpu;
	struct side_stream gpu_stream;
	_Alignas(64) bool cpu_open, gpu_open; /* the streams exist (to close) */
	uint64_t cpu_rows;       /* pre: rows joined; post: the window's count */
	uint64_t gpu_rows;
};

static void input_destroy(struct input *s)
{
	if (s->cpu_open)
		side_file_stream_close(&s->cpu_stream);
	if (s->gpu_open)
		side_file_stream_close(&s->gpu_stream);
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

/* One file's stream to open (open_files()), on a thread of its own or not. */
struct open_job {
	struct input *side;
	bool gpu; /* the side's GPU file, else its CPU file */
	int ret;
	bool threaded;
	struct thread thread;
};

/* Opens @p j's stream: its metadata, before the rows, is read. */
static void *open_main(void *arg)
{
	struct open_job *j = arg;
	struct input *s = j->side;

	if (j->gpu) {
		j->ret = side_gpu_stream_open(s->gpu_path, s->name, &s->gpu, &s->gpu_stream);
		s->gpu_open = true;
	} else {
		j->ret = side_cpu_stream_open(s->cpu_path, s->name, &s->cpu, &s->cpu_stream);
		s->cpu_open = true;
	}
	return NULL;
}

/*
 * Opens both sides' streams, with @p threads each file on a thread of its
 * own: a file's opening reads its header into fresh pages (50-110 us on
 * the device's VMs), and the four one after the other held the join's
 * start back by ~0.3 ms. Returns 0, or -1 when one failed (its message
 * waits in its diag, said in the files' order by finish_reading()).
 */
static int open_files(struct input *pre, struct input *post, bool threads)
{
	struct open_job job[4];
	int n = 0, ret = 0;

	job[n++] = (struct open_job){.side = pre};
	if (pre->gpu_path)
		job[n++] = (struct open_job){.side = pre, .gpu = true};
	job[n++] = (struct open_job){.side = post};
	if (post->gpu_path)
		job[n++] = (struct open_job){.side = post, .gpu = true};
	for (int i = 1; i < n; i++)
		job[i].threaded = threads && thread_start(&job[i].thread, open_main, &job[i]) == 0;
	for (int i = 0; i < n; i++)
		if (!job[i].threaded)
			open_main(&job[i]);
	for (int i = 0; i < n; i++) {
		if (job[i].threaded)
			thread_join(&job[i].thread);
		if (job[i].ret != 0)
			ret = -1;
	}
	return ret;
}

/* Reads the rest of a stream, dropping its rows: its messages are then complete. */
static void drain(struct side_stream *st, bool open, size_t *count)
{
	while (open && side_file_stream_step(st) > 0)
		*count = 0;
	*count = 0;
}

/*
 * After a failure: reads what is left of every file, then says every
 * warning and the first error, in the fixed order of the files (pre CPU,
 * pre GPU, post CPU, post GPU), as if each had been read whole. Returns
 * true when one of them had an error (said).
 */
static bool finish_reading(struct input *pre, struct input *post, merge_log_fn log, void *ctx)
{
	drain(&pre->cpu_stream, pre->cpu_open, &pre->cpu.count);
	drain(&pre->gpu_stream, pre->gpu_open, &pre->gpu.count);
	drain(&post->cpu_stream, post->cpu_open, &post->cpu.count);
	drain(&post->gpu_stream, post->gpu_open, &post->gpu.count);

	const struct csvr_diag *order[] = {&pre->cpu.diag, &pre->gpu.diag, &post->cpu.diag,
	                                   &post->gpu.diag};
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		say_warnings(order[i], log, ctx);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i]->failed) {
			say(log, ctx, order[i]->error);
			return true;
		}
	}
	return false;
}

/* Both sides must bracket with the same clock for the subtraction to mean anything. */
static int check_clocks(const struct input *pre, const struct input *post, char *msg, size_t size)
{
	const char *a = pre->cpu.meta.clock, *b = post->cpu.meta.clock;
	char qa[QUOTE_PATH_MAX], qb[QUOTE_PATH_MAX];

	if (a[0] && b[0] && strcmp(a, b) != 0) {
		snprintf(msg, size, "%s: error: clock=%s but %s has clock=%s",
		         quote_path(qb, post->cpu_path), b, quote_path(qa, pre->cpu_path), a);
		return -1;
	}
	return 0;
}

/* Every file must be of the pre CPU file's session (see merge_check.h). */
static int check_sessions(const struct input *pre, const struct input *post, char *msg, size_t size)
{
	const struct merge_check_file ref = {pre->cpu_path, pre->cpu.meta.session};
	const struct merge_check_file others[] = {
		{post->cpu_path, post->cpu.meta.session},
		{pre->gpu_path, pre->gpu.meta.session},
		{post->gpu_path, post->gpu.meta.session},
	};

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (others[i].path && !merge_check_same_session(&ref, &others[i], msg, size))
			return -1;
	return 0;
}

/*
 * A merge that matches nothing is an error, not an empty result: files of
 * different sessions that nothing else told apart, or an empty session.
 */
static int check_matched(const struct input *pre, const struct input *post,
                         const struct join *j, merge_log_fn log, void *ctx)
{
	char q[3][QUOTE_PATH_MAX];

	if (j->matched == 0) {
		if (pre->cpu_rows == 0 && post->cpu_rows == 0)
			sayf(log, ctx, "%s: error: no frame recorded on either side; nothing to merge",
			     quote_path(q[0], pre->cpu_path));
		else
			sayf(log, ctx, "%s: error: none of its %llu frames is in %s (%llu frames): "
			     "not the same session?", quote_path(q[0], pre->cpu_path),
			     (unsigned long long)pre->cpu_rows, quote_path(q[1], post->cpu_path),
			     (unsigned long long)post->cpu_rows);
		return -1;
	}
	if (j->has_gpu && j->gpu_matched == 0 && pre->gpu_rows > 0 && post->gpu_rows > 0) {
		sayf(log, ctx, "%s: error: none of its rows matches both a frame of %s and a row of "
		     "%s: not the same session?", quote_path(q[0], pre->gpu_path),
		     quote_path(q[1], pre->cpu_path), quote_path(q[2], post->gpu_path));
		return -1;
	}
	return 0;
}

/* Copies @p src into @p dst, cut to its @p size. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * With calls files: each record's frame in the calls files, found in order
 * and kept for the writers, which compute its every-function cells.
 * Returns 0 or an errno.
 */
static int find_row_frames(const struct spill *recs, struct merge_calls *calls)
{
	struct join_rec block[MERGE_RECS_BLOCK];
	size_t n;

	for (uint64_t first = 0; calls->ends_open; first += n) {
		if (merge_rows_read(recs, false, first, block, &n) != 0)
			return errno ? errno : EIO;
		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			if (merge_calls_next_row(calls, block[i].thread_id, block[i].t_entry_ns,
			                         block[i].pre_ns) != 0)
				return errno ? errno : EIO;
		merge_calls_rows_publish(calls, false);
	}
	return 0;
}

/*
 * find_row_frames() on a thread: from the end of the frames join, beside
 * the sandwich, which it waits for as it needs its xrEndFrame calls
 * (merge_calls_walk_early()); else beside the statistics. It releases the
 * rows to their writers when done, if @p rows was known when it started.
 */
struct frames_job {
	const struct spill *recs;
	struct merge_calls *calls;
	struct merged_rows *rows; /* NULL: released by summarize() */
	struct thread thread;
	bool threaded;
	int err;
};

static void *frames_main(void *arg)
{
	struct frames_job *j = arg;

	j->err = find_row_frames(j->recs, j->calls);
	merge_calls_rows_publish(j->calls, true); /* whatever happened: no reader waits for ever */
	if (j->rows)
		merged_write_rows_ready(j->rows, (size_t)j->recs->count);
	return NULL;
}

static void frames_start(struct frames_job *j)
{
	j->threaded = thread_start(&j->thread, frames_main, j) == 0;
}

static void frames_join(struct frames_job *j)
{
	if (j->threaded)
		thread_join(&j->thread);
	j->threaded = false;
}

/*
 * The statistics of the records' columns, read back from the records by up
 * to workers_max() threads (a group of columns each:
 * columns_fill_summarize()), on a thread of their own (stats_start()):
 * from the join's start, as it publishes the records, without calls
 * files; with them, while the sandwich finishes; else where stats_wait()
 * is.
 */
struct stats_job {
	const struct merge_rows_ctx *rc;
	const char *dir;
	struct merge_summary *s; /* its statistics only, until stats_wait() */
	uint64_t rows_hint;      /* the records expected, while the join publishes them */
	struct thread thread;
	bool threaded, done;
	int err;
	/* NULL, or the rows to write ahead once the statistics are done (struct ahead_job). */
	struct ahead_job *_Atomic ahead;
	struct merge_early *ahead_early; /* the same job's rows: stopped before the join */
};

/*
 * The rows formatted early (merge_early.h), written to the merged file
 * while the sandwich still runs, after the room the summary will take:
 * its length guessed once the statistics are done, from them, the files'
 * metadata, the join and the sandwich's counts so far. The rows' one
 * writev() after the summary was 0.3-0.5 ms of a 10^4-frame merge's path
 * with calls files (bench/RESULTS.md, twenty-ninth session). When the
 * guess is wrong the rows are written again in their turn: the file's
 * bytes never depend on it.
 */
struct ahead_job {
	struct merge_early *early;
	int fd;
	struct stats_job *stats;
	const struct input *pre, *post;
	const struct join *j;
	struct merge_calls *calls;
	int64_t first_ns, last_ns; /* the first and last records' xrEndFrame calls */
};

static void stats_run(struct stats_job *j)
{
	struct columns c;

	if (columns_create_stream(&c, j->dir) != 0) {
		j->err = ENOMEM;
	} else {
		/* While the join goes on, the count decides the threads only. */
		c.rows = j->rc->recs_shared ? j->rows_hint : j->rc->recs->count;
		if (columns_fill_summarize(&c, merge_rows_columns, (void *)j->rc, j->s) != 0)
			j->err = c.error ? c.error : ENOMEM;
		else if (j->rc->recs_shared)
			j->s->frame_count = j->rc->recs->count; /* every record was read: the join ended */
		columns_destroy(&c);
	}
	j->done = true;
}

static void summary_of_inputs(struct merge_summary *s, const struct merge_rows_ctx *rc,
                              const struct input *pre, const struct input *post,
                              const struct join *j);

/* merge_early_write()'s offset: the summary's length, guessed (struct ahead_job). */
static int guess_summary_bytes(void *ctx, off_t *at)
{
	const struct ahead_job *a = ctx;
	struct merge_summary g = *a->stats->s; /* the statistics */

	summary_of_inputs(&g, a->stats->rc, a->pre, a->post, a->j);
	if (!merge_calls_guess(a->calls, a->first_ns, a->last_ns, &g))
		return 0;
	size_t bytes = merged_write_summary_bytes(&g);
	*at = (off_t)bytes;
	return bytes > 0 ? 1 : -1;
}

static void *stats_main(void *arg)
{
	struct stats_job *j = arg;

	stats_run(j);
	struct ahead_job *a = atomic_load_explicit(&j->ahead, memory_order_acquire);
	if (a && !j->err)
		merge_early_write(a->early, a->fd, guess_summary_bytes, a);
	return NULL;
}

/*
 * Starts @p j on a thread: the statistics need nothing of the calls files,
 * so they need not wait for the sandwich. The records must be flushed, or
 * shared (merge_rows_ctx.recs_shared) before the join's first.
 */
static void stats_start(struct stats_job *j)
{
	j->threaded = thread_start(&j->thread, stats_main, j) == 0;
}

/* Waits for @p j's thread, or runs it here if none was started. Returns 0 or an errno. */
static int stats_wait(struct stats_job *j)
{
	if (j->threaded) {
		if (j->ahead_early)
			merge_early_write_stop(j->ahead_early);
		thread_join(&j->thread);
		j->threaded = false;
	}
	if (!j->done)
		stats_run(j);
	return j->err;
}

/*
 * Has @p stats' thread write @p early's rows ahead (struct ahead_job @p a)
 * once its statistics are done, to @p fd, where they go if the summary's
 * length is guessed right: the records @p recs are flushed, the frames
 * files joined (@p j), @p calls' sandwich runs.
 */
static void ahead_start(struct ahead_job *a, struct stats_job *stats, struct merge_early *early,
                        int fd, const struct input *pre, const struct input *post,
                        const struct join *j, struct merge_calls *calls, const struct spill *recs)
{
	struct join_rec first, last;

	if (recs->count == 0 || spill_read(recs, 0, 1, &first) != 0 ||
	    spill_read(recs, recs->count - 1, 1, &last) != 0)
		return;
	*a = (struct ahead_job){.early = early, .fd = fd, .stats = stats, .pre = pre, .post = post,
	                        .j = j, .calls = calls, .first_ns = first.t_entry_ns,
	                        .last_ns = last.t_entry_ns};
	stats->ahead_early = early;
	atomic_store_explicit(&stats->ahead, a, memory_order_release);
}

/* Stops the rows @p j's thread writes ahead, if any, and waits for it: before their blocks end. */
static void stats_stop_ahead(struct stats_job *j)
{
	if (j->ahead_early && j->threaded)
		stats_wait(j);
}

/*
 * The summary @p s of the records and the files' metadata, the
 * statistics from @p stats (stats_wait()). The rows writer @p rows
 * formats the rows meanwhile: from the start without calls files, else
 * once find_row_frames() has kept each row's frame (the spill it appends
 * to is not read while it grows), on @p frames' thread: started beside the
 * sandwich already, or here, beside the statistics, which do not need it.
 * Returns 0 or an errno.
 */
static int summarize(const struct merge_rows_ctx *rc, struct merge_calls *calls,
                     const struct input *pre, const struct input *post, const struct join *j,
                     struct stats_job *stats, struct frames_job *frames, struct merged_rows *rows,
                     struct merge_summary *s)
{
	bool early = frames->threaded;

	if (early) {
		frames_join(frames);
		if (!frames->err)
			merged_write_rows_ready(rows, (size_t)rc->recs->count);
	} else {
		frames->rows = rows;
		if (calls->present)
			frames_start(frames);
		if (!frames->threaded)
			frames_main(frames);
	}
	int err = stats_wait(stats);
	frames_join(frames);
	if (frames->err)
		return frames->err;
	if (err)
		return err;
	summary_of_inputs(s, rc, pre, post, j);
	merge_calls_summarize(calls, s);
	return 0;
}

/*
 * The summary's values that come from the files' metadata, the gate and
 * the join @p j into @p s: known once the frames files are joined.
 */
static void summary_of_inputs(struct merge_summary *s, const struct merge_rows_ctx *rc,
                              const struct input *pre, const struct input *post,
                              const struct join *j)
{
	s->dropped_queue_full_pre = pre->cpu.meta.dropped_queue_full;
	s->dropped_queue_full_post = post->cpu.meta.dropped_queue_full;
	s->gpu_ring_overflow_pre = pre->gpu.meta.gpu_ring_overflow;
	s->gpu_ring_overflow_post = post->gpu.meta.gpu_ring_overflow;
	s->has_bracket_correction = post->cpu.meta.has_bracket_correction;
	s->bracket_correction_ns = post->cpu.meta.bracket_correction_ns;
	s->has_gpu_raw = rc->has_gpu_files;
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
	s->unmatched_pre = j->unmatched_pre;
	s->unmatched_post = j->unmatched_post;
	s->has_gpu_bracket = j->gpu_bracket_seen && j->gpu_bracket_frames > 0;
	if (s->has_gpu_bracket)
		s->gpu_bracket_ns = (uint64_t)llround(j->gpu_bracket_ns_sum / (double)j->gpu_bracket_frames);
}

/*
 * Writes the merged file, whose summary @p o holds and whose rows @p rows
 * was formatting, and the functions file; @p o is closed either way,
 * @p room's reservation ended before. Returns 0 or -1 (said).
 */
static int write_output(struct merged_writer *o, struct out_reserve *room, struct merged_rows *rows,
                        const char *functions_path, struct merge_rows_ctx *rc,
                        const struct merge_summary *s, merge_log_fn log, void *ctx)
{
	char msg[MERGE_MSG_MAX];

	merged_write_rows_finish(rows);
	int cut = out_file_reserve_finish(room); /* before the file is closed either way */
	if (cut && !o->error)
		o->error = cut;
	if (rc->read_error) {
		char q[QUOTE_PATH_MAX];
		merged_write_abort(o);
		sayf(log, ctx, "%s: error: cannot read back a temporary file: %s",
		     quote_path(q, o->path), strerror(rc->read_error));
		return -1;
	}
	/* Written while the merged file's writer keeps SIGXFSZ blocked. */
	if (merge_calls_write(rc->calls, functions_path, s->frame_count, log, ctx) != 0) {
		merged_write_abort(o);
		return -1;
	}
	/* Until the merged file is placed, a signal that ends xrlm takes the
	 * functions file with it: alone it would stop the next try. */
	struct stat placed;
	bool own = rc->calls->present && lstat(functions_path, &placed) == 0;
	if (rc->calls->present)
		out_file_watch(functions_path);
	int ret = merged_write_commit(o, msg, sizeof(msg));
	if (ret != 0) {
		say(log, ctx, msg);
		/* The session is not merged: leave no functions file that would
		 * stop the next try (files are never replaced); only this one's,
		 * not another merge's of the same session that placed both. */
		if (own)
			out_file_remove_placed(functions_path, &placed);
	}
	if (rc->calls->present)
		out_file_unwatch(functions_path);
	return ret;
}

/* ---- the window sources: a side's stream, a chunk of rows at a time ---- */

static int pull_cpu(void *ctx, const void **rows, size_t *n)
{
	struct input *s = ctx;

	s->cpu.count = 0;
	int r = side_file_stream_step(&s->cpu_stream);
	*rows = s->cpu.rows;
	*n = s->cpu.count;
	return r;
}

static int pull_gpu(void *ctx, const void **rows, size_t *n)
{
	struct input *s = ctx;

	s->gpu.count = 0;
	int r = side_file_stream_step(&s->gpu_stream);
	*rows = s->gpu.rows;
	*n = s->gpu.count;
	return r;
}

/*
 * Feeds every pre row, pulled from @p src a chunk at a time, to the join;
 * with @p publish, the records of each chunk but the last (whose frame
 * interval the next row sets) are published to the records' readers.
 * Returns 0 or -1.
 */
static int join_pre(const struct window_source *src, struct join *j, bool publish)
{
	int r;

	do {
		const void *rows;
		size_t n = 0;
		r = src->pull(src->ctx, &rows, &n);
		const struct side_cpu_row *row = rows;
		for (size_t i = 0; r >= 0 && i < n; i++)
			if (join_pre_row(j, &row[i]) != 0)
				return -1;
		if (publish && j->recs->count > 1)
			spill_publish_to(j->recs, j->recs->count - 1, false);
	} while (r > 0);
	return r < 0 ? -1 : 0;
}

/* The join's failure, said: a file's error, or memory, or the temporary file. */
static void say_join_failure(struct input *pre, struct input *post, const struct spill *recs,
                             const char *dir, merge_log_fn log, void *ctx)
{
	char q[QUOTE_PATH_MAX];

	if (finish_reading(pre, post, log, ctx))
		return;
	if (recs->error)
		sayf(log, ctx, "%s: error: cannot write a temporary file there: %s",
		     quote_path(q, dir), strerror(recs->error));
	else
		sayf(log, ctx, "%s: error: out of memory joining %llu frames",
		     quote_path(q, pre->cpu_path), (unsigned long long)pre->cpu_rows);
}

/*
 * Joins the files into records in @p recs, each file parsed on a thread of
 * its own with @p threads (@p ahead: their read-ahead queues, for the
 * caller to stop; those still reading are stopped here). With the records
 * shared (@p stats->rc), @p stats starts reading them beside the join.
 * Returns 0 or -1 (said).
 */
static int join_sides(struct input *pre, struct input *post, struct join *j, struct spill *recs,
                      bool threads, struct prefetch ahead[4], struct stats_job *stats,
                      const char *dir, merge_log_fn log, void *ctx)
{
	/* pre's CPU file first: it drives the join; the others fill windows. */
	const struct window_source src[4] = {join_cpu_source(pull_cpu, pre),
	                                     join_cpu_source(pull_cpu, post),
	                                     join_gpu_source(pull_gpu, pre),
	                                     join_gpu_source(pull_gpu, post)};
	bool both_gpu = pre->gpu_path && post->gpu_path;
	int files = both_gpu ? 4 : 2;
	struct window_source in[4];
	bool shared = stats->rc->recs_shared;

	for (int i = 0; i < files; i++) {
		if (threads)
			prefetch_start(&ahead[i], &src[i], &in[i]);
		else
			prefetch_none(&ahead[i], &src[i], &in[i]);
	}
	/* After the readers, which set the join's pace. */
	if (shared)
		stats_start(stats);
	/* The GPU files' headers are read: their widths are known. */
	const unsigned gpu_bits[2] = {side_meta_gpu_bits(&pre->gpu.meta),
	                              side_meta_gpu_bits(&post->gpu.meta)};
	int ret = join_init(j, &in[1], both_gpu ? &in[2] : NULL, both_gpu ? &in[3] : NULL,
	                    gpu_bits, recs);
	if (ret == 0)
		ret = join_pre(&in[0], j, shared);
	if (ret == 0)
		ret = join_finish(j);
	if (shared)
		spill_publish(recs, true); /* whatever happened: the statistics must not wait */
	for (int i = 0; i < files; i++)
		if (ahead[i].out_of_memory)
			ret = -1;
	/* The readers are stopped before anything else touches the files;
	 * one that gave its end touches its file no more: its thread's exit
	 * is not waited for here (the caller stops it later). */
	for (int i = 0; i < files; i++)
		if (ret != 0 || !ahead[i].ended)
			prefetch_stop(&ahead[i]);
	pre->cpu_rows = j->pre_rows;
	post->cpu_rows = j->post.total;
	pre->gpu_rows = j->gpu[0].total;
	post->gpu_rows = j->gpu[1].total;
	/* One GPU file only: it is read for its messages, its rows unused. */
	size_t ignored;
	if (ret == 0 && !both_gpu) {
		drain(&pre->gpu_stream, pre->gpu_open, &ignored);
		drain(&post->gpu_stream, post->gpu_open, &ignored);
		ret = pre->gpu.diag.failed || post->gpu.diag.failed ? -1 : 0;
	}
	if (ret != 0) {
		say_join_failure(pre, post, recs, dir, log, ctx);
		return -1;
	}
	return 0;
}

/* With one GPU file only the GPU columns stay blank. */
static void say_one_gpu_file(const struct input *pre, const struct input *post, merge_log_fn log,
                             void *ctx)
{
	char msg[MERGE_MSG_MAX];

	if (merge_one_side_warning(msg, sizeof(msg), "GPU", pre->gpu_path, post->gpu_path,
	                           "GPU columns left blank"))
		say(log, ctx, msg);
}

/*
 * A calls file without one call beside its side's frames file with rows:
 * what a writer killed before its calls were flushed leaves. The
 * per-function figures then are not the target's (every function 0 calls,
 * the other side's calls all "own-thread"): said once per side. The merge
 * goes on, as for the other files a kill cuts short: its frames columns
 * are sound, and `xrlm merge DIR` must recover such a session.
 */
static void say_empty_calls(const struct merge_calls *calls, const struct merge_paths *paths,
                            const struct input *pre, const struct input *post,
                            merge_log_fn log, void *ctx)
{
	const char *const calls_paths[2] = {paths->calls_pre_csv, paths->calls_post_csv};
	const uint64_t call_counts[2] = {calls->r.pre_calls, calls->r.post_calls};
	const struct input *const sides[2] = {pre, post};

	if (!calls->present)
		return;
	for (int i = 0; i < 2; i++) {
		if (call_counts[i] > 0 || sides[i]->cpu_rows == 0)
			continue;
		char qc[QUOTE_PATH_MAX], qs[QUOTE_PATH_MAX];
		sayf(log, ctx, "%s: warning: no calls, while %s has %llu frames: the per-function "
		     "figures are not the target's", quote_path(qc, calls_paths[i]),
		     quote_path(qs, sides[i]->cpu_path), (unsigned long long)sides[i]->cpu_rows);
	}
}

/*
 * A merged row's bytes with the every-function columns, a little over a
 * generated session's (150 bytes, 168 with GPU files), and the summary's:
 * the room reserved ahead of the writes (what is not written is cut).
 */
#define CALLS_ROW_BYTES 160
#define CALLS_GPU_BYTES 24
#define SUMMARY_BYTES 8192

/* The bytes of a merged file of @p rows rows with calls files, with GPU files if @p gpu. */
static off_t calls_merged_bytes(uint64_t rows, bool gpu)
{
	uint64_t row = CALLS_ROW_BYTES + (gpu ? CALLS_GPU_BYTES : 0);

	if (rows > (UINT64_MAX / 2 - SUMMARY_BYTES) / row)
		return 0; /* nothing reserved */
	return (off_t)(SUMMARY_BYTES + rows * row);
}

/*
 * Are @p pre_csv's session's files read on threads of their own? Not for a
 * very short session: it is done before threads would have started.
 */
static bool read_on_threads(const char *pre_csv)
{
	return csvr_estimate_rows(pre_csv, 1) > MERGE_THREADS_BYTES;
}

/*
 * Starts @p calls' sandwich, if there are calls files, before the frames
 * files' metadata are read: its readers' first rows come ~1 ms after they
 * start, which the metadata's 0.3 ms need not precede. The sandwich takes
 * its first row once merge_sides() gives it the bracket correction.
 * Rows formatted early (merge_early_wanted()) take CPUs beside the calls
 * files' readers and the sandwich.
 */
static void start_calls(struct merge_calls *calls, const struct merge_paths *paths,
                        const char *dir)
{
	uint64_t frames = csvr_estimate_rows(paths->pre_csv, MERGE_FRAME_ROW_BYTES);

	merge_calls_start(calls, paths, dir, frames,
	                  read_on_threads(paths->pre_csv) && merge_early_wanted(frames));
}

static int merge_sides(struct input *pre, struct input *post, const struct merge_paths *paths,
                       struct merge_calls *calls, const char *dir, const char *out_path,
                       const char *functions_path, struct merge_summary *summary,
                       merge_log_fn log, void *ctx)
{
	struct spill recs;
	struct join j;
	struct merge_gate gate = {0};
	struct merge_summary s = {0};
	struct merge_rows_ctx rc = {.recs = &recs, .gate = &gate, .calls = calls};
	struct stats_job stats = {.rc = &rc, .dir = dir, .s = &s};
	struct frames_job frames = {.recs = &recs, .calls = calls};
	struct prefetch ahead[4] = {0};
	struct merge_early early = {0};
	struct ahead_job rows_ahead;
	bool gate_ok = false; /* gate collected */
	struct merged_writer o;
	bool o_open = false; /* o is to be committed or aborted */
	struct out_reserve room = {.started = false};
	char msg[MERGE_MSG_MAX], q[QUOTE_PATH_MAX], qd[QUOTE_PATH_MAX];
	/* What the messages below name: the session, or the temporary files' place. */
	const char *shown_pre = quote_path(q, pre->cpu_path), *shown_dir = quote_path(qd, dir);
	int ret = -1;

	if (spill_init(&recs, sizeof(struct join_rec), MERGE_RECS_MEM, dir) != 0) {
		sayf(log, ctx, "%s: error: out of memory", shown_pre);
		return -1;
	}
	rc.bracket_correction_ns = post->cpu.meta.bracket_correction_ns;
	rc.has_gpu_files = pre->gpu_path || post->gpu_path;
	/* Every file is parsed on a thread of its own while this one joins,
	 * and without calls files the statistics read the records as they
	 * come (with them, they start after the join, beside the sandwich:
	 * earlier they take CPUs from the calls files' readers, which set the
	 * pace); a very short session is done before threads would have
	 * started. */
	bool threads = read_on_threads(pre->cpu_path);
	bool calls_files = paths->calls_pre_csv && paths->calls_post_csv;
	rc.recs_shared = threads && !calls_files && spill_share(&recs) == 0;
	stats.rows_hint = csvr_estimate_rows(pre->cpu_path, MERGE_FRAME_ROW_BYTES);
	/* The sandwich, started already, may take its rows now. */
	merge_calls_bracket(calls, (int64_t)post->cpu.meta.bracket_correction_ns);
	if (join_sides(pre, post, &j, &recs, threads, ahead, &stats, dir, log, ctx) != 0)
		goto out;
	/* The windows' memory is reused by what comes next (the statistics,
	 * the row blocks): fresh memory is what a short merge pays most for. */
	join_destroy(&j);
	/* While the calls files' sandwich finishes, the statistics, which
	 * need none of it (a failed flush is said below, in its turn), if
	 * they did not start with the join. */
	if (calls->joining && j.matched > 0 && spill_flush(&recs) == 0) {
		if (!stats.threaded && !stats.done)
			stats_start(&stats);
		/* The rows' frames too, as the sandwich gives its xrEndFrame calls. */
		if (merge_calls_walk_early(calls, dir))
			frames_start(&frames);
		/* And the rows themselves, as the sandwich makes their frames
		 * final: their gate_tripped cells need the gate first. */
		if (frames.threaded && calls->rows_shared) {
			gate_ok = merge_gate_collect(&gate, pre->gpu_path ? &pre->gpu.meta : NULL,
			                             post->gpu_path ? &post->gpu.meta : NULL) == 0;
			if (gate_ok)
				merge_early_start(&early, (size_t)j.matched, merge_rows_fill_final, &rc);
		}
	}
	/* The merged file is created now (a failure is said in its turn,
	 * after the input files' messages) and, with calls files, its room
	 * reserved while this thread waits for their sandwich (10^4 frames
	 * ~0.3 ms faster): the rows' writes then find their pages there.
	 * Without calls files the rows start at once: nothing to wait for. */
	o_open = merged_write_open(&o, out_path, msg, sizeof(msg)) == 0;
	if (o_open && calls_files)
		out_file_reserve_start(&room, o.fd, calls_merged_bytes(j.matched, rc.has_gpu_files));
	if (o_open && early.started && stats.threaded)
		ahead_start(&rows_ahead, &stats, &early, o.fd, pre, post, &j, calls, &recs);
	/* Every file is read now: its warnings, in the files' order. */
	say_warnings(&pre->cpu.diag, log, ctx);
	say_warnings(&pre->gpu.diag, log, ctx);
	say_warnings(&post->cpu.diag, log, ctx);
	say_warnings(&post->gpu.diag, log, ctx);
	/* The calls files after the frames files, as their errors come after. */
	if (merge_calls_read(calls, paths, pre->cpu.meta.session,
	                     (int64_t)post->cpu.meta.bracket_correction_ns, dir, log, ctx) != 0)
		goto out;
	say_empty_calls(calls, paths, pre, post, log, ctx);
	say_one_gpu_file(pre, post, log, ctx);
	if (!gate_ok && merge_gate_collect(&gate, pre->gpu_path ? &pre->gpu.meta : NULL,
	                                   post->gpu_path ? &post->gpu.meta : NULL) != 0) {
		sayf(log, ctx, "%s: error: out of memory joining %llu frames", shown_pre,
		     (unsigned long long)pre->cpu_rows);
		goto out;
	}
	if (check_matched(pre, post, &j, log, ctx) != 0)
		goto out;
	if (spill_flush(&recs) != 0) {
		sayf(log, ctx, "%s: error: cannot write a temporary file there: %s", shown_dir,
		     strerror(recs.error));
		goto out;
	}

	/* The rows are formatted on threads while the statistics are
	 * computed, and written after the summary. */
	struct merged_rows rows;
	if (!o_open) {
		say(log, ctx, msg);
		goto out;
	}
	/* The sandwich is done: the rows formatted early go first (unless a
	 * frame changed after it said it was final), every one of them
	 * formatted now; those past MERGE_EARLY_BYTES go to the writers. */
	if (calls->present && !atomic_load(&calls->progress.broken)) {
		rc.row_offset = merge_early_final(&early);
	} else {
		stats_stop_ahead(&stats); /* before the rows it writes end */
		merge_early_finish(&early, false);
	}
	size_t later = (size_t)recs.count - rc.row_offset;
	merged_write_rows_start(&rows, &o, later, calls->present ? 0 : later, merge_rows_fill, &rc);
	int err = summarize(&rc, calls, pre, post, &j, &stats, &frames, &rows, &s);
	/* A block taken and not formatted: memory ran out there. */
	if (!err && rc.row_offset > 0 && merge_early_finish(&early, true) < rc.row_offset) {
		merged_write_rows_cancel(&rows);
		sayf(log, ctx, "%s: error: out of memory formatting the rows", shown_pre);
		goto out;
	}
	if (err) {
		merged_write_rows_cancel(&rows);
		if (err == ENOMEM)
			sayf(log, ctx, "%s: error: out of memory computing statistics", shown_pre);
		else
			sayf(log, ctx, "%s: error: cannot use a temporary file there: %s", shown_dir,
			     strerror(err));
		goto out;
	}
	merged_write_summary(&o, &s);
	if (merge_early_give(&early, rc.row_offset, &rows) != 0) {
		merged_write_rows_cancel(&rows);
		sayf(log, ctx, "%s: error: out of memory formatting the rows", shown_pre);
		goto out;
	}
	o_open = false; /* write_output() closes it either way */
	if (write_output(&o, &room, &rows, functions_path, &rc, &s, log, ctx) != 0)
		goto out;
	if (summary)
		*summary = s;
	ret = 0;
out:
	stats_stop_ahead(&stats); /* before the rows it writes end */
	merge_early_finish(&early, false); /* they read the calls' frames and the records */
	out_file_reserve_finish(&room); /* its thread uses the file */
	if (o_open)
		merged_write_abort(&o);
	if (stats.threaded)
		stats_wait(&stats); /* it reads the records */
	merge_calls_stop(calls); /* it borrows dir; its end lets the rows' frame pass end */
	frames_join(&frames);   /* it reads the records */
	for (int i = 0; i < 4; i++)
		prefetch_stop(&ahead[i]); /* the readers that gave their end */
	merge_early_destroy(&early);
	merge_gate_destroy(&gate);
	join_destroy(&j);
	spill_destroy(&recs);
	return ret;
}

int merge_files(const struct merge_paths *paths, const char *out_path,
                struct merge_summary *summary, merge_log_fn log, void *ctx)
{
	char msg[MERGE_MSG_MAX];

	if (!paths || !paths->pre_csv || !paths->post_csv || !out_path) {
		say(log, ctx, "merge: error: a pre, post and output path are required");
		return -1;
	}
	/* Fail before the work; the final rename refuses to replace too. */
	if (out_file_check_new(out_path, msg, sizeof(msg)) != 0) {
		say(log, ctx, msg);
		return -1;
	}

	char functions_path[MERGE_PATH_MAX];
	if (!paths->functions_csv &&
	    merge_functions_path(out_path, functions_path, sizeof(functions_path)) != 0) {
		char q[QUOTE_PATH_MAX];
		sayf(log, ctx, "%.200s...: error: path too long", quote_path(q, out_path));
		return -1;
	}
	struct input pre = {.name = "pre", .cpu_path = paths->pre_csv, .gpu_path = paths->gpu_pre_csv};
	struct input post = {.name = "post", .cpu_path = paths->post_csv, .gpu_path = paths->gpu_post_csv};
	struct merge_calls calls;
	char dir[MERGE_PATH_MAX];
	int ret = 0;

	merge_calls_init(&calls);
	out_file_dir_of(out_path, dir, sizeof(dir));
	start_calls(&calls, paths, dir);
	/* The metadata of every file first: the checks need no rows. */
	if (open_files(&pre, &post, read_on_threads(pre.cpu_path)) != 0) {
		finish_reading(&pre, &post, log, ctx);
		ret = -1;
	} else if (check_sessions(&pre, &post, msg, sizeof(msg)) != 0 ||
	           check_clocks(&pre, &post, msg, sizeof(msg)) != 0) {
		/* An error inside a file comes first, as when files were read whole. */
		if (!finish_reading(&pre, &post, log, ctx))
			say(log, ctx, msg);
		ret = -1;
	}
	if (ret == 0)
		ret = merge_sides(&pre, &post, paths, &calls, dir, out_path,
		                  paths->functions_csv ? paths->functions_csv : functions_path, summary,
		                  log, ctx);
	merge_calls_destroy(&calls);
	input_destroy(&pre);
	input_destroy(&post);
	return ret;
}
