/*
 * Joining pre and post rows of one session, streaming: pre's rows are fed
 * in file order, post's CPU rows and the two GPU files are pulled through
 * sliding windows (window.h), and each matched frame becomes one record,
 * in pre's order, appended to a spill (spill.h). Memory does not grow with
 * the session's length.
 *
 * CPU rows are joined on (display_time, thread_id), GPU rows on
 * display_time; a key that appears more than once is matched to the
 * first unmatched row of it the walk finds from where it stands (16 rows
 * ahead, then the window's index): first-to-first where both files hold
 * that key's rows in the same order, not always where they do not (a
 * hostile file's). frame_interval_us runs to the next pre
 * row (the session's next frame, whatever its thread): the record of the
 * previous row is patched in place when it arrives.
 */
#ifndef XRLM_JOIN_H
#define XRLM_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "side_cpu.h"
#include "side_gpu.h"
#include "spill.h"
#include "window.h"

/* interval_ns of the record of the last pre row. */
#define JOIN_NO_INTERVAL INT64_MIN

/* One matched frame. 64 bytes. */
struct join_rec {
	int64_t display_time;
	uint64_t thread_id;
	int64_t t_entry_ns;  /* pre's bracket: entry ... */
	int64_t pre_ns;      /* ... and length (t_exit - t_entry) */
	int64_t post_ns;
	int64_t interval_ns; /* next pre row minus this one; JOIN_NO_INTERVAL */
	double gpu_us;       /* target GPU µs (3 decimals), bracket corrected, or NAN */
	double gpu_raw_us;   /* the same before the correction */
};

struct join {
	struct window post;    /* post's CPU rows */
	struct window gpu[2];  /* pre's and post's GPU rows, when has_gpu */
	unsigned gpu_bits[2];  /* their files' tick widths (side_meta_gpu_bits()) */
	bool has_gpu;
	uint64_t last_rec;     /* the previous pre row's record, WINDOW_NONE: none */
	int64_t last_t_entry;  /* its t_entry */
	struct spill *recs;
	uint64_t pre_rows;
	uint64_t matched;
	uint64_t gpu_matched;  /* matched frames with a row in both GPU files */
	double gpu_bracket_ns_sum; /* over gpu_bracket_frames frames with a GPU value */
	uint64_t gpu_bracket_frames;
	bool gpu_bracket_seen; /* a frame with a GPU value had a measured bracket (0 included) */
	uint64_t unmatched_pre;
	uint64_t unmatched_post; /* known after join_finish() */
};

/* A pull function of struct window_source. */
typedef int (*join_pull_fn)(void *ctx, const void **rows, size_t *n);

/* The window source of a side's CPU rows (struct side_cpu_row), keyed on (display_time, thread_id). */
struct window_source join_cpu_source(join_pull_fn pull, void *ctx);

/* The window source of a side's GPU rows (struct side_gpu_row), keyed on display_time. */
struct window_source join_gpu_source(join_pull_fn pull, void *ctx);

/*
 * The target GPU time of one frame before the bracket correction, in µs
 * rounded as written (target_gpu_raw_us): the ticks from pre's timestamp
 * @p pre_ticks forward to post's @p post_ticks on a clock @p bits wide (a
 * wrap between them undone), each of @p period_ns. NAN when post's is
 * before pre's (a reset clock, corruption) or the time is too large to
 * write. The merge's join and the trace share it.
 */
double join_gpu_raw_us(uint64_t pre_ticks, uint64_t post_ticks, double period_ns, unsigned bits);

/*
 * The bracket correction of one frame (README "GPU cost"): @p raw_us less
 * the bracket pre measured around an empty submission, @p bracket_ns, and
 * never below 0 (a target that submits nothing adds no boundaries: its raw
 * reading is below the bracket). Rounded as written; NAN stays NAN.
 */
double join_gpu_correct(double raw_us, double bracket_ns);

/*
 * Prepares @p j: post's CPU rows from @p post, the GPU rows from @p gpu_pre
 * and @p gpu_post when both are non-NULL, whose files' ticks are
 * @p gpu_bits[0] and [1] wide (ignored without them); records go to
 * @p recs. Returns 0, or -1 when out of memory (join_destroy() either way).
 */
int join_init(struct join *j, const struct window_source *post, const struct window_source *gpu_pre,
              const struct window_source *gpu_post, const unsigned gpu_bits[2], struct spill *recs);

/*
 * Joins pre's next CPU row. Returns 0, or -1 when a source failed, memory
 * ran out or the spill could not be written.
 */
int join_pre_row(struct join *j, const struct side_cpu_row *row);

/* After the last pre row: reads the rest of the other files, counts. Returns 0 or -1. */
int join_finish(struct join *j);

/* Frees what @p j holds (not the spill). */
void join_destroy(struct join *j);

#endif /* XRLM_JOIN_H */
