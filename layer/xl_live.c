/*
 * The live view; see xl_live.h.
 */
#include "xl_live.h"

#include "stats.h"
#include "u_ticks.h"

#include <string.h>

enum { KIND_CPU, KIND_GPU };

void xl_live_init(struct xl_live *live)
{
	memset(live, 0, sizeof(*live));
	pthread_mutex_init(&live->lock, NULL);
}

void xl_live_fini(struct xl_live *live)
{
	pthread_mutex_destroy(&live->lock);
}

static void clear(struct xl_live *live)
{
	memset(live->pending, 0, sizeof(live->pending));
	memset(live->next, 0, sizeof(live->next));
	live->cpu.count = live->gpu.count = 0;
	live->cpu.sum = live->gpu.sum = 0.0;
	live->cpu.kept = live->gpu.kept = 0;
}

void xl_live_watch(struct xl_live *live, int delta)
{
	pthread_mutex_lock(&live->lock);
	uint32_t n = atomic_load_explicit(&live->watchers, memory_order_relaxed) + (uint32_t)delta;
	atomic_store_explicit(&live->watchers, n, memory_order_relaxed);
	if (n == 0)
		clear(live);
	pthread_mutex_unlock(&live->lock);
}

static void add_value(struct xl_live_series *s, double v)
{
	s->count++;
	s->sum += v;
	if (s->kept < XL_LIVE_VALUES)
		s->values[s->kept++] = v;
}

/*
 * Takes the entry of the other side matching @p e out of the pending ones
 * into @p match; or, when there is none yet, keeps @p e (over the oldest
 * when full: a frame the other side never records stays unpaired).
 */
static bool pair(struct xl_live *live, unsigned side, int kind, const struct xl_live_entry *e,
                 struct xl_live_entry *match)
{
	struct xl_live_entry *other = live->pending[!side][kind];

	for (unsigned i = 0; i < XL_LIVE_PENDING; i++) {
		struct xl_live_entry *o = &other[i];
		if (o->session_id == e->session_id && o->display_time == e->display_time &&
		    o->thread_id == e->thread_id) {
			*match = *o;
			o->session_id = 0;
			return true;
		}
	}
	uint32_t *next = &live->next[side][kind];
	live->pending[side][kind][*next] = *e;
	*next = (*next + 1) % XL_LIVE_PENDING;
	return false;
}

static bool watched(struct xl_live *live)
{
	return atomic_load_explicit(&live->watchers, memory_order_relaxed) != 0;
}

void xl_live_cpu(struct xl_live *live, unsigned side, uint32_t session_id, int64_t display_time,
                 uint32_t thread_id, uint64_t t_entry, uint64_t t_exit)
{
	struct xl_live_entry e = {display_time, thread_id, session_id, t_exit - t_entry, 0.0f, 0}, m;

	if (!watched(live))
		return;
	pthread_mutex_lock(&live->lock);
	if (pair(live, side, KIND_CPU, &e, &m)) {
		const struct xl_live_entry *pre = side == 0 ? &e : &m, *post = side == 0 ? &m : &e;
		double ns = (double)pre->value - (double)post->value -
		            (double)atomic_load_explicit(&live->bracket_correction_ns,
		                                         memory_order_relaxed);
		add_value(&live->cpu, ns / 1000.0);
	}
	pthread_mutex_unlock(&live->lock);
}

void xl_live_gpu(struct xl_live *live, unsigned side, uint32_t session_id, int64_t display_time,
                 uint64_t ticks, unsigned valid_bits, float period_ns)
{
	struct xl_live_entry e = {display_time, 0, session_id, ticks, period_ns, valid_bits}, m;
	uint64_t d;

	if (!watched(live))
		return;
	pthread_mutex_lock(&live->lock);
	if (pair(live, side, KIND_GPU, &e, &m)) {
		const struct xl_live_entry *pre = side == 0 ? &e : &m, *post = side == 0 ? &m : &e;
		/* As the merge: only a pair on one clock, in order (modulo its
		 * wrap), has a GPU time. */
		if (pre->period_ns == post->period_ns && pre->valid_bits == post->valid_bits &&
		    u_ticks_since(post->value, pre->value, pre->valid_bits, &d))
			add_value(&live->gpu, (double)d * pre->period_ns / 1000.0);
	}
	pthread_mutex_unlock(&live->lock);
}

/* Moves @p s's second out: count and mean, its kept values into @p scratch. */
static uint32_t take_series(struct xl_live_series *s, uint64_t *count, double *mean,
                            double *scratch)
{
	uint32_t kept = s->kept;

	*count = s->count;
	*mean = s->count ? s->sum / (double)s->count : 0.0;
	memcpy(scratch, s->values, kept * sizeof(double));
	s->count = 0;
	s->sum = 0.0;
	s->kept = 0;
	return kept;
}

void xl_live_take(struct xl_live *live, struct xl_live_second *out, double *scratch)
{
	double *gpu_scratch = scratch + XL_LIVE_VALUES;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&live->lock);
	uint32_t cpu_kept = take_series(&live->cpu, &out->frames, &out->cpu_mean_us, scratch);
	uint32_t gpu_kept = take_series(&live->gpu, &out->gpu_frames, &out->gpu_mean_us,
	                                gpu_scratch);
	pthread_mutex_unlock(&live->lock);
	/* The percentiles off the lock: the writers never wait for them. */
	out->cpu_p99_us = stats_percentile(scratch, cpu_kept, 0.99);
	out->gpu_p99_us = stats_percentile(gpu_scratch, gpu_kept, 0.99);
}
