/*
 * Pairing pre's and post's calls and GPU timestamps; see trace_target.h.
 */
#include "trace_target.h"

#include "join.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int64_t trace_target_exclusive(int64_t pre_ns, int64_t below_ns, unsigned inside,
                               int64_t correction_ns)
{
	return pre_ns - below_ns - (int64_t)inside * correction_ns;
}

void trace_target_init(struct trace_target *t, struct trace_spool *post, int64_t correction_ns,
                       trace_target_fn emit, void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->post = post;
	t->correction_ns = correction_ns;
	t->emit = emit;
	t->ctx = ctx;
	t->has_next = post && trace_spool_next(post, &t->next);
}

static struct trace_target_open *open_of(struct trace_target *t, uint64_t thread_id)
{
	for (unsigned i = 0; i < TRACE_TARGET_THREADS; i++)
		if (t->open[i].used && t->open[i].call.thread_id == thread_id)
			return &t->open[i];
	return NULL;
}

static void close_call(struct trace_target *t, struct trace_target_open *o)
{
	const struct trace_call *c = &o->call;
	struct trace_target_slice s = {
		.fn = o->fn,
		.thread_id = c->thread_id,
		.t_entry = c->t_entry,
		.dur_ns = c->t_exit - c->t_entry,
		.frame_id = c->frame_id,
		.below_ns = o->below_ns,
		.target_ns = trace_target_exclusive(c->t_exit - c->t_entry, o->below_ns, o->inside,
		                                    t->correction_ns),
	};
	t->emit(t->ctx, &s);
	o->used = false;
}

/* Gives every post call that starts before @p until to the pre call containing it. */
static void take_post(struct trace_target *t, int64_t until)
{
	while (t->has_next && t->next.v[1] < until) {
		struct trace_target_open *o = open_of(t, (uint64_t)t->next.v[0]);
		if (o && t->next.v[1] >= o->call.t_entry && t->next.v[2] <= o->call.t_exit) {
			o->below_ns += t->next.v[2] - t->next.v[1];
			o->inside++;
		}
		t->has_next = trace_spool_next(t->post, &t->next);
	}
}

void trace_target_pre(struct trace_target *t, const struct trace_call *pre)
{
	take_post(t, pre->t_entry);
	/* The thread's previous call ended before this one began: all of its post calls are in. */
	struct trace_target_open *o = open_of(t, pre->thread_id);
	if (o)
		close_call(t, o);
	for (unsigned i = 0; !o && i < TRACE_TARGET_THREADS; i++)
		if (!t->open[i].used)
			o = &t->open[i];
	if (!o) {
		o = &t->open[0]; /* more threads than slots: the oldest slot closes early */
		close_call(t, o);
	}
	o->used = true;
	o->inside = 0;
	o->below_ns = 0;
	o->call = *pre;
	snprintf(o->fn, sizeof(o->fn), "%s", pre->fn);
	o->call.fn = o->fn;
}

void trace_target_finish(struct trace_target *t)
{
	take_post(t, INT64_MAX);
	for (unsigned i = 0; i < TRACE_TARGET_THREADS; i++)
		if (t->open[i].used)
			close_call(t, &t->open[i]);
}

bool trace_target_gpu(struct trace_spool *post, struct trace_spool_rec *next, bool *has_next,
                      const struct trace_gpu *pre, struct trace_gpu_pair *out)
{
	/* Frames only one side stamped (a lost sample) are passed over. */
	while (*has_next && next->v[0] < pre->display_time)
		*has_next = trace_spool_next(post, next);
	if (!*has_next || next->v[0] != pre->display_time || !pre->valid ||
	    !(next->v[3] & TRACE_GPU_VALID) ||
	    (uint64_t)next->v[3] >> TRACE_GPU_BITS_SHIFT != pre->valid_bits)
		return false;
	/* Two clocks' periods: no figure, as the merge's (join.c). */
	double post_period;
	memcpy(&post_period, &next->v[4], sizeof(post_period));
	out->display_time = pre->display_time;
	out->raw_us = pre->period_ns > 0 && pre->period_ns == post_period
	                      ? join_gpu_raw_us(pre->ticks, (uint64_t)next->v[1], pre->period_ns,
	                                        pre->valid_bits)
	                      : NAN;
	out->gpu_us = join_gpu_correct(out->raw_us, pre->bracket_ns);
	out->placed = pre->placed && (next->v[3] & TRACE_GPU_PLACED);
	out->pre_ns = pre->t_ns;
	out->post_ns = next->v[2];
	*has_next = trace_spool_next(post, next);
	return true;
}
