/*
 * The target's self-measured GPU work, one sample per finished frame, kept
 * in memory (no I/O in xrEndFrame) for the session-end summary and the
 * XRTEST_TARGET_GPU_LOG CSV.
 */
#ifndef TT_SAMPLES_H
#define TT_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frames left out of the summary while the controller settles. */
#define TT_SAMPLES_SETTLE 16

struct tt_sample {
	int64_t display_time; /* XrFrameEndInfo::displayTime of the frame */
	uint64_t ns;          /* its measured GPU work */
};

struct tt_samples {
	struct tt_sample *v;
	size_t count;
	size_t cap;
	bool full_logged; /* out of memory or at the cap: logged once */
};

/* Appends one sample (a gw_sample_fn; @p ctx is the struct tt_samples). */
void tt_samples_add(void *ctx, uint64_t display_time, uint64_t ns);

/* Logs "GPU work: requested R us, measured median M us, p5 .. p95 .. over N frames". */
void tt_samples_log_summary(const struct tt_samples *s, uint64_t requested_us);

/*
 * Writes "display_time,target_gpu_ns" rows to @p path: the first call in
 * the process truncates, later sessions append. Logs failures.
 */
void tt_samples_write_csv(const struct tt_samples *s, const char *path);

/* Frees the samples. */
void tt_samples_free(struct tt_samples *s);

#endif /* TT_SAMPLES_H */
