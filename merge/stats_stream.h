/*
 * The statistics of stats.h over a column too long to hold: the values
 * go to a spill (spill.h) in the order they come, the mean, minimum and
 * maximum are kept as they come (the same left-to-right sum), and the
 * percentiles are exact: the order statistics they need are found by
 * radix selection over the spilled values, 16 bits of an order-preserving
 * 64-bit key per pass: a histogram of the top 16 bits is kept as the values
 * are spilled; each later pass either counts the next 16 bits of the values
 * in the chosen bucket or, once the bucket holds at most STATS_STREAM_COLLECT
 * values, collects them and selects in memory. Usually one or two passes;
 * never more than four (after 64 bits the value is known).
 * A column that never outgrows its memory is summarised by stats_compute()
 * itself. Same results, bit for bit, as stats_compute() on all the values.
 */
#ifndef XRLM_STATS_STREAM_H
#define XRLM_STATS_STREAM_H

#include <stdint.h>

#include "spill.h"
#include "stats.h"

/* Values held in memory per column before they spill to the file. */
#define STATS_STREAM_MEM (1u << 17)
/* A bucket of at most this many values is collected and selected in memory. */
#define STATS_STREAM_COLLECT (1u << 16)

struct stats_stream {
	struct spill values;
	double sum, lo, hi;
	uint32_t *hist; /* top 16 bits of the spilled values' keys; allocated at the first spill */
	int error;      /* errno of a failed spill, or ENOMEM */
};

/* Prepares @p s; values beyond memory go to @p dir (borrowed, NULL: $TMPDIR). Returns 0 or -1. */
int stats_stream_init(struct stats_stream *s, const char *dir);

/* Adds one value (never NaN). Returns 0, or -1 (s->error set). */
int stats_stream_add(struct stats_stream *s, double v);

/* Adds @p n values in order (never NaN), as many stats_stream_add(). */
int stats_stream_add_n(struct stats_stream *s, const double *v, size_t n);

/* Fills @p out. Returns 0, or -1 (s->error set: a spill failed). */
int stats_stream_compute(struct stats_stream *s, struct stats_summary *out);

/* Frees the memory and the file. */
void stats_stream_destroy(struct stats_stream *s);

#endif /* XRLM_STATS_STREAM_H */
