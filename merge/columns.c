/*
 * Value columns for the statistics; see columns.h.
 */
#include "columns.h"
#include "thread.h"
#include "workers.h"

#include <errno.h>
#include <math.h>
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

/* Fewest groups that a fill is split into: below, one group fills every column. */
#define COLUMNS_MIN_FILL_GROUPS 2

/* Above this many rows, the columns' selections run on threads of their own. */
#define COLUMNS_THREADS_ROWS 2048

int columns_push_n(struct columns *c, enum columns_id id, const double *v, size_t n)
{
	/* Each run of values between blank cells at once. */
	for (size_t i = 0; i < n;) {
		size_t run = 0;
		while (i + run < n && !isnan(v[i + run]))
			run++;
		if (run > 0 && stats_stream_add_n(&c->s[id], v + i, run) != 0)
			return -1;
		i += run + (i + run < n); /* past the run and the blank after it */
	}
	return 0;
}

/* Columns to fill and summarize together, possibly on a thread of their own. */
struct columns_job {
	struct columns *c;
	unsigned mask; /* the columns: bit i is column i */
	columns_fill_fn fill;
	void *fill_ctx;
	struct stats_summary **out;
	int ret;
	int error; /* errno of a failed fill */
};

static void *summarize_job(void *arg)
{
	struct columns_job *job = arg;
	struct columns *c = job->c;

	if (job->fill && job->fill(job->fill_ctx, c, job->mask) != 0) {
		job->error = errno ? errno : EIO;
		job->ret = -1;
		return NULL;
	}
	for (int i = 0; i < COLUMNS_COUNT; i++) {
		if (!(job->mask & (1u << i)))
			continue;
		if (!c->streaming)
			stats_compute(c->v[i], c->n[i], job->out[i]);
		else if (stats_stream_compute(&c->s[i], job->out[i]) != 0)
			job->ret = -1;
	}
	return NULL;
}

int columns_summarize(struct columns *c, struct merge_summary *s)
{
	return columns_fill_summarize(c, NULL, NULL, s);
}

int columns_fill_summarize(struct columns *c, columns_fill_fn fill, void *ctx,
                           struct merge_summary *s)
{
	struct stats_summary *out[COLUMNS_COUNT] = {
		[COLUMNS_CPU_US] = &s->target_cpu_us,
		[COLUMNS_CPU_PCT] = &s->target_cpu_pct,
		[COLUMNS_GPU_US] = &s->target_gpu_us,
		[COLUMNS_GPU_PCT] = &s->target_gpu_pct,
		[COLUMNS_INTERVAL_US] = &s->frame_interval_us,
	};
	struct columns_job job[COLUMNS_COUNT];
	struct thread thread[COLUMNS_COUNT];
	bool threaded[COLUMNS_COUNT] = {false};

	/* The fills and selections of the columns are independent: for large
	 * inputs they are dealt to up to workers_max() groups, one thread
	 * each (this one takes the first); a group's fill is one pass over
	 * the rows. The results do not depend on the split. */
	unsigned groups = c->rows > COLUMNS_THREADS_ROWS ? workers_max() : 1;
	if (groups > COLUMNS_COUNT)
		groups = COLUMNS_COUNT;
	/* With a fill, each group reads every row: on two CPUs (the row
	 * writers run meanwhile) a second reading costs more than it saves. */
	if (fill && groups <= COLUMNS_MIN_FILL_GROUPS)
		groups = 1;
	for (unsigned g = 0; g < groups; g++)
		job[g] = (struct columns_job){.c = c, .fill = fill, .fill_ctx = ctx, .out = out};
	for (int i = 0; i < COLUMNS_COUNT; i++)
		job[(unsigned)i % groups].mask |= 1u << i;
	for (unsigned g = 1; g < groups; g++)
		threaded[g] = thread_start(&thread[g], summarize_job, &job[g]) == 0;
	int ret = 0;
	for (unsigned g = 0; g < groups; g++) {
		if (!threaded[g])
			summarize_job(&job[g]);
	}
	for (unsigned g = 0; g < groups; g++) {
		if (threaded[g])
			thread_join(&thread[g]);
		ret |= job[g].ret;
		if (job[g].error && !c->error)
			c->error = job[g].error;
	}
	s->frame_count = c->rows;
	s->gpu_frame_count = c->streaming ? c->s[COLUMNS_GPU_US].values.count : c->n[COLUMNS_GPU_US];
	s->negative_target_frames = c->negative_cpu;

	double median = s->frame_interval_us.median;
	s->frame_rate_hz = median > 0 ? 1e6 / median : 0;
	if (ret) {
		for (int i = 0; i < COLUMNS_COUNT && c->streaming && !c->error; i++)
			c->error = c->s[i].error;
		return -1;
	}
	return 0;
}
