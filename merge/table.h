/*
 * The statistics table `xrlm` prints (the layout of the seed's analyze.py):
 * µs with 2 decimals, percentages with 3, "(no samples)" for an empty
 * column, then the median frame interval with its rate in Hz.
 */
#ifndef XRLM_TABLE_H
#define XRLM_TABLE_H

#include <stdio.h>

#include "merge.h"

/* Prints the table of @p s to @p f. */
void table_print(FILE *f, const struct merge_summary *s);

#endif /* XRLM_TABLE_H */
