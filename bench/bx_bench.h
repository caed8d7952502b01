/*
 * xrlm-bench-frames: the frame-thread benchmarks of bench/run. One mode per
 * process; the configuration (which layers, recording or not) comes from
 * the environment, so bench/run interleaves configurations as processes.
 */
#ifndef BX_BENCH_H
#define BX_BENCH_H

#include <stdbool.h>
#include <stdint.h>

struct bx_opts {
	uint64_t frames;  /* timed frames (cost) or frames up to the stop (stall) */
	uint64_t block;   /* frames per timed block; one clock read per block */
	uint64_t warmup;  /* untimed frames first */
	uint64_t gap_ms;  /* sleep between blocks, so the writer drains the ring */
	uint64_t after;   /* stall: most frames watched after the stop */
	bool wait_merge;  /* stall: watch until the merged CSV is in XRLM_OUTPUT_DIR */
	uint64_t hz;         /* paced: frames per second (0: unpaced) */
	uint64_t disturb_kb; /* paced: memory touched between frames */
	uint64_t threads;    /* paced: idle threads started first (at most 16) */
};

/* Per-frame time of blocks of wait/begin/end frames: "frame_ns ..." */
bool bx_run_cost(const struct bx_opts *o);

/*
 * Per-call time of frames of a 30-call mix at 1000 Hz, each frame's calls
 * timed as one block: "call_ns ..." (see bx_calls.c).
 */
bool bx_run_calls(const struct bx_opts *o);

/* Cost of two back-to-back clock reads, the same way: "clock_pair_ns ..." */
bool bx_run_clock(const struct bx_opts *o);

/* Memory through a long session, then every xrEndFrame around its stop. */
bool bx_run_stall(const struct bx_opts *o);

/* The fixed cost of a process: instance to running session, session end to
 * destroyed instance, process CPU time: "startup create_ns=.. destroy_ns=.." */
bool bx_run_startup(const struct bx_opts *o);

/* Every frame bracketed, hot or paced with the caches disturbed (bx_paced.c): "frame_ns ..." */
bool bx_run_paced(const struct bx_opts *o);

#endif /* BX_BENCH_H */
