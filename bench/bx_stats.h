/*
 * The benchmark program's summary line of a series of samples. Percentiles
 * are xrlm's (merge/stats.h: linear interpolation between closest ranks),
 * so bench figures and `xrlm` summaries of the same samples agree.
 */
#ifndef BX_STATS_H
#define BX_STATS_H

#include <stddef.h>

/*
 * Prints "NAME n=.. p10=.. p25=.. p50=.. p75=.. min=.. max=.. p90=.. p99=..
 * mean=.." of @p v (reorders it).
 */
void bx_print_series(const char *name, double *v, size_t n);

#endif /* BX_STATS_H */
