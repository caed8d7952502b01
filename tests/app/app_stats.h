/*
 * Samples the test app collects (nanoseconds) and their summary lines:
 *   NAME count=C mean=M p50=P p95=P p99=P min=M max=M
 * Percentiles are xrlm's (merge/stats.h: linear interpolation between
 * closest ranks), so the app and `xrlm` give the same figures for the same
 * samples; every figure is rounded to whole nanoseconds.
 */
#ifndef APP_STATS_H
#define APP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One named series of samples with a fixed capacity. */
struct app_series {
	const char *name;
	double *v; /* exact: whole nanoseconds below 2^53 */
	size_t count;
	size_t cap;
};

/* Allocates room for @p cap samples. False if out of memory. */
bool app_series_create(struct app_series *s, const char *name, size_t cap);

/* Frees the samples. */
void app_series_destroy(struct app_series *s);

/* Adds a sample; samples beyond the capacity are dropped. */
void app_series_add(struct app_series *s, uint64_t ns);

/* Prints the summary line (reorders the samples). With no samples: "NAME count=0". */
void app_series_print(struct app_series *s, FILE *f);

/*
 * The frame loop's OpenXR calls the app times with --stats, each its own
 * series "<function>_ns" (xrEndFrame is endframe_cpu_ns).
 */
enum app_call {
	APP_CALL_WAIT_FRAME,
	APP_CALL_BEGIN_FRAME,
	APP_CALL_SYNC_ACTIONS,
	APP_CALL_GET_ACTION_STATE_BOOLEAN,
	APP_CALL_GET_ACTION_STATE_FLOAT,
	APP_CALL_GET_ACTION_STATE_VECTOR2F,
	APP_CALL_GET_ACTION_STATE_POSE,
	APP_CALL_LOCATE_SPACE,
	APP_CALL_LOCATE_VIEWS,
	APP_CALL_ACQUIRE_SWAPCHAIN_IMAGE,
	APP_CALL_WAIT_SWAPCHAIN_IMAGE,
	APP_CALL_RELEASE_SWAPCHAIN_IMAGE,
	APP_CALL_COUNT
};

/* Everything measured, restricted to frames [warmup, frames). */
struct app_stats {
	uint64_t warmup;
	uint64_t frames;
	struct app_series endframe_cpu;
	struct app_series endframe_gpu;
	struct app_series frame_interval;
	struct app_series gpu_load; /* --gpu-us: the load's own duration */
	bool load_on;               /* print gpu_load (set by app_load.c) */
	struct app_series calls[APP_CALL_COUNT];
	uint64_t last_entry_ns; /* previous xrEndFrame entry, 0 before the first */
	/* Page faults the frame threads took in the measured frames. */
	uint64_t frame_faults;
	uint64_t faults_at_start; /* the frame thread's count when the current frame began */
};

/* Sets up the series for frames [@p warmup, @p frames). */
bool app_stats_create(struct app_stats *st, uint64_t frames, uint64_t warmup);

/* Frees the series. */
void app_stats_destroy(struct app_stats *st);

/* Notes where frame @p frame begins, on its thread (its page faults count from here). */
void app_stats_frame_start(struct app_stats *st, uint64_t frame);

/*
 * Records frame @p frame's xrEndFrame CPU bracket [@p entry_ns, @p exit_ns],
 * and the page faults its thread took since app_stats_frame_start().
 */
void app_stats_cpu(struct app_stats *st, uint64_t frame, uint64_t entry_ns, uint64_t exit_ns);

/* Records frame @p frame's GPU bracket (ns). */
void app_stats_gpu(struct app_stats *st, uint64_t frame, uint64_t ns);

/* Records frame @p frame's app GPU load, measured by its own timestamps (ns). */
void app_stats_load(struct app_stats *st, uint64_t frame, uint64_t ns);

/* CLOCK_MONOTONIC now, in ns: the clock of every bracket. */
uint64_t app_now_ns(void);

/* Records one call of @p call in frame @p frame, from @p entry_ns to now. */
void app_stats_call(struct app_stats *st, uint64_t frame, enum app_call call, uint64_t entry_ns);

/*
 * APP_XR(call) (app_check.h), timed into --stats as @p call_id of frame @p frame:
 * APP_XR_TIMED(app, APP_CALL_SYNC_ACTIONS, xrSyncActions(...)).
 */
#define APP_XR_TIMED(st, frame, call_id, call)                            \
	({                                                                \
		uint64_t t0_ = app_now_ns();                              \
		XrResult r_ = (call);                                     \
		app_stats_call((st), (frame), (call_id), t0_);            \
		app_xr_ok(r_, #call);                                     \
	})

/* Prints all summary lines to @p f (app_gpu_load_ns only with --gpu-us). */
void app_stats_print(struct app_stats *st, FILE *f);

#endif /* APP_STATS_H */
