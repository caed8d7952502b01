/*
 * Reading a merged CSV back: every `# key=value` summary line and every
 * row, through callbacks (merged_read_each(), for the tools that show a
 * merged file: stats, report, compare, xlsx); or straight into value
 * columns (merged_read(), for `xrlm stats`, which recomputes the
 * statistics from the rows themselves rather than trusting the summary).
 */
#ifndef XRLM_MERGED_READ_H
#define XRLM_MERGED_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "csvr.h"

/* One row of a merged CSV as read back; NAN where the cell is blank. */
struct merged_values {
	int64_t display_time;
	uint64_t thread_id;
	double frame_interval_us;
	double pre_us;
	double post_us;
	double target_us;
	double target_cpu_pct;
	double target_gpu_us;
	double target_gpu_pct;
	int gate_tripped; /* 0 or 1; -1 when blank or the file is older than the column */
};

/* What merged_read_each() calls; either callback may be NULL. */
struct merged_read_cb {
	/*
	 * Each `# key=value` line before the column header, in file order:
	 * @p key and @p value without blanks around them (value may be "").
	 * Return 0, or -1 after writing a message to @p msg.
	 */
	int (*summary)(void *ctx, const char *key, const char *value, char *msg, size_t msg_size);
	/* Each row, in file order. Return 0, or -1 after writing @p msg. */
	int (*row)(void *ctx, const struct merged_values *row, char *msg, size_t msg_size);
	/*
	 * Each row as the cells read (before row): the columns of the file's
	 * layout (given to columns()), bit c of @p present set when cell c is
	 * not blank. For tools that show every column as it is (xlsx).
	 */
	int (*cells)(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
	             size_t msg_size);
	/*
	 * Once, after the column header: the file's columns, names and kinds
	 * in file order (@p layout->ncols of them; static, valid after the
	 * read). A file may have any layout the merged CSV has had: fewer
	 * columns, or gate_tripped tenth instead of last (merged_write.h).
	 */
	void (*columns)(void *ctx, const struct csvr_format *layout);
};

/*
 * The merged CSV's newest and fullest layout: every column, names and
 * kinds in file order. Its first nine columns are every layout's.
 */
const struct csvr_format *merged_read_format(void);

/*
 * Reads the merged CSV @p path, calling @p cb with @p ctx. Returns 0, or
 * -1 with @p diag->error set ("<file>:<line>: error: ..."; a message from
 * a callback gets the file and line added). Warnings (a truncated last
 * row; rows that are not as many as the summary's frame_count says:
 * merged_rows_warning(); a summary key given twice, of which @p cb gets
 * the first only) are in @p diag.
 */
int merged_read_each(const char *path, const struct merged_read_cb *cb, void *ctx,
                     struct csvr_diag *diag);

/*
 * Whether a merged file @p path whose summary says frame_count=@p
 * frame_count (its text; NULL or "" without one) but that holds @p rows
 * rows deserves a warning: rows cut off or added (a copy cut short, two
 * files joined), or a frame_count that is not a count. The warning
 * ("<file>: warning: ...") goes into @p buf. merged_read_each() checks
 * this itself; for the tools that read merged files their own way.
 */
bool merged_rows_warning(const char *path, const char *frame_count, uint64_t rows, char *buf,
                         size_t size);

/*
 * Whether @p value is no gpu_mode a merged file's summary may hold (a GPU
 * file's mode, "unknown" or empty): then the reason goes in @p msg.
 * merged_read_each() checks this itself; for the tools that read merged
 * files their own way.
 */
bool merged_gpu_mode_bad(const char *value, char *msg, size_t msg_size);

/*
 * The frames of a merged file whose summary says frame_count=@p
 * frame_count (its text; NULL or "" without one) and that holds @p rows
 * rows: the summary's count (a cut copy lost rows, not frames of its
 * session), else, without one or when it is not a count, @p rows.
 */
uint64_t merged_frames(const char *frame_count, uint64_t rows);

/*
 * Reads the rows of the merged CSV @p path into @p out (created here;
 * release with columns_destroy() on success). Returns 0, or -1 with
 * @p diag->error set. Warnings (a truncated last row) are in @p diag.
 */
int merged_read(const char *path, struct columns *out, struct csvr_diag *diag);

/*
 * What `xrlm stats` shows of the merged CSV @p path: the statistics
 * recomputed from its rows, and the counts and names its summary lines
 * carry (unmatched_*, truncated_rows, dropped_*, gpu_ring_overflow_*,
 * target_layer, gpu_mode, gate_trips), into @p s. Returns 0, or -1 with
 * @p diag->error set. Warnings (a truncated last row) are in @p diag.
 */
int merged_read_stats(const char *path, struct merge_summary *s, struct csvr_diag *diag);

#endif /* XRLM_MERGED_READ_H */
