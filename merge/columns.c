/*
 * Value columns for the statistics; see columns.h.
 */
#include "columns.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int cols_create(struct cols *c, size_t cap)
{
	memset(c, 0, sizeof(*c));
	if (cap == 0)
		cap = 1024;
	/* Large arrays are mmap'ed by malloc: pages a column never fills
	 * (no GPU data, say) cost no memory. */
	for (int i = 0; i < COLS_COUNT; i++) {
		c->v[i] = malloc(cap * sizeof(double));
		if (!c->v[i]) {
			cols_destroy(c);
			return -1;
		}
	}
	c->cap = cap;
	return 0;
}

void cols_destroy(struct cols *c)
{
	for (int i = 0; i < COLS_COUNT; i++)
		free(c->v[i]);
	memset(c, 0, sizeof(*c));
}

static int cols_grow(struct cols *c)
{
	size_t cap = c->cap * 2;

	for (int i = 0; i < COLS_COUNT; i++) {
		double *p = realloc(c->v[i], cap * sizeof(double));
		if (!p)
			return -1;
		c->v[i] = p;
	}
	c->cap = cap;
	return 0;
}

static void push(struct cols *c, enum cols_id id, double v)
{
	if (!isnan(v))
		c->v[id][c->n[id]++] = v;
}

int cols_add(struct cols *c, double cpu_us, double cpu_pct, double gpu_us, double gpu_pct,
             double interval_us)
{
	if (c->rows >= c->cap && cols_grow(c) != 0)
		return -1;
	c->rows++;
	if (cpu_us < 0)
		c->negative_cpu++;
	push(c, COLS_CPU_US, cpu_us);
	push(c, COLS_CPU_PCT, cpu_pct);
	push(c, COLS_GPU_US, gpu_us);
	push(c, COLS_GPU_PCT, gpu_pct);
	push(c, COLS_INTERVAL_US, interval_us);
	return 0;
}

/* A share of the columns to summarize, possibly on another thread. */
struct cols_job {
	struct cols *c;
	struct stats_summary *out[COLS_COUNT];
	int first, last; /* columns [first, last) */
};

static void *summarize_job(void *arg)
{
	struct cols_job *job = arg;

	for (int i = job->first; i < job->last; i++)
		stats_compute(job->c->v[i], job->c->n[i], job->out[i]);
	return NULL;
}

void cols_summarize(struct cols *c, struct mrg_summary *s)
{
	struct cols_job job = {.c = c,
	                       .out = {
	                               [COLS_CPU_US] = &s->target_cpu_us,
	                               [COLS_CPU_PCT] = &s->target_cpu_pct,
	                               [COLS_GPU_US] = &s->target_gpu_us,
	                               [COLS_GPU_PCT] = &s->target_gpu_pct,
	                               [COLS_INTERVAL_US] = &s->frame_interval_us,
	                       }};
	struct cols_job a = job, b = job;
	pthread_t thread;

	s->frame_count = c->rows;
	s->gpu_frame_count = c->n[COLS_GPU_US];
	s->negative_target_frames = c->negative_cpu;

	/* The selections are independent: split them over two threads for
	 * large inputs (the results do not depend on the split). */
	a.first = 0;
	a.last = COLS_GPU_US;
	b.first = COLS_GPU_US;
	b.last = COLS_COUNT;
	bool threaded = c->rows > 100000 && pthread_create(&thread, NULL, summarize_job, &a) == 0;
	if (!threaded)
		summarize_job(&a);
	summarize_job(&b);
	if (threaded)
		pthread_join(thread, NULL);

	double median = s->frame_interval_us.median;
	s->frame_rate_hz = median > 0 ? 1e6 / median : 0;
}
