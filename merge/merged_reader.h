/*
 * Reading a merged CSV back (for `xrlm stats`): the summary lines are
 * skipped, the column header must match, and every row's values go into
 * value columns, so the statistics are recomputed from the rows themselves.
 */
#ifndef XRLM_MERGED_READER_H
#define XRLM_MERGED_READER_H

#include "columns.h"
#include "csv_reader.h"

/*
 * Reads the rows of the merged CSV @p path into @p out (created here;
 * release with cols_destroy() on success). Returns 0, or -1 with
 * @p diag->error set. Warnings (a truncated last row) are in @p diag.
 */
int mrd_read(const char *path, struct cols *out, struct csvr_diag *diag);

#endif /* XRLM_MERGED_READER_H */
