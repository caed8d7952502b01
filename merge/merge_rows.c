/*
 * The merged file's rows and the statistics' values from the join's
 * records; see merge_rows.h.
 */
#include "merge_rows.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "merged_write.h"

/* An overflowed value has no text (fmt_fixed() writes nothing for it), so
 * it must not count as present in the statistics either. */
static double blank_if_infinite(double v)
{
	return isinf(v) ? NAN : v;
}

/*
 * @p value (in ns / @p unit) as a share of the frame interval (percent,
 * rounded as written: see fmt.h), or NAN: it needs a value and a positive
 * interval (a zero or backwards one has no meaningful share).
 */
static double share_of(double value, bool has_interval, int64_t interval_ns, double unit)
{
	if (!has_interval || interval_ns <= 0 || isnan(value))
		return NAN;
	return blank_if_infinite(fmt_round(value / ((double)interval_ns / unit) * 100.0, 4));
}

int64_t merge_rows_target_ns(uint64_t bracket_ns, const struct join_rec *a)
{
	return a->pre_ns - a->post_ns - (int64_t)bracket_ns;
}

/*
 * The times and shares of merged row @p r, from record @p a less the
 * bracket correction @p bracket_ns: what the statistics are computed over.
 */
static void row_times(uint64_t bracket_ns, const struct join_rec *a, struct merged_row *r)
{
	r->display_time = a->display_time;
	r->thread_id = a->thread_id;
	r->pre_ns = a->pre_ns;
	r->post_ns = a->post_ns;
	r->target_ns = merge_rows_target_ns(bracket_ns, a);
	r->has_interval = a->interval_ns != JOIN_NO_INTERVAL;
	r->interval_ns = r->has_interval ? a->interval_ns : 0;
	r->gpu_us = a->gpu_us;
	r->gpu_raw_us = a->gpu_raw_us;
	r->cpu_pct = share_of((double)r->target_ns, r->has_interval, r->interval_ns, 1.0);
	r->gpu_pct = share_of(r->gpu_us, r->has_interval, r->interval_ns, 1000.0);
}

/* Merged row @p r of record @p a and its every-function columns @p calls_cols. */
static void make_row(const struct merge_rows_ctx *c, const struct join_rec *a,
                     const int64_t *calls_cols, bool has_calls, struct merged_row *r)
{
	row_times(c->bracket_correction_ns, a, r);
	r->has_gpu_raw = c->has_gpu_files;
	r->gate_tripped = c->has_gpu_files ? merge_gate_tripped(c->gate, a->display_time) : -1;
	r->has_calls = has_calls;
	if (r->has_calls)
		memcpy(r->calls_ns, calls_cols, sizeof(r->calls_ns));
}

/* Column @p id's value of record @p a (NAN: blank), as the text of its row reads back. */
static double column_value(uint64_t bracket_ns, const struct join_rec *a, enum columns_id id)
{
	int64_t target_ns = merge_rows_target_ns(bracket_ns, a);
	bool has_interval = a->interval_ns != JOIN_NO_INTERVAL;

	switch (id) {
	case COLUMNS_CPU_US: return fmt_ns_as_us_value(target_ns);
	case COLUMNS_CPU_PCT: return share_of((double)target_ns, has_interval, a->interval_ns, 1.0);
	case COLUMNS_GPU_US: return a->gpu_us;
	case COLUMNS_GPU_PCT: return share_of(a->gpu_us, has_interval, a->interval_ns, 1000.0);
	default: return has_interval ? fmt_ns_as_us_value(a->interval_ns) : NAN;
	}
}

int merge_rows_read(const struct spill *recs, bool shared, uint64_t first, struct join_rec *block,
                    size_t *n)
{
	if (shared)
		return spill_read_published(recs, first, MERGE_RECS_BLOCK, block, n);
	uint64_t count = recs->count;
	*n = first >= count ? 0 : count - first < MERGE_RECS_BLOCK ? (size_t)(count - first)
	                                                           : MERGE_RECS_BLOCK;
	return *n > 0 ? spill_read(recs, first, *n, block) : 0;
}

int merge_rows_columns(void *ctx, struct columns *c, unsigned mask)
{
	const struct merge_rows_ctx *rc = ctx;
	struct join_rec block[MERGE_RECS_BLOCK];
	size_t n;

	for (uint64_t first = 0;; first += n) {
		if (merge_rows_read(rc->recs, rc->recs_shared, first, block, &n) != 0)
			return -1;
		if (n == 0)
			return 0;
		/* A block's values of one column at a time, added at once. */
		for (int id = 0; id < COLUMNS_COUNT; id++) {
			double v[MERGE_RECS_BLOCK];
			if (!(mask & (1u << id)))
				continue;
			for (size_t i = 0; i < n; i++) {
				v[i] = column_value(rc->bracket_correction_ns, &block[i], id);
				if (id == COLUMNS_CPU_US && v[i] < 0)
					c->negative_cpu++;
			}
			if (columns_push_n(c, id, v, n) != 0) {
				errno = c->s[id].error ? c->s[id].error : EIO;
				return -1;
			}
		}
	}
}

/*
 * Formats the rows of records [@p first, @p last) into @p buf (of @p cap
 * bytes; *@p used of them filled), as many as fit. With @p final, while
 * the sandwich runs (merge_calls_rows_final()): *@p state is then 0 when
 * the next row's frames are not final yet, -1 when they never will be
 * here. Returns the first row not formatted.
 */
static size_t format_rows(struct merge_rows_ctx *c, size_t first, size_t last, char *buf,
                          size_t cap, size_t *used, bool final, int *state)
{
	_Static_assert(MERGE_RECS_BLOCK <= MERGE_CALLS_ROWS_MAX, "a block's calls columns at once");
	struct join_rec block[MERGE_RECS_BLOCK];
	int64_t cols[MERGE_RECS_BLOCK][CALLS_COLS];
	int64_t end_entry[MERGE_RECS_BLOCK], end_exit[MERGE_RECS_BLOCK];
	char *p = buf;
	size_t i = first;

	*state = 1;
	while (i < last && (size_t)(p - buf) + MERGED_ROW_MAX <= cap) {
		size_t room = (cap - (size_t)(p - buf)) / MERGED_ROW_MAX;
		size_t n = last - i < MERGE_RECS_BLOCK ? last - i : MERGE_RECS_BLOCK;
		if (n > room)
			n = room;
		if (spill_read(c->recs, i, n, block) != 0) {
			*state = -1;
			c->read_error = errno ? errno : EIO;
			break;
		}
		/* The row's xrEndFrame call: pre's bracket of it. */
		for (size_t k = 0; k < n; k++) {
			end_entry[k] = block[k].t_entry_ns;
			end_exit[k] = block[k].t_entry_ns + block[k].pre_ns;
		}
		if (final) {
			*state = merge_calls_rows_final(c->calls, i, n, end_entry, end_exit, &cols[0][0]);
			if (*state != 1)
				break;
		} else if (merge_calls_rows(c->calls, i, n, end_entry, end_exit, &cols[0][0]) != 0) {
			*state = -1;
			c->read_error = errno ? errno : EIO;
			break;
		}
		for (size_t k = 0; k < n; k++) {
			struct merged_row r;
			make_row(c, &block[k], cols[k], final || c->calls->present, &r);
			p = merged_write_format_row(p, &r);
		}
		i += n;
	}
	*used = (size_t)(p - buf);
	return i;
}

size_t merge_rows_fill(void *ctx, size_t first, size_t last, char *buf, size_t cap, size_t *used)
{
	struct merge_rows_ctx *c = ctx;
	int state;
	size_t off = c->row_offset;
	size_t next = format_rows(c, first + off, last + off, buf, cap, used, false, &state);

	/* A failed read ends the rows here; the merge then fails (see write_output). */
	return state < 0 ? last : next - off;
}

size_t merge_rows_fill_final(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                             size_t *used, int *state)
{
	return format_rows(ctx, first, last, buf, cap, used, true, state);
}
