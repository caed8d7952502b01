/*
 * Value columns for the statistics; see columns.h.
 */
#include "columns.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int columns_create(struct columns *c, size_t cap)
{
	memset(c, 0, sizeof(*c));
	if (cap == 0)
		cap = 1024;
	/* Large arrays are mmap'ed by malloc: pages a column never fills
	 * (no GPU data, say) cost no memory. */
	for (int i = 0; i < COLUMNS_COUNT; i++) {
		c->v[i] = malloc(cap * sizeof(double));
		if (!c->v[i]) {
			columns_destroy(c);
			return -1;
		}
	}
	c->cap = cap;
	return 0;
}

int columns_create_stream(struct columns *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->streaming = true;
	for (int i = 0; i < COLUMNS_COUNT; i++) {
		if (stats_stream_init(&c->s[i], dir) != 0) {
			columns_destroy(c);
			return -1;
		}
	}
	return 0;
}

void columns_destroy(struct columns *c)
{
	for (int i = 0; i < COLUMNS_COUNT; i++) {
		free(c->v[i]);
		if (c->streaming)
			stats_stream_destroy(&c->s[i]);
	}
	memset(c, 0, sizeof(*c));
}

static int columns_grow(struct columns *c)
{
	size_t cap = c->cap * 2;

	for (int i = 0; i < COLUMNS_COUNT; i++) {
		double *p = realloc(c->v[i], cap * sizeof(double));
		if (!p)
			return -1;
		c->v[i] = p;
	}
	c->cap = cap;
	return 0;
}

static void push(struct columns *c, enum columns_id id, double v)
{
	if (isnan(v))
		return;
	if (!c->streaming)
		c->v[id][c->n[id]++] = v;
	else if (stats_stream_add(&c->s[id], v) != 0 && !c->error)
		c->error = c->s[id].error;
}

int columns_add(struct columns *c, double cpu_us, double cpu_pct, double gpu_us,
                double gpu_pct, double interval_us)
{
	if (!c->streaming && c->rows >= c->cap && columns_grow(c) != 0)
		return -1;
	c->rows++;
	if (cpu_us < 0)
		c->negative_cpu++;
	push(c, COLUMNS_CPU_US, cpu_us);
	push(c, COLUMNS_CPU_PCT, cpu_pct);
	push(c, COLUMNS_GPU_US, gpu_us);
	push(c, COLUMNS_GPU_PCT, gpu_pct);
	push(c, COLUMNS_INTERVAL_US, interval_us);
	return c->error ? -1 : 0;
}

/* A share of the columns to summarize, possibly on another thread. */
struct columns_job {
	struct columns *c;
	struct stats_summary *out[COLUMNS_COUNT];
	int first, last; /* columns [first, last) */
	int ret;
};

static void *summarize_job(void *arg)
{
	struct columns_job *job = arg;

	for (int i = job->first; i < job->last; i++) {
		if (!job->c->streaming)
			stats_compute(job->c->v[i], job->c->n[i], job->out[i]);
		else if (stats_stream_compute(&job->c->s[i], job->out[i]) != 0)
			job->ret = -1;
	}
	return NULL;
}

int columns_summarize(struct columns *c, struct merge_summary *s)
{
	struct columns_job job = {.c = c,
	                       .out = {
	                               [COLUMNS_CPU_US] = &s->target_cpu_us,
	                               [COLUMNS_CPU_PCT] = &s->target_cpu_pct,
	                               [COLUMNS_GPU_US] = &s->target_gpu_us,
	                               [COLUMNS_GPU_PCT] = &s->target_gpu_pct,
	                               [COLUMNS_INTERVAL_US] = &s->frame_interval_us,
	                       }};
	struct columns_job a = job, b = job;
	pthread_t thread;

	s->frame_count = c->rows;
	s->gpu_frame_count = c->streaming ? c->s[COLUMNS_GPU_US].values.count : c->n[COLUMNS_GPU_US];
	s->negative_target_frames = c->negative_cpu;

	/* The selections are independent: split them over two threads for
	 * large inputs (the results do not depend on the split). */
	a.first = 0;
	a.last = COLUMNS_GPU_US;
	b.first = COLUMNS_GPU_US;
	b.last = COLUMNS_COUNT;
	bool threaded = c->rows > 100000 && pthread_create(&thread, NULL, summarize_job, &a) == 0;
	if (!threaded)
		summarize_job(&a);
	summarize_job(&b);
	if (threaded)
		pthread_join(thread, NULL);

	double median = s->frame_interval_us.median;
	s->frame_rate_hz = median > 0 ? 1e6 / median : 0;
	if (a.ret || b.ret) {
		for (int i = 0; i < COLUMNS_COUNT && c->streaming && !c->error; i++)
			c->error = c->s[i].error;
		return -1;
	}
	return 0;
}
