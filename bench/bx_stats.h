/* Order statistics of a series of samples (sorted in place). */
#ifndef BX_STATS_H
#define BX_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Sorts @p v ascending. */
void bx_sort(double *v, size_t n);

/* Percentile @p p (0..100) of sorted @p v, nearest rank; 0 when empty. */
double bx_pct(const double *v, size_t n, double p);

/* Prints "NAME n=.. p10=.. p25=.. p50=.. p75=.. min=.. max=.." of @p v (sorts it). */
void bx_print_series(const char *name, double *v, size_t n);

#endif /* BX_STATS_H */
