/*
 * The nested-call sandwich: the target layer's exclusive time in every call
 * the app made (pre's calls file), by time containment on one thread
 * (merge/README.md "Calls"), with per-function and per-frame totals.
 *
 * For one pre call P on thread T, the post calls on T that lie inside P
 * ([t_entry, t_exit] within P's) are the target's calls down the chain:
 *   exclusive(P) = dur(P) - sum dur(Q) over those post calls Q
 *                  - dur of pre calls N nested inside P (their own account)
 *                  - (1 + #Q + #N) * bracket / 2
 * (bracket / 2 is one clock read: P's own reads leave one inside its
 * bracket, and each bracket inside P one outside itself but inside P's).
 * A pre call with no post call inside is self-answered (all target time).
 * The first post call of P's own function is the forwarded one; every other
 * post call inside is "induced" (counted per function). A post call inside
 * no pre call of its thread is an own-thread call of the target.
 *
 * Both files are read as streams, each on a thread of its own (calls_queue.h);
 * each thread's pre calls are held only until no later row can fall inside
 * them (CALLS_JOIN_LAG_NS after the newest row read), and the per-frame
 * totals and the xrEndFrame calls go to temporary files past a bound
 * (calls_frames.h, spill.h), so memory depends on the threads and
 * functions, not on the number of calls or frames.
 */
#ifndef XRLM_CALLS_JOIN_H
#define XRLM_CALLS_JOIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calls_frames.h"
#include "calls_names.h"
#include "calls_order.h" /* CALLS_JOIN_LAG_NS, CALLS_JOIN_LAG_ROWS */
#include "calls_read.h"
#include "idmap.h"
#include "qhist.h"
#include "spill.h"
#include "u_phase.h"

/* One function's totals. */
struct calls_fn {
	char name[CALLS_FN_MAX];
	enum u_phase phase;
	uint64_t calls;            /* pre calls: the app's */
	int64_t total_ns;          /* sum of their exclusive target time */
	struct qhist excl;         /* their exclusive target times */
	uint64_t forwarded_calls;  /* post calls that forwarded a pre call of this function */
	uint64_t induced_calls;    /* post calls inside a pre call (other than its forward) */
	int64_t induced_ns;        /* their durations (the runtime's time) */
	uint64_t own_thread_calls; /* post calls inside no pre call of their thread */
	int64_t own_thread_ns;     /* their durations */
};

/* An xrEndFrame call of pre: how a frames-file row finds its frame_id. */
struct calls_end {
	int64_t t_entry_ns;
	int64_t t_exit_ns;
	uint64_t thread_id;
	uint64_t frame_id;
};

/* The sandwich's result. Owns its arrays; release with calls_result_destroy(). */
struct calls_result {
	struct side_meta pre_meta, post_meta;
	struct csvr_diag pre_diag, post_diag;

	struct calls_fn *fns;
	size_t fn_count, fn_cap;
	struct calls_names fn_names; /* name -> fns index */

	struct calls_frames frames; /* by frame id, in bounded memory */
	struct spill ends;          /* struct calls_end, in pre's file order */

	uint64_t pre_calls, post_calls;
	uint64_t frames_with_calls;   /* frame ids some pre call was finalized in */
	uint64_t self_answered_calls; /* pre calls with no post call inside */
	uint64_t induced_calls, own_thread_calls;
	uint64_t late_calls; /* rows out of order past both bounds (CALLS_JOIN_LAG_NS) */
	uint64_t late_calls_post; /* of those, post's rows (the rest are pre's) */
	/*
	 * The phases both files record wholly (side_meta_phases()): known
	 * before the first frame is published, so the rows formatted while
	 * the sandwich runs read it after the frames they read.
	 */
	unsigned phases_recorded;
	/*
	 * Frames below it began before the recording (their xrWaitFrame is not
	 * in the file: the recording starts inside an xrEndFrame): the first
	 * pre row's frame, or the frame after it when that row is no
	 * xrWaitFrame. Their rows' phase columns are blank. Set at the first
	 * pre row, before any xrEndFrame call is passed on
	 * (calls_join_opts.ends).
	 */
	uint64_t complete_from;
};

/*
 * Runs the sandwich over @p pre_path and @p post_path; @p bracket_ns is
 * subtracted once per contained post call (see merge/README.md). Its
 * temporary files go to $TMPDIR (or /tmp). Returns 0, or -1 with the error
 * in out->pre_diag or out->post_diag (checked in that order).
 * calls_result_destroy() must be called either way.
 */
int calls_join(const char *pre_path, const char *post_path, int64_t bracket_ns,
               struct calls_result *out);

/*
 * The sandwich's counts so far, published now and then for a reader on
 * another thread (calls_join_opts.tally): what the merge guesses its
 * summary's length from while the sandwich still runs (merge.c). Each
 * field is current on its own; together they are a snapshot only roughly.
 */
struct calls_join_tally {
	_Atomic int64_t placed_until_ns; /* the rows before it are counted; INT64_MIN: none yet */
	_Atomic uint64_t pre_calls, post_calls;
	_Atomic uint64_t self_answered_calls, induced_calls, own_thread_calls, late_calls;
	_Atomic unsigned phases_recorded;
};

/* One pre call, once its exclusive target time is final (calls_join_each()). */
struct calls_join_call {
	const char *fn;
	uint64_t thread_id;
	int64_t t_entry_ns, t_exit_ns;
	uint64_t frame_id;
	int64_t result;
	int64_t excl_ns; /* the target's exclusive time, as the totals count it */
	int64_t post_ns; /* the post calls inside it */
	uint32_t npost;
};

/* Called for every pre call. */
typedef void (*calls_join_call_fn)(void *ctx, const struct calls_join_call *c);

/* xrEndFrame calls a spill of them holds in memory before the rest go to a temporary file. */
#define CALLS_ENDS_MEM 32768

/* What calls_join_each() does beyond calls_join(). */
struct calls_join_opts {
	const char *tmp_dir;     /* temporary files' directory (NULL: $TMPDIR, else /tmp) */
	calls_join_call_fn each; /* may be NULL */
	void *each_ctx;
	/*
	 * NULL, or a shared spill (spill.h: spill_share()) that pre's
	 * xrEndFrame calls go to instead of out->ends, published as they come
	 * and ended when the sandwich returns, whatever it returns: another
	 * thread may read them meanwhile (the merge's pass over its rows).
	 */
	struct spill *ends;
	uint64_t frames_hint; /* the frames expected (calls_frames_init()); 0: unknown */
	/* NULL, or where the frames final so far are published for readers
	 * on other threads (calls_frames_share()). */
	struct calls_frames_progress *progress;
	/* NULL, or where the counts so far are published (as often as the frames, about). */
	struct calls_join_tally *tally;
	/*
	 * NULL, or called on the sandwich's thread once both files' readers
	 * have started, before the first row is taken: the bracket correction
	 * into *ns (the frames files' metadata give it, read meanwhile on
	 * another thread; calls_join_each()'s bracket_ns is not used then).
	 * Returns 0, or -1 to stop at once (the merge gave up).
	 */
	int (*bracket)(void *ctx, int64_t *ns);
	void *bracket_ctx;
};

/*
 * As calls_join(), with @p opts (may be NULL): calls opts->each with
 * opts->each_ctx for every pre call when it becomes final (per thread in
 * order; threads interleaved), so that a caller can stream them.
 */
int calls_join_each(const char *pre_path, const char *post_path, int64_t bracket_ns,
                    const struct calls_join_opts *opts, struct calls_result *out);

/* Frees what @p r owns. */
void calls_result_destroy(struct calls_result *r);

#define CALLS_NO_FRAME UINT64_MAX

/*
 * The frame id of the xrEndFrame call that is the frames-file row
 * (@p thread_id, @p t_entry_ns, @p t_exit_ns); CALLS_NO_FRAME when the
 * calls file has no such call. A walk over every xrEndFrame call: for a
 * single lookup (the merge finds its rows' frames in one pass, see
 * merge_calls.c).
 */
uint64_t calls_find_frame(const struct calls_result *r, uint64_t thread_id, int64_t t_entry_ns,
                          int64_t t_exit_ns);

/* A per-frame value that does not exist (INT64_MIN). */
#define CALLS_BLANK INT64_MIN

/* The per-frame columns: target per phase, target total, app_* (README). */
enum calls_col {
	CALLS_COL_TARGET_TOTAL = U_PHASE_COUNT,
	CALLS_COL_APP_WAIT,
	CALLS_COL_APP_CPU,
	CALLS_COL_APP_RENDER,
	CALLS_COL_APP_SUBMIT,
	CALLS_COLS,
};

/*
 * The per-frame columns (ns, or CALLS_BLANK) of frame @p fr, the frame
 * before it being @p prev (has == 0: none), whose xrEndFrame ran from
 * @p end_entry to @p end_exit, into @p out[CALLS_COLS]. Only the phases of
 * @p phases (calls_result.phases_recorded) have a value, and the total
 * only when that is every phase; none, nor app_wait, app_cpu and
 * app_render, when @p fr is partial (CALLS_HAS_PARTIAL).
 */
void calls_columns_of(const struct calls_frame *fr, const struct calls_frame *prev,
                      unsigned phases, int64_t end_entry, int64_t end_exit, int64_t *out);

/*
 * The per-frame columns (ns, or CALLS_BLANK) of frame id @p f
 * (CALLS_NO_FRAME: all blank), whose xrEndFrame ran from @p end_entry to
 * @p end_exit, into @p out[CALLS_COLS]. Returns 0, or -1 when the
 * temporary file cannot be read (r->frames.error).
 */
int calls_frame_columns(struct calls_result *r, uint64_t f, int64_t end_entry, int64_t end_exit,
                        int64_t *out);

#endif /* XRLM_CALLS_JOIN_H */
