/*
 * The target's share of each xrEndFrame of a session recorded without
 * calls files, for `xrlm trace`'s target track (with calls files the
 * merge's own sandwich, calls_join.h, gives it): pre's frames rows
 * streamed in entry order against post's, spooled (trace_spool.h). A post
 * call belongs to the pre call that contains it on the same thread; the
 * target's exclusive time in a pre call is trace_target_exclusive(), the
 * rule of calls_join.h without nested pre calls (a frames file has none).
 *
 * The same for the GPU: pre's and post's timestamps of one frame (same
 * display_time, both files in submission order) bound the target's GPU
 * work.
 */
#ifndef XRLM_TRACE_TARGET_H
#define XRLM_TRACE_TARGET_H

#include "csvr.h"
#include "trace_read.h"
#include "trace_spool.h"

/* App threads with a call open at once; beyond, a call is closed early. */
#define TRACE_TARGET_THREADS 256

/* One pre call with the target's part of it. */
struct trace_target_slice {
	const char *fn;
	uint64_t thread_id;
	int64_t t_entry;
	int64_t dur_ns;
	int64_t frame_id;
	int64_t below_ns; /* post's calls inside it (the chain below the target) */
	int64_t target_ns; /* trace_target_exclusive() */
};

typedef void (*trace_target_fn)(void *ctx, const struct trace_target_slice *s);

struct trace_target_open {
	bool used;
	unsigned inside; /* post calls inside */
	struct trace_call call;
	char fn[CSVR_TEXT_MAX];
	int64_t below_ns;
};

struct trace_target {
	struct trace_spool *post; /* records {thread_id, t_entry, t_exit, -} in entry order */
	struct trace_spool_rec next;
	bool has_next;
	int64_t correction_ns; /* post's bracket_correction_ns, per post call inside */
	trace_target_fn emit;
	void *ctx;
	struct trace_target_open open[TRACE_TARGET_THREADS];
};

/*
 * The target's exclusive time in one pre call of @p pre_ns that contains
 * post calls of @p below_ns in all, @p inside of them, each bracket
 * overstating by @p correction_ns (README, "How the target's cost is
 * measured"). The one place the rule lives.
 */
int64_t trace_target_exclusive(int64_t pre_ns, int64_t below_ns, unsigned inside,
                               int64_t correction_ns);

/* Starts pairing against @p post (rewound). */
void trace_target_init(struct trace_target *t, struct trace_spool *post, int64_t correction_ns,
                       trace_target_fn emit, void *ctx);

/* The next pre call (entry order); slices come out as their calls close. */
void trace_target_pre(struct trace_target *t, const struct trace_call *pre);

/* No more pre calls: every open call is closed. */
void trace_target_finish(struct trace_target *t);

/* One frame's GPU timestamps on both sides. */
struct trace_gpu_pair {
	int64_t display_time;
	int64_t pre_ns, post_ns; /* CLOCK_MONOTONIC, when both are placed */
	bool placed;
	/* The merged file's target_gpu_raw_us and target_gpu_us (join.h's
	 * rules, pre's bracket above its timestamp); NAN where it is blank. */
	double raw_us, gpu_us;
};

/* Flags of a spooled GPU record's v[3]... */
#define TRACE_GPU_VALID 1
#define TRACE_GPU_PLACED 2
/* ...above which it holds the file's tick width (trace_gpu's valid_bits). */
#define TRACE_GPU_BITS_SHIFT 8

/*
 * Pairs pre's GPU timestamp @p pre with post's of the same frame from
 * @p post (records {display_time, ticks, t_ns, flags, period_ns's bits},
 * submission order). True with @p out filled when post has it, on a clock
 * of the same width (the ticks are subtracted modulo it, as the merge does:
 * join_gpu_raw_us(), join_gpu_correct()); the figures NAN where the two
 * periods differ, as the merged file's.
 */
bool trace_target_gpu(struct trace_spool *post, struct trace_spool_rec *next, bool *has_next,
                      const struct trace_gpu *pre, struct trace_gpu_pair *out);

#endif /* XRLM_TRACE_TARGET_H */
