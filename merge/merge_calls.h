/*
 * The calls files' part of a session's merge: the nested-call sandwich
 * (calls_join.h) run beside the frames join, each merged row's
 * every-function columns, the summary counts and the functions file. The
 * merge calls these per row, so the frames join stays as it is.
 */
#ifndef XRLM_MERGE_CALLS_H
#define XRLM_MERGE_CALLS_H

#include <pthread.h>
#include <stdbool.h>

#include "calls_join.h"
#include "merge.h"
#include "merged_write.h"
#include "spill.h"
#include "thread.h"
#include "window.h"

/* Pre's xrEndFrame calls read back from the sandwich's spill at a time. */
#define MERGE_CALLS_ENDS_BATCH 512

struct merge_calls {
	bool present; /* both calls files were given and read */
	struct calls_result r;
	/* The sandwich's xrEndFrame calls, shared (spill_share()) so that the
	 * rows' pass may take them while it goes on (merge_calls_walk_early());
	 * else they are in r.ends. */
	struct spill shared_ends;
	bool ends_shared;
	/*
	 * The rows' frames, found in one pass over the merged rows: a window
	 * over pre's xrEndFrame calls (in the same order as the frames
	 * file's rows, up to the writers' reordering), and each row's frame
	 * id kept for the writers, which compute its columns. That pass runs
	 * beside the sandwich and writes these row by row, as the sandwich
	 * writes r and shared_ends: on cache lines of their own.
	 */
	_Alignas(64) uint64_t rows_without_calls;
	uint64_t frames_used; /* frames with calls some merged row maps to */
	struct window ends;
	bool ends_open;
	uint64_t ends_pulled;
	int ends_errno; /* why the window's source failed */
	struct calls_end *batch;
	struct spill row_frames; /* uint64_t per merged row: its frame id, or CALLS_NO_FRAME */
	bool rows_shared; /* row_frames is shared: merge_calls_rows_final() may read it */
	/* The sandwich, run on a thread beside the frames join
	 * (merge_calls_start()); its fields start a line past the pass's. */
	_Alignas(64) struct thread thread;
	bool joining;      /* the thread runs (or has run) and is not joined yet */
	int join_ret;      /* what calls_join_each() returned there */
	const char *join_pre_csv, *join_post_csv, *join_dir; /* borrowed */
	uint64_t join_frames_hint;
	/* The bracket correction, given to the running sandwich (merge_calls_bracket()). */
	pthread_mutex_t bracket_lock;
	pthread_cond_t bracket_changed;
	int bracket_state; /* 0: awaited; 1: given; -1: the merge gave up */
	int64_t join_bracket_ns;
	bool rows_early; /* rows are to be formatted while the sandwich runs */
	/* The frames the sandwich has made final so far (calls_frames.h). */
	_Alignas(64) struct calls_frames_progress progress;
	/* Its counts so far, with rows_early (merge_calls_guess()). */
	_Alignas(64) struct calls_join_tally tally;
};

/* Empties @p mc (no files): merge_calls_destroy() may follow at once. */
void merge_calls_init(struct merge_calls *mc);

/*
 * Starts the sandwich of @p paths' calls files, if both are given, on a
 * thread of its own (@p dir as for merge_calls_read(), which takes its
 * result; @p paths and @p dir are borrowed until then, or until
 * merge_calls_stop()): the calls files are read while the frames files'
 * metadata are, then their rows. The readers start at once; the sandwich
 * takes its first row once merge_calls_bracket() gives it the bracket
 * correction, which post's frames file holds. Without a thread,
 * merge_calls_read() runs it. @p frames_hint: the session's frames, as
 * its frames file's size says (0: unknown), for the memory its per-frame
 * totals may hold (calls_frames_init()). With
 * @p rows_early the sandwich publishes the frames it has made final, and
 * the rows' pass its rows' frames, for merge_calls_rows_final().
 */
void merge_calls_start(struct merge_calls *mc, const struct merge_paths *paths, const char *dir,
                       uint64_t frames_hint, bool rows_early);

/* Gives the sandwich merge_calls_start() started the bracket correction @p bracket_ns. */
void merge_calls_bracket(struct merge_calls *mc, int64_t bracket_ns);

/*
 * Once the merged rows are all known, while the sandwich merge_calls_start()
 * started may still run: prepares the pass of merge_calls_next_row() over
 * them (in @p dir), which then waits for the sandwich's xrEndFrame calls as
 * it needs them. Returns true when it did; false when the pass must wait
 * for merge_calls_read() (no sandwich running, or out of memory).
 */
bool merge_calls_walk_early(struct merge_calls *mc, const char *dir);

/*
 * Waits for what merge_calls_start() started, if anything (stopping it
 * if it still waits for the bracket correction), and drops its result.
 */
void merge_calls_stop(struct merge_calls *mc);

/*
 * Reads @p paths' calls files, if both are given, through the sandwich
 * (@p bracket_ns per contained post call; temporary files in @p dir),
 * checking they are of the session of @p pre_cpu_path / @p pre_session.
 * With one only, warns and leaves @p mc absent. Returns 0, or -1 after one
 * error line to @p log, after merge_calls_init(). merge_calls_destroy()
 * must be called either way.
 */
int merge_calls_read(struct merge_calls *mc, const struct merge_paths *paths,
                     const char *pre_session, int64_t bracket_ns, const char *dir,
                     merge_log_fn log, void *ctx);

/*
 * Finds the frame of the next merged row, whose pre frames row has
 * @p thread_id, @p t_entry_ns and duration @p dur_ns, and keeps it for
 * merge_calls_rows() (nothing without calls files). Called once per row,
 * in the rows' order, from one thread, after merge_calls_walk_early() or
 * merge_calls_read(). Returns 0, or -1 (a temporary file or memory
 * failed: errno set).
 */
int merge_calls_next_row(struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                         int64_t dur_ns);

/* The most rows merge_calls_rows() takes at a time. */
#define MERGE_CALLS_ROWS_MAX 64

/*
 * The every-function columns of rows [@p first, @p first + @p n) (at most
 * MERGE_CALLS_ROWS_MAX), whose xrEndFrame calls ran from @p end_entry[i]
 * to @p end_exit[i], into @p cols (@p n * CALLS_COLS values; all
 * CALLS_BLANK without calls files). Thread-safe once every row was given
 * to merge_calls_next_row(). Returns 0, or -1 on a read error (errno set).
 */
int merge_calls_rows(const struct merge_calls *mc, uint64_t first, size_t n,
                     const int64_t *end_entry, const int64_t *end_exit, int64_t *cols);

/*
 * As merge_calls_rows(), from another thread while the sandwich and the
 * rows' pass still run (merge_calls_start()'s rows_early): waits for the
 * rows' pass to reach the rows, and gives their columns only if their
 * frames are final. Returns 1 when it did, 0 when they are not final yet
 * (try again later), -1 when they never will be here (a frame changed
 * after the sandwich published it, or a read failed): the rows are then
 * for merge_calls_rows() once the sandwich is done.
 */
int merge_calls_rows_final(const struct merge_calls *mc, uint64_t first, size_t n,
                           const int64_t *end_entry, const int64_t *end_exit, int64_t *cols);

/* From the rows' pass: the rows' frames given so far may be read; with @p end, all were. */
void merge_calls_rows_publish(struct merge_calls *mc, bool end);

/* The calls counts into @p s, after every row was given. */
void merge_calls_summarize(const struct merge_calls *mc, struct merge_summary *s);

/*
 * While the sandwich merge_calls_start() started with rows_early runs:
 * the calls counts merge_calls_summarize() will give, guessed into @p s
 * from the sandwich's counts so far, scaled by the share of the session
 * (its rows' xrEndFrame calls from @p first_ns to @p last_ns) it has
 * passed. Only their digit counts matter (merge.c); those of counts that
 * come from the calls files' metadata are guessed as 0's. Returns false,
 * with @p s unchanged, while too little of the session is passed for a
 * guess.
 */
bool merge_calls_guess(const struct merge_calls *mc, int64_t first_ns, int64_t last_ns,
                       struct merge_summary *s);

/* Writes the functions file @p path. Returns 0, or -1 after one error line to @p log. */
int merge_calls_write(const struct merge_calls *mc, const char *path, uint64_t frame_count,
                      merge_log_fn log, void *ctx);

/* Frees what @p mc owns. */
void merge_calls_destroy(struct merge_calls *mc);

#endif /* XRLM_MERGE_CALLS_H */
