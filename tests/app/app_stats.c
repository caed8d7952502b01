/*
 * Sample series and their summaries (xrlm's percentiles, see app_stats.h).
 */
#include "app_stats.h"

#include <sys/resource.h>

#include "stats.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

bool app_series_create(struct app_series *s, const char *name, size_t cap)
{
	s->name = name;
	s->count = 0;
	s->cap = cap;
	size_t bytes = (cap ? cap : 1) * sizeof(*s->v);
	s->v = malloc(bytes);
	if (!s->v)
		return false;
	/* Written now, not in the frame loop: its page faults are not the layers'. */
	explicit_bzero(s->v, bytes); /* never turned into calloc */
	return true;
}

void app_series_destroy(struct app_series *s)
{
	free(s->v);
	s->v = NULL;
}

void app_series_add(struct app_series *s, uint64_t ns)
{
	if (s->count < s->cap)
		s->v[s->count++] = (double)ns;
}

void app_series_print(struct app_series *s, FILE *f)
{
	if (s->count == 0) {
		fprintf(f, "%s count=0\n", s->name);
		return;
	}
	struct stats_summary sum;
	stats_compute(s->v, s->count, &sum);
	fprintf(f, "%s count=%zu mean=%.0f p50=%.0f p95=%.0f p99=%.0f min=%.0f max=%.0f\n", s->name,
	        s->count, sum.mean, sum.median, sum.p95, sum.p99, sum.min, sum.max);
}

/* Series names, and the most calls per frame of the app's loop (app_input.c). */
static const struct {
	const char *name;
	size_t per_frame;
} call_series[APP_CALL_COUNT] = {
	[APP_CALL_WAIT_FRAME] = {"xrWaitFrame_ns", 1},
	[APP_CALL_BEGIN_FRAME] = {"xrBeginFrame_ns", 1},
	[APP_CALL_SYNC_ACTIONS] = {"xrSyncActions_ns", 1},
	[APP_CALL_GET_ACTION_STATE_BOOLEAN] = {"xrGetActionStateBoolean_ns", 4},
	[APP_CALL_GET_ACTION_STATE_FLOAT] = {"xrGetActionStateFloat_ns", 4},
	[APP_CALL_GET_ACTION_STATE_VECTOR2F] = {"xrGetActionStateVector2f_ns", 2},
	[APP_CALL_GET_ACTION_STATE_POSE] = {"xrGetActionStatePose_ns", 4},
	[APP_CALL_LOCATE_SPACE] = {"xrLocateSpace_ns", 6},
	[APP_CALL_LOCATE_VIEWS] = {"xrLocateViews_ns", 1},
	[APP_CALL_ACQUIRE_SWAPCHAIN_IMAGE] = {"xrAcquireSwapchainImage_ns", 1},
	[APP_CALL_WAIT_SWAPCHAIN_IMAGE] = {"xrWaitSwapchainImage_ns", 1},
	[APP_CALL_RELEASE_SWAPCHAIN_IMAGE] = {"xrReleaseSwapchainImage_ns", 1},
};

/* Samples kept per call series at most: a long run with --stats stays small. */
#define APP_CALL_SAMPLES_MAX (1u << 20)

bool app_stats_create(struct app_stats *st, uint64_t frames, uint64_t warmup)
{
	*st = (struct app_stats){.warmup = warmup, .frames = frames};
	size_t cap = (size_t)(frames - warmup);
	bool ok = app_series_create(&st->endframe_cpu, "endframe_cpu_ns", cap) &&
	          app_series_create(&st->endframe_gpu, "endframe_gpu_ns", cap) &&
	          app_series_create(&st->frame_interval, "frame_interval_ns", cap) &&
	          app_series_create(&st->gpu_load, "app_gpu_load_ns", cap);
	for (int c = 0; ok && c < APP_CALL_COUNT; c++) {
		size_t n = cap * call_series[c].per_frame;
		ok = app_series_create(&st->calls[c], call_series[c].name,
		                       n < APP_CALL_SAMPLES_MAX ? n : APP_CALL_SAMPLES_MAX);
	}
	return ok;
}

void app_stats_destroy(struct app_stats *st)
{
	app_series_destroy(&st->endframe_cpu);
	app_series_destroy(&st->endframe_gpu);
	app_series_destroy(&st->frame_interval);
	app_series_destroy(&st->gpu_load);
	for (int c = 0; c < APP_CALL_COUNT; c++)
		app_series_destroy(&st->calls[c]);
}

uint64_t app_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool measured(const struct app_stats *st, uint64_t frame)
{
	return frame >= st->warmup && frame < st->frames;
}

/* The calling thread's page faults so far (minor and major). */
static uint64_t thread_faults(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

void app_stats_frame_start(struct app_stats *st, uint64_t frame)
{
	if (measured(st, frame))
		st->faults_at_start = thread_faults();
}

void app_stats_cpu(struct app_stats *st, uint64_t frame, uint64_t entry_ns, uint64_t exit_ns)
{
	/* The frame's thread is the one it started on. */
	if (measured(st, frame))
		st->frame_faults += thread_faults() - st->faults_at_start;
	/* The interval ending at a measured frame; the first one needs a
	 * previous frame, so a run without warm-up has one interval fewer. */
	if (measured(st, frame) && st->last_entry_ns)
		app_series_add(&st->frame_interval, entry_ns - st->last_entry_ns);
	st->last_entry_ns = entry_ns;
	if (measured(st, frame))
		app_series_add(&st->endframe_cpu, exit_ns - entry_ns);
}

void app_stats_gpu(struct app_stats *st, uint64_t frame, uint64_t ns)
{
	if (measured(st, frame))
		app_series_add(&st->endframe_gpu, ns);
}

void app_stats_call(struct app_stats *st, uint64_t frame, enum app_call call, uint64_t entry_ns)
{
	if (measured(st, frame))
		app_series_add(&st->calls[call], app_now_ns() - entry_ns);
}

void app_stats_load(struct app_stats *st, uint64_t frame, uint64_t ns)
{
	if (measured(st, frame))
		app_series_add(&st->gpu_load, ns);
}

void app_stats_print(struct app_stats *st, FILE *f)
{
	app_series_print(&st->endframe_cpu, f);
	app_series_print(&st->endframe_gpu, f);
	app_series_print(&st->frame_interval, f);
	if (st->load_on)
		app_series_print(&st->gpu_load, f);
	for (int c = 0; c < APP_CALL_COUNT; c++)
		app_series_print(&st->calls[c], f);
}
