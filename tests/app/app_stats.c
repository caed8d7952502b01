/*
 * Sample series and their summaries (xrlm's percentiles, see app_stats.h).
 */
#include "app_stats.h"

#include "stats.h"

#include <stdlib.h>

bool app_series_create(struct app_series *s, const char *name, size_t cap)
{
	s->name = name;
	s->count = 0;
	s->cap = cap;
	s->v = calloc(cap ? cap : 1, sizeof(*s->v));
	return s->v != NULL;
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

bool app_stats_create(struct app_stats *st, uint64_t frames, uint64_t warmup)
{
	*st = (struct app_stats){.warmup = warmup, .frames = frames};
	size_t cap = (size_t)(frames - warmup);
	return app_series_create(&st->endframe_cpu, "endframe_cpu_ns", cap) &&
	       app_series_create(&st->endframe_gpu, "endframe_gpu_ns", cap) &&
	       app_series_create(&st->frame_interval, "frame_interval_ns", cap) &&
	       app_series_create(&st->gpu_load, "app_gpu_load_ns", cap);
}

void app_stats_destroy(struct app_stats *st)
{
	app_series_destroy(&st->endframe_cpu);
	app_series_destroy(&st->endframe_gpu);
	app_series_destroy(&st->frame_interval);
	app_series_destroy(&st->gpu_load);
}

static bool measured(const struct app_stats *st, uint64_t frame)
{
	return frame >= st->warmup && frame < st->frames;
}

void app_stats_cpu(struct app_stats *st, uint64_t frame, uint64_t entry_ns, uint64_t exit_ns)
{
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
}
