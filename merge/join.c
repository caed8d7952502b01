/*
 * Joining pre and post rows; see join.h.
 */
#include "join.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "idmap.h"

/*
 * Open-addressing index of row numbers (stored +1, 0 = empty slot), linear
 * probing, at most half full. Lookups walk the probe chain and let the
 * caller compare the actual keys, so the index stores no keys itself.
 */
struct hidx {
	uint32_t *slots;
	size_t mask;
};

static int hidx_create(struct hidx *h, size_t n)
{
	size_t size = 16;
	while (size < n * 2)
		size *= 2;
	h->slots = calloc(size, sizeof(*h->slots));
	h->mask = size - 1;
	return h->slots ? 0 : -1;
}

static void hidx_destroy(struct hidx *h)
{
	free(h->slots);
	h->slots = NULL;
}

static void hidx_insert(struct hidx *h, uint64_t hash, uint32_t row)
{
	size_t pos = hash & h->mask;
	while (h->slots[pos])
		pos = (pos + 1) & h->mask;
	h->slots[pos] = row + 1;
}

static uint64_t cpu_hash(const struct side_cpu_row *r)
{
	return idmap_mix64((uint64_t)r->display_time ^ idmap_mix64(r->thread_id));
}

static bool cpu_same_key(const struct side_cpu_row *a, const struct side_cpu_row *b)
{
	return a->display_time == b->display_time && a->thread_id == b->thread_id;
}

/* First unused post row with the key of @p key, through the index. */
static uint32_t cpu_lookup(const struct hidx *h, const struct side_cpu_row *rows,
                           const uint8_t *used, const struct side_cpu_row *key)
{
	size_t pos = cpu_hash(key) & h->mask;
	for (; h->slots[pos]; pos = (pos + 1) & h->mask) {
		uint32_t i = h->slots[pos] - 1;
		if (!used[i] && cpu_same_key(&rows[i], key))
			return i;
	}
	return JOIN_NONE;
}

static int build_cpu_index(struct hidx *h, const struct side_cpu_file *f)
{
	if (hidx_create(h, f->count) != 0)
		return -1;
	for (size_t i = 0; i < f->count; i++)
		hidx_insert(h, cpu_hash(&f->rows[i]), (uint32_t)i);
	return 0;
}

/* How far ahead of the cursor a row is looked for before the hash index:
 * covers rows that a writer queue reordered locally. */
#define JOIN_WINDOW 16

/*
 * Moves the cursor after matching row @p m: past rows already used, and
 * past rows left behind when matches run well ahead of it (rows present on
 * one side only), which stay reachable through the hash index.
 */
static size_t advance_cursor(size_t cursor, size_t m, const uint8_t *used, size_t count)
{
	if (m >= cursor + JOIN_WINDOW / 2)
		cursor = m + 1;
	while (cursor < count && used[cursor])
		cursor++;
	return cursor;
}

static int match_cpu(const struct side_cpu_file *pre, const struct side_cpu_file *post,
                     struct join_result *out)
{
	uint8_t *used = calloc(post->count ? post->count : 1, 1);
	struct hidx index = {0};
	size_t cursor = 0;
	int ret = 0;

	if (!used)
		return -1;
	for (size_t i = 0; i < pre->count; i++) {
		const struct side_cpu_row *key = &pre->rows[i];
		uint32_t m = JOIN_NONE;
		size_t end = cursor + JOIN_WINDOW < post->count ? cursor + JOIN_WINDOW : post->count;

		for (size_t k = cursor; k < end; k++) {
			if (!used[k] && cpu_same_key(&post->rows[k], key)) {
				m = (uint32_t)k;
				break;
			}
		}
		if (m == JOIN_NONE) {
			if (!index.slots && build_cpu_index(&index, post) != 0) {
				ret = -1;
				break;
			}
			m = cpu_lookup(&index, post->rows, used, key);
		}
		out->match[i] = m;
		if (m == JOIN_NONE) {
			out->unmatched_pre++;
			continue;
		}
		used[m] = 1;
		out->matched++;
		cursor = advance_cursor(cursor, m, used, post->count);
	}
	out->unmatched_post = post->count - out->matched;
	hidx_destroy(&index);
	free(used);
	return ret;
}

/*
 * The frame interval runs to the session's next frame whatever thread ends
 * it (README "The merged CSV"): the next pre row in file order.
 */
static void link_frames(const struct side_cpu_file *pre, struct join_result *out)
{
	for (size_t i = 0; i < pre->count; i++)
		out->next[i] = i + 1 < pre->count ? (uint32_t)(i + 1) : JOIN_NONE;
}

int join_cpu(const struct side_cpu_file *pre, const struct side_cpu_file *post,
             struct join_result *out)
{
	memset(out, 0, sizeof(*out));
	/* Row numbers are 32-bit; JOIN_NONE is reserved. */
	if (pre->count >= JOIN_NONE || post->count >= JOIN_NONE)
		return -1;
	size_t n = pre->count ? pre->count : 1;
	out->count = pre->count;
	out->match = malloc(n * sizeof(*out->match));
	out->next = malloc(n * sizeof(*out->next));
	if (!out->match || !out->next)
		return -1;
	if (match_cpu(pre, post, out) != 0)
		return -1;
	link_frames(pre, out);
	return 0;
}

/* ---- GPU ---- */

/* Walks one GPU file in step with the frames; see join.h. */
struct gpu_walk {
	const struct side_gpu_file *f;
	uint8_t *used;
	struct hidx index;
	size_t cursor;
};

static uint32_t gpu_find(struct gpu_walk *w, int64_t display_time, int *err)
{
	const struct side_gpu_file *f = w->f;
	size_t end = w->cursor + JOIN_WINDOW < f->count ? w->cursor + JOIN_WINDOW : f->count;
	uint32_t m = JOIN_NONE;

	for (size_t k = w->cursor; k < end; k++) {
		if (!w->used[k] && f->rows[k].display_time == display_time) {
			m = (uint32_t)k;
			break;
		}
	}
	if (m == JOIN_NONE && !w->index.slots) {
		if (hidx_create(&w->index, f->count) != 0) {
			*err = -1;
			return JOIN_NONE;
		}
		for (size_t i = 0; i < f->count; i++)
			hidx_insert(&w->index, idmap_mix64((uint64_t)f->rows[i].display_time), (uint32_t)i);
	}
	if (m == JOIN_NONE) {
		size_t pos = idmap_mix64((uint64_t)display_time) & w->index.mask;
		for (; w->index.slots[pos]; pos = (pos + 1) & w->index.mask) {
			uint32_t i = w->index.slots[pos] - 1;
			if (!w->used[i] && f->rows[i].display_time == display_time) {
				m = i;
				break;
			}
		}
	}
	if (m == JOIN_NONE)
		return JOIN_NONE;
	w->used[m] = 1;
	w->cursor = advance_cursor(w->cursor, m, w->used, f->count);
	return m;
}

/* The target GPU time of one frame, or NAN when the pair is unusable. */
static double gpu_target_us(const struct side_gpu_row *pre, const struct side_gpu_row *post)
{
	if (pre->period_ns <= 0 || post->period_ns <= 0)
		return NAN; /* invalid on either side */
	if (pre->period_ns != post->period_ns)
		return NAN; /* ticks of different clocks cannot be subtracted */
	if (post->ticks < pre->ticks)
		return NAN; /* backwards: clock reset or corruption */
	double us = (double)(post->ticks - pre->ticks) * pre->period_ns / 1000.0;
	if (isinf(us))
		return NAN; /* an absurd period: no time that can be written */
	/* Rounded as written, so a merged file's text gives the same stats. */
	return fmt_round(us, 3);
}

double join_gpu_correct(double raw_us, double bracket_ns)
{
	if (isnan(raw_us))
		return NAN;
	double us = raw_us - bracket_ns / 1000.0;
	return us > 0 ? fmt_round(us, 3) : 0.0;
}

int join_gpu(const struct side_cpu_file *pre, const struct side_gpu_file *gpu_pre,
             const struct side_gpu_file *gpu_post, struct join_result *out)
{
	size_t n = out->count ? out->count : 1;
	struct gpu_walk a = {.f = gpu_pre, .used = calloc(gpu_pre->count + 1, 1)};
	struct gpu_walk b = {.f = gpu_post, .used = calloc(gpu_post->count + 1, 1)};
	int err = 0;

	out->gpu_us = malloc(n * sizeof(*out->gpu_us));
	out->gpu_raw_us = malloc(n * sizeof(*out->gpu_raw_us));
	if (!out->gpu_us || !out->gpu_raw_us || !a.used || !b.used)
		err = -1;
	for (size_t i = 0; !err && i < out->count; i++) {
		out->gpu_us[i] = out->gpu_raw_us[i] = NAN;
		if (out->match[i] == JOIN_NONE)
			continue;
		int64_t t = pre->rows[i].display_time;
		uint32_t x = gpu_find(&a, t, &err);
		uint32_t y = gpu_find(&b, t, &err);
		if (x == JOIN_NONE || y == JOIN_NONE)
			continue;
		double bracket_ns = gpu_pre->rows[x].bracket_ns;
		out->gpu_raw_us[i] = gpu_target_us(&gpu_pre->rows[x], &gpu_post->rows[y]);
		out->gpu_us[i] = join_gpu_correct(out->gpu_raw_us[i], bracket_ns);
		out->gpu_matched++;
		if (!isnan(out->gpu_raw_us[i]) && bracket_ns > 0) {
			out->gpu_bracket_ns_sum += bracket_ns;
			out->gpu_bracket_frames++;
		}
	}
	hidx_destroy(&a.index);
	hidx_destroy(&b.index);
	free(a.used);
	free(b.used);
	return err;
}

void join_result_destroy(struct join_result *j)
{
	free(j->match);
	free(j->next);
	free(j->gpu_us);
	free(j->gpu_raw_us);
	memset(j, 0, sizeof(*j));
}
