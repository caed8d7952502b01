/*
 * Reading a merged CSV back; see merged_read.h.
 */
#include "merged_read.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "u_parse.h"
#include "u_phase.h"

#include "merged_write.h"
#include "quote.h"
#include "side_file.h"
#include "utf8.h"

/* The columns every layout begins with (MERGED_HEADER). */
enum {
	COL_DISPLAY_TIME,
	COL_THREAD_ID,
	COL_INTERVAL_US,
	COL_PRE_US,
	COL_POST_US,
	COL_TARGET_US,
	COL_CPU_PCT,
	COL_GPU_US,
	COL_GPU_PCT,
};

#define KINDS_FIRST                                                                            \
	CSVR_I64, CSVR_U64, CSVR_F64_OPT, CSVR_F64, CSVR_F64, CSVR_F64, CSVR_F64_OPT,            \
	        CSVR_F64_OPT, CSVR_F64_OPT
#define NAMES_FIRST                                                                            \
	"display_time", "thread_id", "frame_interval_us", "pre_us", "post_us", "target_us",    \
	        "target_cpu_pct_of_frame", "target_gpu_us", "target_gpu_pct_of_frame"
#define KINDS_CALLS                                                                            \
	CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT,      \
	        CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT, CSVR_F64_OPT
#define NAMES_CALLS                                                                            \
	"target_wait_us", "target_begin_us", "target_end_us", "target_locate_views_us",         \
	        "target_sync_actions_us", "target_swapchain_us", "target_other_us",             \
	        "target_total_us", "app_wait_us", "app_cpu_us", "app_render_us", "app_submit_us"
#define KIND_GPU_RAW CSVR_F64_OPT
#define NAME_GPU_RAW "target_gpu_raw_us"
#define KIND_GATE CSVR_U64_OPT
#define NAME_GATE "gate_tripped"

/*
 * Every column header a merged CSV has had (merged_write.h), the newest
 * first: what merged_write_summary() writes now, then the layouts with
 * gate_tripped tenth, then the nine columns before gate_tripped. A file's
 * header is exactly one of them.
 */
static const struct csvr_format layouts[] = {
	{
		.header = MERGED_HEADER MERGED_CALLS_HEADER MERGED_GPU_RAW_HEADER MERGED_GATE_HEADER,
		.ncols = MERGED_COLUMNS + MERGED_CALLS_COLUMNS + 2,
		.kinds = {KINDS_FIRST, KINDS_CALLS, KIND_GPU_RAW, KIND_GATE},
		.names = {NAMES_FIRST, NAMES_CALLS, NAME_GPU_RAW, NAME_GATE},
	},
	{
		.header = MERGED_HEADER MERGED_CALLS_HEADER MERGED_GATE_HEADER,
		.ncols = MERGED_COLUMNS + MERGED_CALLS_COLUMNS + 1,
		.kinds = {KINDS_FIRST, KINDS_CALLS, KIND_GATE},
		.names = {NAMES_FIRST, NAMES_CALLS, NAME_GATE},
	},
	{
		.header = MERGED_HEADER MERGED_GATE_HEADER,
		.ncols = MERGED_COLUMNS + 1,
		.kinds = {KINDS_FIRST, KIND_GATE},
		.names = {NAMES_FIRST, NAME_GATE},
	},
	{
		.header = MERGED_HEADER MERGED_GATE_HEADER MERGED_CALLS_HEADER MERGED_GPU_RAW_HEADER,
		.ncols = MERGED_COLUMNS + MERGED_CALLS_COLUMNS + 2,
		.kinds = {KINDS_FIRST, KIND_GATE, KINDS_CALLS, KIND_GPU_RAW},
		.names = {NAMES_FIRST, NAME_GATE, NAMES_CALLS, NAME_GPU_RAW},
	},
	{
		.header = MERGED_HEADER MERGED_GATE_HEADER MERGED_CALLS_HEADER,
		.ncols = MERGED_COLUMNS + MERGED_CALLS_COLUMNS + 1,
		.kinds = {KINDS_FIRST, KIND_GATE, KINDS_CALLS},
		.names = {NAMES_FIRST, NAME_GATE, NAMES_CALLS},
	},
	{
		.header = MERGED_HEADER,
		.ncols = MERGED_COLUMNS,
		.kinds = {KINDS_FIRST},
		.names = {NAMES_FIRST},
	},
};
#define LAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

/* State of one merged_read_each() call. */
/* Summary keys checked for repeats: a merge writes ~60, none longer than ~30 bytes. */
#define SUMMARY_KEYS_MAX 128
#define SUMMARY_KEY_MAX 64

struct each_ctx {
	const struct merged_read_cb *cb;
	void *ctx;
	int gate_col; /* the file's gate_tripped column, -1 if it has none */
	char frame_count[32]; /* the summary's frame_count, as written ("" without one) */
	uint64_t rows;
	char keys_seen[SUMMARY_KEYS_MAX][SUMMARY_KEY_MAX]; /* the summary's keys so far */
	size_t nkeys;
	char twice[SUMMARY_KEY_MAX]; /* the first key given twice ("" while none is) */
};

/* The layout @p line (@p len bytes) is exactly, or NULL. */
static const struct csvr_format *find_layout(const char *line, size_t len)
{
	for (size_t i = 0; i < LAYOUTS; i++)
		if (strlen(layouts[i].header) == len && memcmp(layouts[i].header, line, len) == 0)
			return &layouts[i];
	return NULL;
}

/*
 * The layout a wrong header @p line (@p ncols columns) is nearest: the one
 * it follows longest, of those as long the one with as many columns.
 */
static const struct csvr_format *nearest_layout(const char *line, size_t len, int ncols)
{
	const struct csvr_format *best = &layouts[0];
	size_t best_len = 0;

	for (size_t i = 0; i < LAYOUTS; i++) {
		const char *h = layouts[i].header;
		size_t n = 0;
		/* A NUL in @p line must not take us past the end of @p h. */
		while (n < len && h[n] != '\0' && h[n] == line[n])
			n++;
		if (n > best_len || (n == best_len && layouts[i].ncols == ncols)) {
			best = &layouts[i];
			best_len = n;
		}
	}
	return best;
}

/* csvr's header_line: one of the layouts, whose columns the rows then have. */
static int merged_header(void *ctx, const char *line, size_t len, enum csvr_kind *kinds,
                         const char **names, char *msg, size_t msg_size)
{
	struct each_ctx *e = ctx;
	const struct csvr_format *f = find_layout(line, len);

	if (!f) {
		int ncols = 1;
		for (size_t i = 0; i < len; i++)
			ncols += line[i] == ',';
		csvr_wrong_header(nearest_layout(line, len, ncols)->header, line, len, msg, msg_size);
		return 0;
	}
	e->gate_col = -1;
	for (int c = 0; c < f->ncols; c++) {
		kinds[c] = f->kinds[c];
		names[c] = f->names[c];
		if (strcmp(f->names[c], NAME_GATE) == 0)
			e->gate_col = c;
	}
	if (e->cb->columns)
		e->cb->columns(e->ctx, f);
	return f->ncols;
}

/*
 * Whether summary key @p key came before in this file (noted for a
 * warning): every reader takes a key's first value, as ncsv_meta_value()
 * does. Keys of SUMMARY_KEY_MAX bytes or more, and keys past
 * SUMMARY_KEYS_MAX, are never taken for a repeat.
 */
static bool seen_before(struct each_ctx *e, const char *key)
{
	if (strlen(key) >= SUMMARY_KEY_MAX)
		return false;
	for (size_t i = 0; i < e->nkeys; i++) {
		if (strcmp(e->keys_seen[i], key) != 0)
			continue;
		if (!e->twice[0])
			snprintf(e->twice, sizeof(e->twice), "%s", key);
		return true;
	}
	if (e->nkeys < SUMMARY_KEYS_MAX)
		snprintf(e->keys_seen[e->nkeys++], SUMMARY_KEY_MAX, "%s", key);
	return false;
}

static int merged_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct each_ctx *e = ctx;
	char key[CSVR_MSG_MAX / 2];
	const char *eq = strchr(text, '=');

	/* Comments after the rows, and lines that are not key=value, carry nothing. */
	if (!in_header || !eq)
		return 0;
	size_t klen = (size_t)(eq - text);
	while (klen > 0 && (text[klen - 1] == ' ' || text[klen - 1] == '\t'))
		klen--;
	if (klen >= sizeof(key))
		klen = sizeof(key) - 1;
	memcpy(key, text, klen);
	key[klen] = '\0';
	const char *value = eq + 1;
	value += strspn(value, " \t");
	if (seen_before(e, key))
		return 0;
	if (strcmp(key, "gpu_mode") == 0 && merged_gpu_mode_bad(value, msg, msg_size))
		return -1;
	if (strcmp(key, "frame_count") == 0)
		snprintf(e->frame_count, sizeof(e->frame_count), "%.31s", value);
	return e->cb->summary ? e->cb->summary(e->ctx, key, value, msg, msg_size) : 0;
}

static double opt(const union csvr_value *v, uint32_t present, int col)
{
	return (present & (1u << col)) ? v[col].f : NAN;
}

static int merged_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                      size_t msg_size)
{
	struct each_ctx *e = ctx;

	e->rows++;
	if (e->cb->cells && e->cb->cells(e->ctx, v, present, msg, msg_size) != 0)
		return -1;
	if (!e->cb->row)
		return 0;
	bool has_gate = e->gate_col >= 0 && (present & (1u << e->gate_col));
	if (has_gate && v[e->gate_col].u > 1) {
		snprintf(msg, msg_size, "column %d (gate_tripped) is not 0 or 1", e->gate_col + 1);
		return -1;
	}
	struct merged_values r = {
		.display_time = v[COL_DISPLAY_TIME].i,
		.thread_id = v[COL_THREAD_ID].u,
		.frame_interval_us = opt(v, present, COL_INTERVAL_US),
		.pre_us = v[COL_PRE_US].f,
		.post_us = v[COL_POST_US].f,
		.target_us = v[COL_TARGET_US].f,
		.target_cpu_pct = opt(v, present, COL_CPU_PCT),
		.target_gpu_us = opt(v, present, COL_GPU_US),
		.target_gpu_pct = opt(v, present, COL_GPU_PCT),
		.gate_tripped = has_gate ? (int)v[e->gate_col].u : -1,
	};
	return e->cb->row(e->ctx, &r, msg, msg_size);
}

static const struct csvr_format merged_format = {
	.header = MERGED_HEADER MERGED_CALLS_HEADER MERGED_GPU_RAW_HEADER MERGED_GATE_HEADER,
	.header_line = merged_header,
	.comment = merged_comment,
	.row = merged_row,
};

const struct csvr_format *merged_read_format(void)
{
	return &layouts[0];
}

int merged_read_each(const char *path, const struct merged_read_cb *cb, void *ctx,
                     struct csvr_diag *diag)
{
	struct each_ctx e = {.cb = cb, .ctx = ctx};

	memset(diag, 0, sizeof(*diag));
	if (csvr_read(path, &merged_format, &e, diag, NULL) != 0)
		return -1;
	char warning[CSVR_MSG_MAX];
	if (merged_rows_warning(path, e.frame_count, e.rows, warning, sizeof(warning)))
		csvr_diag_add_warning(diag, warning);
	if (e.twice[0]) {
		char q[QUOTE_PATH_MAX];
		quote_text(e.twice);
		snprintf(warning, sizeof(warning), "%s: warning: the summary gives %s more than once "
		         "(an edited or joined file?): the first is used", quote_path(q, path), e.twice);
		csvr_diag_add_warning(diag, warning);
	}
	return 0;
}

bool merged_gpu_mode_bad(const char *value, char *msg, size_t msg_size)
{
	/* What the merge writes: a GPU file's mode, "unknown" or nothing. */
	if (!value[0] || strcmp(value, "unknown") == 0 || side_file_gpu_mode_known(value))
		return false;
	char quoted[64];
	csvr_quote_field(quoted, sizeof(quoted), value, strlen(value));
	snprintf(msg, msg_size, "gpu_mode is not a GPU mode (gated, sandwich, unknown or empty): "
	         "\"%s\"", quoted);
	return true;
}

uint64_t merged_frames(const char *frame_count, uint64_t rows)
{
	uint64_t count;

	if (!frame_count || u_parse_span_u64(frame_count, strlen(frame_count), &count) != U_PARSE_OK)
		return rows;
	return count;
}

bool merged_rows_warning(const char *path, const char *frame_count, uint64_t rows, char *buf,
                         size_t size)
{
	uint64_t count;
	char q[QUOTE_PATH_MAX];

	if (!frame_count || !frame_count[0])
		return false; /* nothing to check against */
	if (u_parse_span_u64(frame_count, strlen(frame_count), &count) != U_PARSE_OK) {
		char quoted[64];
		csvr_quote_field(quoted, sizeof(quoted), frame_count, strlen(frame_count));
		snprintf(buf, size, "%s: warning: its summary's frame_count is not a count (\"%s\"): "
		         "its rows are not checked against it", quote_path(q, path), quoted);
		return true;
	}
	if (count == rows)
		return false;
	snprintf(buf, size, "%s: warning: %" PRIu64 " rows, but its summary says frame_count=%"
	         PRIu64 " (cut short, or rows added?): the figures are the rows'", quote_path(q, path),
	         rows, count);
	return true;
}

/* merged_read()'s row callback: the statistics' value columns. */
static int add_to_columns(void *ctx, const struct merged_values *r, char *msg, size_t msg_size)
{
	struct columns *c = ctx;

	if (columns_add(c, r->target_us, r->target_cpu_pct, r->target_gpu_us, r->target_gpu_pct,
	                r->frame_interval_us) != 0) {
		if (c->error)
			snprintf(msg, msg_size, "cannot write a temporary file in $TMPDIR: %s",
			         strerror(c->error));
		else
			snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	return 0;
}

int merged_read(const char *path, struct columns *out, struct csvr_diag *diag)
{
	static const struct merged_read_cb cb = {.row = add_to_columns};

	if (columns_create(out, csvr_estimate_rows(path, 48)) != 0) {
		char q[QUOTE_PATH_MAX];
		memset(diag, 0, sizeof(*diag));
		snprintf(diag->error, sizeof(diag->error), "%s: error: out of memory",
		         quote_path(q, path));
		diag->failed = true;
		return -1;
	}
	if (merged_read_each(path, &cb, out, diag) != 0) {
		columns_destroy(out);
		return -1;
	}
	return 0;
}

/* State of one merged_read_stats() call. */
struct stats_ctx {
	struct columns columns;
	struct merge_summary *s;
	bool phases_seen; /* a phases_recorded line (none before XRLM_FUNCTIONS was said: all) */
};

/* A summary line's count, if @p key is one merged_read_stats() keeps. */
static uint64_t *count_slot(struct merge_summary *s, const char *key)
{
	static const struct {
		const char *key;
		size_t offset;
	} counts[] = {
		{"dropped_queue_full_pre", offsetof(struct merge_summary, dropped_queue_full_pre)},
		{"dropped_queue_full_post", offsetof(struct merge_summary, dropped_queue_full_post)},
		{"gpu_ring_overflow_pre", offsetof(struct merge_summary, gpu_ring_overflow_pre)},
		{"gpu_ring_overflow_post", offsetof(struct merge_summary, gpu_ring_overflow_post)},
		{"unmatched_pre", offsetof(struct merge_summary, unmatched_pre)},
		{"unmatched_post", offsetof(struct merge_summary, unmatched_post)},
		{"truncated_rows", offsetof(struct merge_summary, truncated_rows)},
		{"gate_trips", offsetof(struct merge_summary, gate_trips)},
	};

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (strcmp(key, counts[i].key) == 0)
			return (uint64_t *)((char *)s + counts[i].offset);
	for (size_t i = 0; i < MERGED_CALLS_COUNTS; i++) {
		if (strcmp(key, merged_calls_counts[i].key) == 0) {
			s->has_calls = true; /* only a merge with calls files writes them */
			return (uint64_t *)((char *)s + merged_calls_counts[i].offset);
		}
	}
	return NULL;
}

static int stats_summary_line(void *ctx, const char *key, const char *value, char *msg,
                              size_t msg_size)
{
	struct stats_ctx *c = ctx;
	uint64_t *count = count_slot(c->s, key);

	if (count) {
		enum u_parse_result r = u_parse_span_u64(value, strlen(value), count);
		if (r != U_PARSE_OK) {
			snprintf(msg, msg_size, "%s %s (expected a count)", key, u_parse_result_str(r));
			return -1;
		}
	} else if (strcmp(key, "gpu_mode") == 0) {
		/* Checked by merged_comment(). */
		snprintf(c->s->gpu_mode, sizeof(c->s->gpu_mode), "%.31s", value);
		c->s->has_gpu_info = true;
	} else if (strcmp(key, "frame_count") == 0) {
		/* Not a count: merged_rows_warning() says so; the rows are counted. */
		c->s->summary_frame_count = merged_frames(value, 0);
	} else if (strcmp(key, "phases_recorded") == 0) {
		if (!u_phase_set_parse(value, &c->s->phases_recorded)) {
			char quoted[64];
			csvr_quote_field(quoted, sizeof(quoted), value, strlen(value));
			snprintf(msg, msg_size, "phases_recorded is not a list of phases: \"%s\"", quoted);
			return -1;
		}
		c->phases_seen = true;
	} else if (strcmp(key, "target_layer") == 0) {
		utf8_copy(c->s->target_layer, sizeof(c->s->target_layer), value);
	}
	return 0;
}

static int stats_row(void *ctx, const struct merged_values *r, char *msg, size_t msg_size)
{
	struct stats_ctx *c = ctx;
	return add_to_columns(&c->columns, r, msg, msg_size);
}

int merged_read_stats(const char *path, struct merge_summary *s, struct csvr_diag *diag)
{
	static const struct merged_read_cb cb = {.summary = stats_summary_line, .row = stats_row};
	struct stats_ctx c = {.s = s};
	char q[QUOTE_PATH_MAX];

	memset(s, 0, sizeof(*s));
	/* Streaming columns: bounded memory whatever the file's length; what
	 * does not fit goes to unnamed files in $TMPDIR (or /tmp). */
	if (columns_create_stream(&c.columns, NULL) != 0) {
		memset(diag, 0, sizeof(*diag));
		snprintf(diag->error, sizeof(diag->error), "%s: error: out of memory",
		         quote_path(q, path));
		diag->failed = true;
		return -1;
	}
	int ret = merged_read_each(path, &cb, &c, diag);
	if (!c.phases_seen)
		s->phases_recorded = U_PHASE_ALL;
	if (ret == 0 && columns_summarize(&c.columns, s) != 0) {
		snprintf(diag->error, sizeof(diag->error), "%s: error: cannot use a temporary file "
		         "in $TMPDIR: %s", quote_path(q, path),
		         strerror(c.columns.error ? c.columns.error : ENOMEM));
		diag->failed = true;
		ret = -1;
	}
	columns_destroy(&c.columns);
	return ret;
}
