/*
 * Joining pre and post rows of one session.
 *
 * CPU rows are joined on (display_time, thread_id), GPU rows on
 * display_time. Both sides are almost always written in the same order, so
 * the join walks them in step and only falls back to a hash index (built on
 * first need) for rows that are out of step. A key that appears more than
 * once is matched first-to-first, in file order.
 */
#ifndef XRLM_JOIN_H
#define XRLM_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "side_cpu.h"
#include "side_gpu.h"

#define JOIN_NONE UINT32_MAX

/* The join of one session, indexed by pre CPU row. Owns its arrays. */
struct join_result {
	size_t count;    /* pre CPU rows */
	uint32_t *match; /* post CPU row of each pre row, or JOIN_NONE */
	uint32_t *next;  /* the next pre row (the session's next frame), or JOIN_NONE */
	double *gpu_us;  /* target GPU µs (3 decimals), bracket corrected, or NAN; NULL: no GPU */
	double *gpu_raw_us;  /* the same before the correction */
	double gpu_bracket_ns_sum; /* over gpu_bracket_frames frames with a GPU value */
	uint64_t gpu_bracket_frames;
	uint64_t matched;
	uint64_t gpu_matched; /* matched frames with a row in both GPU files */
	uint64_t unmatched_pre;
	uint64_t unmatched_post;
};

/* Joins the CPU rows and links each row to the next frame. Returns 0, -1 on ENOMEM. */
int join_cpu(const struct side_cpu_file *pre, const struct side_cpu_file *post,
             struct join_result *out);

/*
 * The bracket correction of one frame (README "GPU cost"): @p raw_us less
 * the bracket pre measured around an empty submission, @p bracket_ns, and
 * never below 0 (a target that submits nothing adds no boundaries: its raw
 * reading is below the bracket). Rounded as written; NAN stays NAN.
 */
double join_gpu_correct(double raw_us, double bracket_ns);

/*
 * Fills out->gpu_us (corrected) and out->gpu_raw_us for every matched pre
 * row from the two GPU files: blank
 * (NAN) when a side has no row, either row is invalid, the periods differ or
 * post's ticks are below pre's. Returns 0, -1 on ENOMEM.
 */
int join_gpu(const struct side_cpu_file *pre, const struct side_gpu_file *gpu_pre,
             const struct side_gpu_file *gpu_post, struct join_result *out);

/* Frees the arrays of @p j. */
void join_result_destroy(struct join_result *j);

#endif /* XRLM_JOIN_H */
