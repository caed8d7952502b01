/*
 * The per-function table `xrlm merge` and `xrlm stats` print under the
 * statistics table: a functions-merged-<tag>.csv's rows, most target time
 * first, the first FUNCTIONS_TABLE_TOP of them or all.
 */
#ifndef XRLM_FUNCTIONS_TABLE_H
#define XRLM_FUNCTIONS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "csvr.h"

#define FUNCTIONS_TABLE_TOP 15

/*
 * Reads the functions file @p path of a merged file of @p merged_frames
 * frames and prints its table to @p f (every row when @p all). Returns 0,
 * or -1 with @p diag->error set (nothing printed). Warnings are in @p diag
 * (functions_read_each()).
 */
int functions_table_print(FILE *f, const char *path, uint64_t merged_frames, bool all,
                          struct csvr_diag *diag);

#endif /* XRLM_FUNCTIONS_TABLE_H */
