/*
 * The statistics table `xrlm` prints (the layout of the seed's analyze.py):
 * µs with 2 decimals, percentages with 3, "(no samples)" for an empty
 * column, then the median frame interval with its rate in Hz.
 */
#ifndef XRLM_REPORT_H
#define XRLM_REPORT_H

#include <stdio.h>

#include "merge.h"

/* Prints the table of @p s to @p f. */
void rpt_print(FILE *f, const struct mrg_summary *s);

#endif /* XRLM_REPORT_H */
