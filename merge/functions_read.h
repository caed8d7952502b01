/*
 * Reading functions-merged-<tag>.csv back: one row per OpenXR function,
 * FUNCTIONS_HEADER's columns, with `#` lines (before the header or after
 * the rows) ignored but the `# frame_count=` line above the header (checked
 * against the merged file's), and blank cells allowed where a statistic does not
 * exist. Files without the last two columns (induced_us, own_thread_us)
 * are read too.
 */
#ifndef XRLM_FUNCTIONS_READ_H
#define XRLM_FUNCTIONS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csvr.h"

/* The column header line (without newline). */
#define FUNCTIONS_HEADER                                                                       \
	"fn,phase,calls,calls_per_frame,target_total_us,target_mean_us,target_p50_us,"        \
	"target_p99_us,target_max_us,share_pct,induced_calls,own_thread_calls,induced_us,"    \
	"own_thread_us"

/* The columns' indices, in FUNCTIONS_HEADER's order. */
enum functions_col {
	FUNCTIONS_COL_FN,
	FUNCTIONS_COL_PHASE,
	FUNCTIONS_COL_CALLS,
	FUNCTIONS_COL_PER_FRAME,
	FUNCTIONS_COL_TOTAL,
	FUNCTIONS_COL_MEAN,
	FUNCTIONS_COL_P50,
	FUNCTIONS_COL_P99,
	FUNCTIONS_COL_MAX,
	FUNCTIONS_COL_SHARE,
	FUNCTIONS_COL_INDUCED,
	FUNCTIONS_COL_OWN_THREAD,
};

/* The columns every functions file has (files before induced_us/own_thread_us). */
#define FUNCTIONS_MIN_COLUMNS 12

/* Called for each row with the cells of functions_read_format(). Return 0, or -1 after setting @p msg. */
typedef int (*functions_read_fn)(void *ctx, const union csvr_value *values, uint32_t present,
                                 char *msg, size_t msg_size);

/* The file's columns (names and kinds), in file order. */
const struct csvr_format *functions_read_format(void);

/* No merged file to check a functions file's frame count against. */
#define FUNCTIONS_FRAMES_UNKNOWN UINT64_MAX

/*
 * Reads @p path, calling @p row with @p ctx for each row. Returns 0, or -1
 * with @p diag->error set ("<file>:<line>: error: ..."). Warnings are in
 * @p diag: a truncated last row; a file whose `# frame_count=` line is
 * missing, not a count, or not @p merged_frames (the frames of the merged
 * file it is shown with; FUNCTIONS_FRAMES_UNKNOWN: not compared), i.e.
 * another session's table; shares that do not add up to 100 (rows cut
 * off or added).
 */
int functions_read_each(const char *path, uint64_t merged_frames, functions_read_fn row,
                        void *ctx, struct csvr_diag *diag);

/*
 * Reads @p path as functions_read_each() does, keeping nothing: for
 * readers of their own (`xrlm report`'s ncsv) that must refuse what
 * `xrlm stats` refuses, the wrong header first, and warn where it warns.
 * Returns 0, or -1 with @p diag->error set; warnings in @p diag.
 */
int functions_read_check(const char *path, uint64_t merged_frames, struct csvr_diag *diag);

/*
 * The functions file of the merged file @p merged (merge_functions_path():
 * functions-merged-<tag>.csv next to a frames-merged-<tag>.csv) into
 * @p buf. Returns true when that file exists.
 */
bool functions_read_sibling(const char *merged, char *buf, size_t size);

#endif /* XRLM_FUNCTIONS_READ_H */
