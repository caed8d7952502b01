/*
 * Frame-thread cost: blocks of frames timed with one clock read per block,
 * so no per-call bracket adds its own cost or noise. The difference of two
 * configurations' per-frame times is what the layers cost.
 */
#include "bx_bench.h"

#include "bx_session.h"
#include "bx_stats.h"
#include "bx_time.h"

#include <stdio.h>
#include <stdlib.h>

static bool run_frames(struct bx_session *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (!bx_session_frame(s, NULL))
			return false;
	return true;
}

static bool time_blocks(struct bx_session *s, const struct bx_opts *o, double *per_frame,
                        size_t blocks)
{
	for (size_t b = 0; b < blocks; b++) {
		uint64_t t0 = bx_now_ns();
		if (!run_frames(s, o->block))
			return false;
		per_frame[b] = (double)(bx_now_ns() - t0) / (double)o->block;
		/* Outside the timed block: events, and time for the writer. */
		if (!bx_session_poll(s))
			return false;
		bx_sleep_ms(o->gap_ms);
	}
	return true;
}

bool bx_run_cost(const struct bx_opts *o)
{
	size_t blocks = o->frames / o->block;
	double *per_frame = calloc(blocks ? blocks : 1, sizeof(*per_frame));
	struct bx_session s = {0};
	bool ok = per_frame && bx_session_create(&s);
	ok = ok && run_frames(&s, o->warmup) && bx_session_poll(&s);
	ok = ok && time_blocks(&s, o, per_frame, blocks);
	bx_session_destroy(&s);
	if (ok)
		bx_print_series("frame_ns", per_frame, blocks);
	free(per_frame);
	return ok;
}
