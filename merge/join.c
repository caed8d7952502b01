/*
 * Joining pre and post rows, streaming; see join.h.
 */
#include "join.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "idmap.h"
#include "u_ticks.h"

static uint64_t cpu_hash(const void *row)
{
	const struct side_cpu_row *r = row;
	return idmap_mix64((uint64_t)r->display_time ^ idmap_mix64(r->thread_id));
}

static bool cpu_same(const void *a, const void *b)
{
	const struct side_cpu_row *x = a, *y = b;
	return x->display_time == y->display_time && x->thread_id == y->thread_id;
}

static uint64_t gpu_hash(const void *row)
{
	return idmap_mix64((uint64_t)((const struct side_gpu_row *)row)->display_time);
}

static bool gpu_same(const void *a, const void *b)
{
	return ((const struct side_gpu_row *)a)->display_time ==
	       ((const struct side_gpu_row *)b)->display_time;
}

struct window_source join_cpu_source(join_pull_fn pull, void *ctx)
{
	return (struct window_source){sizeof(struct side_cpu_row), cpu_hash, cpu_same, pull, ctx, false};
}

struct window_source join_gpu_source(join_pull_fn pull, void *ctx)
{
	return (struct window_source){sizeof(struct side_gpu_row), gpu_hash, gpu_same, pull, ctx, false};
}

/* ---- join ---- */

int join_init(struct join *j, const struct window_source *post, const struct window_source *gpu_pre,
              const struct window_source *gpu_post, const unsigned gpu_bits[2], struct spill *recs)
{
	memset(j, 0, sizeof(*j));
	j->recs = recs;
	j->has_gpu = gpu_pre && gpu_post;
	if (j->has_gpu)
		memcpy(j->gpu_bits, gpu_bits, sizeof(j->gpu_bits));
	j->last_rec = WINDOW_NONE;
	if (window_init(&j->post, post) != 0)
		return -1;
	if (j->has_gpu && (window_init(&j->gpu[0], gpu_pre) != 0 ||
	                   window_init(&j->gpu[1], gpu_post) != 0))
		return -1;
	return 0;
}

void join_destroy(struct join *j)
{
	window_destroy(&j->post);
	window_destroy(&j->gpu[0]);
	window_destroy(&j->gpu[1]);
}

double join_gpu_raw_us(uint64_t pre_ticks, uint64_t post_ticks, double period_ns, unsigned bits)
{
	uint64_t ticks;

	/* A wrap between the two is undone: the ticks that passed. */
	if (!u_ticks_since(post_ticks, pre_ticks, bits, &ticks))
		return NAN; /* backwards: clock reset or corruption */
	double us = (double)ticks * period_ns / 1000.0;
	if (isinf(us))
		return NAN; /* an absurd period: no time that can be written */
	/* Rounded as written, so a merged file's text gives the same stats. */
	return fmt_round(us, 3);
}

/*
 * The target GPU time of one frame, or NAN when the pair is unusable;
 * @p bits: the two files' tick widths.
 */
static double gpu_target_us(const struct side_gpu_row *pre, const struct side_gpu_row *post,
                            const unsigned bits[2])
{
	if (pre->period_ns <= 0 || post->period_ns <= 0)
		return NAN; /* invalid on either side */
	if (pre->period_ns != post->period_ns || bits[0] != bits[1])
		return NAN; /* ticks of different clocks cannot be subtracted */
	return join_gpu_raw_us(pre->ticks, post->ticks, pre->period_ns, bits[0]);
}

double join_gpu_correct(double raw_us, double bracket_ns)
{
	if (isnan(raw_us))
		return NAN;
	double us = raw_us - (isnan(bracket_ns) ? 0.0 : bracket_ns / 1000.0);
	return us > 0 ? fmt_round(us, 3) : 0.0;
}

/*
 * The GPU values of the frame of @p display_time into @p r: raw and bracket
 * corrected (join_gpu_correct() with the bracket pre's file gave the row);
 * NAN without both rows.
 */
static void join_gpu(struct join *j, int64_t display_time, struct join_rec *r, int *err)
{
	const struct side_gpu_row key = {.display_time = display_time};
	const void *a = NULL, *b = NULL;

	r->gpu_us = r->gpu_raw_us = NAN;
	if (!j->has_gpu)
		return;
	/* Both files are walked for every frame, as a pair. */
	uint64_t x = window_take(&j->gpu[0], &key, &a);
	uint64_t y = window_take(&j->gpu[1], &key, &b);
	if (j->gpu[0].err || j->gpu[1].err)
		*err = -1;
	if (x == WINDOW_NONE || y == WINDOW_NONE)
		return;
	j->gpu_matched++;
	double bracket_ns = ((const struct side_gpu_row *)a)->bracket_ns;
	r->gpu_raw_us = gpu_target_us(a, b, j->gpu_bits);
	r->gpu_us = join_gpu_correct(r->gpu_raw_us, bracket_ns);
	/* The summary's mean is over every frame with a GPU value, a frame
	 * before pre's first measurement counting as corrected by 0; none
	 * measured in the whole file: no mean. */
	if (!isnan(r->gpu_raw_us)) {
		j->gpu_bracket_seen |= !isnan(bracket_ns);
		j->gpu_bracket_ns_sum += isnan(bracket_ns) ? 0.0 : bracket_ns;
		j->gpu_bracket_frames++;
	}
}

/* Sets the interval of the previous row's record, now that the next frame is known. */
static int link_frame(struct join *j, const struct side_cpu_row *row, uint64_t rec)
{
	if (j->last_rec != WINDOW_NONE) {
		int64_t interval = row->t_entry_ns - j->last_t_entry;
		if (spill_patch(j->recs, j->last_rec, offsetof(struct join_rec, interval_ns), &interval,
		                sizeof(interval)) != 0)
			return -1;
	}
	j->last_rec = rec;
	j->last_t_entry = row->t_entry_ns;
	return 0;
}

int join_pre_row(struct join *j, const struct side_cpu_row *row)
{
	const void *found = NULL;
	uint64_t m = window_take(&j->post, row, &found);
	uint64_t rec = WINDOW_NONE;
	int err = j->post.err;

	j->pre_rows++;
	if (m != WINDOW_NONE) {
		const struct side_cpu_row *b = found;
		struct join_rec r = {
			.display_time = row->display_time,
			.thread_id = row->thread_id,
			.t_entry_ns = row->t_entry_ns,
			.pre_ns = row->dur_ns,
			.post_ns = b->dur_ns,
			.interval_ns = JOIN_NO_INTERVAL,
		};
		join_gpu(j, row->display_time, &r, &err);
		struct join_rec *slot = spill_append(j->recs);
		if (!slot)
			return -1;
		*slot = r;
		rec = j->recs->count - 1;
		j->matched++;
	} else {
		j->unmatched_pre++;
	}
	if (err)
		return -1;
	return link_frame(j, row, rec);
}

int join_finish(struct join *j)
{
	if (window_drain(&j->post) != 0)
		return -1;
	if (j->has_gpu && (window_drain(&j->gpu[0]) != 0 || window_drain(&j->gpu[1]) != 0))
		return -1;
	j->unmatched_post = j->post.total - j->matched;
	return 0;
}
