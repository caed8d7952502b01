/*
 * Statistics of a spilled column, exact percentiles by radix selection;
 * see stats_stream.h.
 */
#include "stats_stream.h"

#include "mem.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DIGITS 65536
#define READ_BLOCK 65536
#define TOP 0x8000000000000000ull

/* A 64-bit key in the order of the doubles (-0 and +0 are one key, as they compare). */
static uint64_t key_of(double v)
{
	uint64_t b;
	if (v == 0)
		v = 0; /* -0 -> +0 */
	memcpy(&b, &v, sizeof(b));
	return (b & TOP) ? ~b : b | TOP;
}

static double value_of(uint64_t k)
{
	uint64_t b = (k & TOP) ? k & ~TOP : ~k;
	double v;
	memcpy(&v, &b, sizeof(v));
	return v;
}

/* spill on_flush: the top digits of the values leaving memory. */
static void count_top(void *ctx, const void *items, size_t n)
{
	struct stats_stream *s = ctx;
	const double *v = items;

	if (!s->hist)
		s->hist = mem_calloc(DIGITS, sizeof(*s->hist));
	if (!s->hist) {
		s->error = ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++)
		s->hist[key_of(v[i]) >> 48]++;
}

int stats_stream_init(struct stats_stream *s, const char *dir)
{
	memset(s, 0, sizeof(*s));
	if (spill_init(&s->values, sizeof(double), STATS_STREAM_MEM, dir) != 0)
		return -1;
	s->values.on_flush = count_top;
	s->values.flush_ctx = s;
	return 0;
}

void stats_stream_destroy(struct stats_stream *s)
{
	spill_destroy(&s->values);
	mem_free(s->hist);
	memset(s, 0, sizeof(*s));
}

int stats_stream_add(struct stats_stream *s, double v)
{
	return stats_stream_add_n(s, &v, 1);
}

int stats_stream_add_n(struct stats_stream *s, const double *v, size_t n)
{
	while (n > 0) {
		size_t k = n;
		double *slot = spill_append_n(&s->values, &k);
		if (!slot || s->error) {
			if (!s->error)
				s->error = s->values.error ? s->values.error : EIO;
			return -1;
		}
		memcpy(slot, v, k * sizeof(*v));
		/* As stats_compute(): left to right, the first value seeds min and max. */
		size_t i = 0;
		if (s->values.count == k) {
			s->lo = s->hi = v[0];
			s->sum += v[0];
			i = 1;
		}
		for (; i < k; i++) {
			if (v[i] < s->lo)
				s->lo = v[i];
			if (v[i] > s->hi)
				s->hi = v[i];
			s->sum += v[i];
		}
		v += k;
		n -= k;
	}
	return 0;
}

/* One order statistic being found: the keys sharing `prefix` in their top `bits` bits hold it. */
struct target {
	uint64_t rank;   /* among the keys with the prefix */
	uint64_t prefix;
	int bits;        /* 16, 32, 48 or 64 */
	bool collect;    /* next pass collects the bucket (else counts its next digit) */
	bool done;
	uint64_t key;    /* the answer, when done */
	uint32_t *counts;
	double *vals;    /* the collected bucket's values */
	size_t nvals;
};

static bool in_bucket(const struct target *t, uint64_t k)
{
	return (k >> (64 - t->bits)) == (t->prefix >> (64 - t->bits));
}

/* Picks the digit holding t->rank from @p counts (of the digit after t->bits - 16 bits). */
static void choose(struct target *t, const uint32_t *counts, int shift)
{
	uint64_t below = 0;
	unsigned d = 0;

	while (below + counts[d] <= t->rank)
		below += counts[d++];
	t->rank -= below;
	t->prefix |= (uint64_t)d << shift;
	t->bits = 64 - shift;
	if (t->bits == 64) {
		t->done = true; /* every key in the bucket is this one */
		t->key = t->prefix;
	}
	t->collect = counts[d] <= STATS_STREAM_COLLECT;
}

/* One pass over the spilled values for every target not done. */
static int pass(struct stats_stream *s, struct target *t, int nt, double *buf)
{
	for (int i = 0; i < nt; i++) {
		if (t[i].done)
			continue;
		if (t[i].collect)
			t[i].vals = mem_alloc(STATS_STREAM_COLLECT * sizeof(*t[i].vals));
		else
			t[i].counts = mem_calloc(DIGITS, sizeof(*t[i].counts));
		if (!t[i].vals && !t[i].counts)
			return -1;
		t[i].nvals = 0;
	}
	for (uint64_t first = 0; first < s->values.count; first += READ_BLOCK) {
		size_t n = s->values.count - first < READ_BLOCK ? (size_t)(s->values.count - first) : READ_BLOCK;
		if (spill_read(&s->values, first, n, buf) != 0)
			return -1;
		for (size_t j = 0; j < n; j++) {
			uint64_t k = key_of(buf[j]);
			for (int i = 0; i < nt; i++) {
				if (t[i].done || !in_bucket(&t[i], k))
					continue;
				if (t[i].collect)
					t[i].vals[t[i].nvals++] = buf[j];
				else
					t[i].counts[(k >> (48 - t[i].bits)) & 0xffff]++;
			}
		}
	}
	for (int i = 0; i < nt; i++) {
		if (t[i].done)
			continue;
		if (t[i].collect) {
			/* At most STATS_STREAM_COLLECT values: selected in linear time. */
			t[i].key = key_of(stats_select(t[i].vals, t[i].nvals, (size_t)t[i].rank));
			t[i].done = true;
		} else {
			choose(&t[i], t[i].counts, 48 - t[i].bits);
		}
		mem_free(t[i].vals);
		mem_free(t[i].counts);
		t[i].vals = NULL;
		t[i].counts = NULL;
	}
	return 0;
}

/* The keys of ranks @p ranks (nt of them) among all values. */
static int select_ranks(struct stats_stream *s, const uint64_t *ranks, int nt, double *out)
{
	struct target t[8] = {0};
	double *buf = mem_alloc(READ_BLOCK * sizeof(*buf));
	int ret = buf ? 0 : -1;

	for (int i = 0; i < nt; i++) {
		t[i].rank = ranks[i];
		choose(&t[i], s->hist, 48);
	}
	for (bool pending = true; ret == 0 && pending;) {
		pending = false;
		for (int i = 0; i < nt; i++)
			pending |= !t[i].done;
		if (pending)
			ret = pass(s, t, nt, buf);
	}
	for (int i = 0; i < nt; i++) {
		mem_free(t[i].vals);
		mem_free(t[i].counts);
		out[i] = value_of(t[i].key);
	}
	mem_free(buf);
	return ret;
}

/*
 * The mean of @p s's spilled values whose sum overflowed (values near
 * DBL_MAX: a damaged file), added again scaled as stats_compute() does.
 * Returns 0, or -1 when the values cannot be read back.
 */
static int scaled_mean(struct stats_stream *s, double *mean)
{
	double *buf = mem_alloc(READ_BLOCK * sizeof(*buf));
	double scaled = 0;

	if (!buf) {
		s->error = ENOMEM;
		return -1;
	}
	for (uint64_t first = 0; first < s->values.count; first += READ_BLOCK) {
		size_t n = s->values.count - first < READ_BLOCK ? (size_t)(s->values.count - first) : READ_BLOCK;
		if (spill_read(&s->values, first, n, buf) != 0) {
			s->error = s->values.error ? s->values.error : EIO;
			mem_free(buf);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			scaled += buf[i] * STATS_SUM_SCALE;
	}
	mem_free(buf);
	*mean = stats_scaled_mean(scaled, s->values.count);
	return 0;
}

int stats_stream_compute(struct stats_stream *s, struct stats_summary *out)
{
	uint64_t n = s->values.count;

	*out = (struct stats_summary){0};
	if (n == 0)
		return 0;
	if (s->values.fd < 0) {
		/* Never spilled: all the values are in memory, in order. */
		stats_compute((double *)s->values.mem, (size_t)n, out);
		return 0;
	}
	if (spill_flush(&s->values) != 0 || s->error) {
		if (!s->error)
			s->error = s->values.error;
		return -1;
	}
	out->count = n;
	out->mean = s->sum / (double)n;
	if (!isfinite(out->mean) && isfinite(s->lo) && isfinite(s->hi) &&
	    scaled_mean(s, &out->mean) != 0)
		return -1;
	out->min = s->lo;
	out->max = s->hi;

	static const double ps[3] = {0.50, 0.95, 0.99};
	uint64_t ranks[6], k[3];
	double frac[3], v[6];
	int nt = 0;
	for (int i = 0; i < 3; i++) {
		stats_rank(n, ps[i], &k[i], &frac[i]);
		ranks[nt++] = k[i];
		ranks[nt++] = k[i] + 1 < n ? k[i] + 1 : k[i];
	}
	if (select_ranks(s, ranks, nt, v) != 0) {
		s->error = s->values.error ? s->values.error : ENOMEM;
		return -1;
	}
	out->median = stats_between(n, k[0], frac[0], v[0], v[1]);
	out->p95 = stats_between(n, k[1], frac[1], v[2], v[3]);
	out->p99 = stats_between(n, k[2], frac[2], v[4], v[5]);
	return 0;
}
