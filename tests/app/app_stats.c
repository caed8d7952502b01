/*
 * Sample series and their summaries (nearest-rank percentiles).
 */
#include "app_stats.h"

#include <inttypes.h>
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
		s->v[s->count++] = ns;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Nearest rank: the smallest sample with at least @p pct % at or below it. */
static uint64_t percentile(const struct app_series *s, unsigned pct)
{
	size_t rank = (s->count * pct + 99) / 100;
	return s->v[rank ? rank - 1 : 0];
}

void app_series_print(struct app_series *s, FILE *f)
{
	if (s->count == 0) {
		fprintf(f, "%s count=0\n", s->name);
		return;
	}
	qsort(s->v, s->count, sizeof(*s->v), cmp_u64);
	double sum = 0;
	for (size_t i = 0; i < s->count; i++)
		sum += (double)s->v[i];
	fprintf(f,
	        "%s count=%zu mean=%.0f p50=%" PRIu64 " p95=%" PRIu64 " p99=%" PRIu64
	        " min=%" PRIu64 " max=%" PRIu64 "\n",
	        s->name, s->count, sum / (double)s->count, percentile(s, 50), percentile(s, 95),
	        percentile(s, 99), s->v[0], s->v[s->count - 1]);
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
