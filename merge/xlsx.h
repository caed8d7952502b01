/*
 * `xrlm xlsx`: a merged CSV as a spreadsheet workbook (libxlsxwriter).
 *
 * Sheets, in this order:
 *  - Summary: the merged file's `# key=value` lines, one a row: bare
 *    numbers as numbers, `N%` values as the number N/100 shown with a
 *    percent format, other text as text, empty values as empty cells;
 *  - Frames: the column header (frozen) and one row per frame, numbers as
 *    numbers, blank cells blank. A sheet holds at most rows_per_sheet
 *    frames (xlsx's limit is 1,048,576 rows with the header); further
 *    frames go on "Frames 2", "Frames 3", ..., each with its header;
 *  - Functions, when the sibling functions-merged-<tag>.csv exists;
 *  - Charts: target_us and target_gpu_us over frames (a line chart of the
 *    first Frames sheet) and their histograms (column charts over the bin
 *    table on the same sheet, see histogram.h).
 *
 * Integers beyond 2^53 (which a double cannot hold exactly) are written as
 * text, so no digit is lost.
 */
#ifndef XRLM_XLSX_H
#define XRLM_XLSX_H

#include <stdint.h>

#include "merge.h"

/* Most frames one Frames sheet holds: xlsx's row limit less the header. */
#define XLSX_MAX_ROWS_PER_SHEET 1048575u

/* What to write. */
struct xlsx_job {
	const char *merged_csv;    /* input */
	const char *functions_csv; /* input, or NULL: no Functions sheet */
	const char *out_path;      /* the workbook; never replaced */
	uint32_t rows_per_sheet;   /* 1..XLSX_MAX_ROWS_PER_SHEET */
};

/* What was written, for the command's report. */
struct xlsx_result {
	uint64_t frames;
	unsigned frame_sheets;
	uint64_t functions; /* rows on the Functions sheet */
};

/*
 * Writes the workbook of @p job to a temporary file next to out_path and
 * renames it into place without replacing anything. On failure removes the
 * temporary file, sends exactly one "<file>[:<line>]: error: ..." line to
 * @p log and returns -1; warnings (a truncated last row) go to @p log too.
 * Returns 0 on success with @p result filled.
 */
int xlsx_write(const struct xlsx_job *job, struct xlsx_result *result, merge_log_fn log,
               void *ctx);

#endif /* XRLM_XLSX_H */
