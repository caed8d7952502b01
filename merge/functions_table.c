/*
 * The per-function table; see functions_table.h. Numbers go through fmt.h,
 * so the output does not depend on the locale.
 */
#include "functions_table.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "functions_read.h"
#include "quote.h"

/* The cells of one row, as read. */
struct fn_row {
	char fn[CSVR_TEXT_MAX];
	char phase[CSVR_TEXT_MAX];
	uint64_t calls, induced, own_thread;
	double num[FUNCTIONS_COL_SHARE + 1]; /* _PER_FRAME.._SHARE; NAN: blank */
};

struct rows {
	struct fn_row *rows;
	size_t count, cap;
};

static int keep_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                    size_t msg_size)
{
	struct rows *t = ctx;

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct fn_row *p = realloc(t->rows, cap * sizeof(*p));
		if (!p) {
			snprintf(msg, msg_size, "out of memory");
			return -1;
		}
		t->rows = p;
		t->cap = cap;
	}
	struct fn_row *r = &t->rows[t->count++];
	snprintf(r->fn, sizeof(r->fn), "%s",
	         (present & (1u << FUNCTIONS_COL_FN)) ? v[FUNCTIONS_COL_FN].s : "");
	snprintf(r->phase, sizeof(r->phase), "%s",
	         (present & (1u << FUNCTIONS_COL_PHASE)) ? v[FUNCTIONS_COL_PHASE].s : "");
	quote_text(r->fn);
	quote_text(r->phase);
	r->calls = v[FUNCTIONS_COL_CALLS].u;
	r->induced = v[FUNCTIONS_COL_INDUCED].u;
	r->own_thread = v[FUNCTIONS_COL_OWN_THREAD].u;
	for (int c = FUNCTIONS_COL_PER_FRAME; c <= FUNCTIONS_COL_SHARE; c++)
		r->num[c] = (present & (1u << c)) ? v[c].f : NAN;
	return 0;
}

/* Most target time first (blank last); ties by name. */
static int by_total(const void *a, const void *b)
{
	const struct fn_row *x = a, *y = b;
	double p = isnan(x->num[FUNCTIONS_COL_TOTAL]) ? -INFINITY : x->num[FUNCTIONS_COL_TOTAL];
	double q = isnan(y->num[FUNCTIONS_COL_TOTAL]) ? -INFINITY : y->num[FUNCTIONS_COL_TOTAL];

	if (p != q)
		return p > q ? -1 : 1;
	return strcmp(x->fn, y->fn);
}

/* A number with @p decimals, or "-" when blank. */
static const char *num(char *buf, double v, int decimals)
{
	return isnan(v) ? "-" : fmt_fixed_str(buf, v, decimals);
}

static void print_row(FILE *f, const struct fn_row *r)
{
	char a[FMT_NUM_MAX], b[FMT_NUM_MAX], c[FMT_NUM_MAX], d[FMT_NUM_MAX], e[FMT_NUM_MAX],
		g[FMT_NUM_MAX], h[FMT_NUM_MAX];

	fprintf(f, "%-34s %-12s %9" PRIu64 " %8s %12s %10s %10s %10s %10s %7s %8" PRIu64 " %10" PRIu64
	        "\n", r->fn, r->phase, r->calls, num(a, r->num[FUNCTIONS_COL_PER_FRAME], 2),
	        num(b, r->num[FUNCTIONS_COL_TOTAL], 2), num(c, r->num[FUNCTIONS_COL_MEAN], 2),
	        num(d, r->num[FUNCTIONS_COL_P50], 2), num(e, r->num[FUNCTIONS_COL_P99], 2),
	        num(g, r->num[FUNCTIONS_COL_MAX], 2), num(h, r->num[FUNCTIONS_COL_SHARE], 2),
	        r->induced, r->own_thread);
}

int functions_table_print(FILE *f, const char *path, uint64_t merged_frames, bool all,
                          struct csvr_diag *diag)
{
	struct rows t = {0};

	if (functions_read_each(path, merged_frames, keep_row, &t, diag) != 0) {
		free(t.rows);
		return -1;
	}
	qsort(t.rows, t.count, sizeof(*t.rows), by_total);
	size_t shown = all || t.count <= FUNCTIONS_TABLE_TOP ? t.count : FUNCTIONS_TABLE_TOP;
	fprintf(f, "\nper function (the target's exclusive time in the app's calls, microseconds; "
	        "%zu of %zu functions%s):\n", shown, t.count,
	        shown < t.count ? ", most time first; --all for every one" : "");
	fprintf(f, "%-34s %-12s %9s %8s %12s %10s %10s %10s %10s %7s %8s %10s\n", "function", "phase",
	        "calls", "/frame", "total", "mean", "p50", "p99", "max", "share%", "induced",
	        "own-thread");
	for (size_t k = 0; k < shown; k++)
		print_row(f, &t.rows[k]);
	free(t.rows);
	return 0;
}
