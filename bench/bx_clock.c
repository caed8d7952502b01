/*
 * The physical floor of a bracket: two back-to-back CLOCK_MONOTONIC reads,
 * timed in blocks exactly as the frames are (bx_cost.c).
 */
#include "bx_bench.h"

#include "bx_stats.h"
#include "bx_time.h"

#include <stdlib.h>

/* Kept out of registers' reach: the compiler must do every read. */
static volatile uint64_t sink;

bool bx_run_clock(const struct bx_opts *o)
{
	size_t blocks = o->frames / o->block;
	double *per_pair = calloc(blocks ? blocks : 1, sizeof(*per_pair));
	if (!per_pair)
		return false;
	for (size_t b = 0; b < blocks; b++) {
		uint64_t t0 = bx_now_ns();
		for (uint64_t i = 0; i < o->block; i++)
			sink = bx_now_ns() - bx_now_ns();
		per_pair[b] = (double)(bx_now_ns() - t0) / (double)o->block;
	}
	bx_print_series("clock_pair_ns", per_pair, blocks);
	free(per_pair);
	return true;
}
