/*
 * Merging the per-side CSV files of one recording session into the merged
 * CSV (README "The merged CSV" and merge/README.md). One implementation, linked into
 * the post layer and into the `xrlm` tool, so both produce identical bytes.
 *
 * All functions are thread-safe: no globals, no exit()/abort(), and no
 * dependence on the calling thread's or the process's locale.
 */
#ifndef XRLM_MERGE_H
#define XRLM_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

/* Receives one complete line, without a newline. */
typedef void (*merge_log_fn)(void *ctx, const char *message);

/*
 * The per-side files of a session; gpu_* and calls_* may be NULL (no such
 * file). With both calls files the merged CSV gets the every-function
 * columns and the functions file is written: to functions_csv, or when that
 * is NULL to merge_functions_path() of the merged file.
 */
struct merge_paths {
	const char *pre_csv;
	const char *post_csv;
	const char *gpu_pre_csv;
	const char *gpu_post_csv;
	const char *calls_pre_csv;
	const char *calls_post_csv;
	const char *functions_csv;
};

/* A per-side CPU file's bytes a row, about: a session's frames from its file's size. */
#define MERGE_FRAME_ROW_BYTES 50

/* Longest path (including the terminating NUL) the path helpers produce. */
#define MERGE_PATH_MAX 4096

/* Longest target layer name kept (including the NUL); longer ones are cut. */
#define MERGE_NAME_MAX 256

/*
 * Everything the merged file's summary lines and `xrlm`'s table show.
 * Units are in the field names; a stats_summary with count 0 is all zeros.
 */
struct merge_summary {
	uint64_t frame_count;            /* matched frames (rows written) */
	/* A merged file read back: its summary's frame_count (its rows may be fewer: a
	 * copy cut short); 0 when it has none or it is not a count. */
	uint64_t summary_frame_count;
	uint64_t gpu_frame_count;        /* rows with a target_gpu_us value */
	struct stats_summary target_cpu_us;
	struct stats_summary target_cpu_pct;    /* rows with an interval */
	struct stats_summary target_gpu_us;
	struct stats_summary target_gpu_pct;    /* rows with GPU and interval */
	struct stats_summary frame_interval_us;
	double frame_rate_hz;            /* 1e6 / median interval; 0 if none */

	uint64_t dropped_queue_full_pre;
	uint64_t dropped_queue_full_post;
	uint64_t gpu_ring_overflow_pre;
	uint64_t gpu_ring_overflow_post;
	uint64_t unmatched_pre;          /* CPU rows present on pre only */
	uint64_t unmatched_post;         /* CPU rows present on post only */
	uint64_t negative_target_frames; /* rows with target_us < 0 */
	uint64_t truncated_rows;         /* partial last rows skipped, all files */
	/*
	 * Subtracted from pre − post in target_us: the clock reads' own share
	 * of the difference (two reads' duration, measured by post and written
	 * in its file's header; 0 for files without it).
	 */
	bool has_bracket_correction;
	uint64_t bracket_correction_ns;
	char target_layer[MERGE_NAME_MAX];
	/*
	 * The GPU mode in effect, from the GPU files' "# gpu_mode=" lines:
	 * "" without GPU files, "unknown" for GPU files without the line.
	 */
	char gpu_mode[32];
	uint64_t gate_trips;             /* times pre's GPU gate tripped */
	/*
	 * Subtracted from target_gpu_us (README "GPU cost"): the mean, over the
	 * frames with a GPU value, of the bracket pre measured around an empty
	 * submission; has_... false when none was measured (older GPU files).
	 */
	bool has_gpu_bracket;
	uint64_t gpu_bracket_ns;
	bool has_gpu_raw; /* the session had GPU files: target_gpu_raw_us is written */
	/* gpu_mode and gate_trips are known (false: a merged file older than them). */
	bool has_gpu_info;

	/* The session had calls files (the every-function columns and counts exist). */
	bool has_calls;
	uint64_t calls_pre;             /* rows of pre's calls file: the app's calls */
	uint64_t calls_post;            /* rows of post's: the target's calls down the chain */
	uint64_t self_answered_calls;   /* pre calls with no post call inside */
	uint64_t induced_calls;         /* post calls inside a pre call, other than its forward */
	uint64_t own_thread_calls;      /* post calls inside no pre call of their thread */
	uint64_t calls_frames_unmapped; /* pre's frames (frame ids) no merged row maps to */
	uint64_t rows_without_calls;    /* merged rows whose xrEndFrame is not in the calls file */
	/* Calls a side's ring had no room for (its calls file's footer). */
	uint64_t calls_dropped_queue_full_pre;
	uint64_t calls_dropped_queue_full_post;
	/* Calls out of order in their file past the sandwich's bounds (merge/README.md "Calls"). */
	uint64_t calls_late;
	/* The phases both calls files record wholly (u_phase.h's set; XRLM_FUNCTIONS). */
	unsigned phases_recorded;
};

/*
 * Merges the per-side files into @p out_path: written to a temporary file in
 * the same directory (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644), then renamed
 * into place without replacing anything, so a reader never sees a half file.
 * Refuses to overwrite an existing @p out_path.
 *
 * @p log (may be NULL) gets "<file>:<line>: warning: ..." lines for
 * recoverable problems (a truncated last row); on failure it gets exactly one
 * more line, "<file>[:<line>]: error: ...", and the function returns -1.
 * Returns 0 on success. If @p summary is non-NULL it receives the statistics.
 */
int merge_files(const struct merge_paths *paths, const char *out_path,
                struct merge_summary *summary, merge_log_fn log, void *ctx);

/* Default sibling paths of a session's files; see merge_sibling_paths(). */
struct merge_siblings {
	char post_csv[MERGE_PATH_MAX];   /* ".../frames-<tag>-post.csv" */
	char gpu_pre_csv[MERGE_PATH_MAX];  /* "" unless the file exists */
	char gpu_post_csv[MERGE_PATH_MAX]; /* "" unless the file exists */
	char merged_csv[MERGE_PATH_MAX]; /* ".../frames-merged-<tag>.csv" */
	char calls_pre_csv[MERGE_PATH_MAX];  /* "" unless the file exists */
	char calls_post_csv[MERGE_PATH_MAX]; /* "" unless the file exists */
	char functions_csv[MERGE_PATH_MAX];  /* ".../functions-merged-<tag>.csv" */
};

/*
 * Derives the sibling paths from @p pre_csv, which must be named
 * ".../frames-<tag>-pre.csv": gpu-<tag>-pre.csv next to it (only if it
 * exists), frames-<tag>-post.csv and frames-merged-<tag>.csv next to it.
 * If @p post_csv is non-NULL, the post GPU file is looked for next to it
 * instead (named after its own tag). Returns 0, or -1 when a name does not
 * follow the pattern or a path would be too long.
 */
int merge_sibling_paths(const char *pre_csv, const char *post_csv, struct merge_siblings *out);

/*
 * The merge_paths of @p sib's session whose pre file is @p pre_csv: every
 * file @p sib found, NULL for those it did not (what the post layer's
 * in-process merge and `xrlm merge DIR` pass to merge_files()).
 */
void merge_paths_from_siblings(const struct merge_siblings *sib, const char *pre_csv,
                               struct merge_paths *out);

/*
 * The functions file that goes with the merged file @p merged_csv, into
 * @p out: functions-merged-<tag>.csv next to a frames-merged-<tag>.csv,
 * else @p merged_csv with its ".csv" (if any) replaced by
 * ".functions.csv". Returns 0, or -1 when it does not fit.
 */
int merge_functions_path(const char *merged_csv, char *out, size_t size);

/*
 * The warning for a session that has only one side's file of an optional
 * pair (@p kind: "GPU", "calls"), the same words in `xrlm merge`, the post
 * layer's merge and `xrlm trace`: "<that file>: warning: no <kind> file for
 * the <other> side; <@p consequence>", into @p msg. Returns false, @p msg
 * untouched, unless exactly one of @p pre and @p post is given (NULL or
 * "": absent).
 */
bool merge_one_side_warning(char *msg, size_t size, const char *kind, const char *pre,
                            const char *post, const char *consequence);

#endif /* XRLM_MERGE_H */
