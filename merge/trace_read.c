/*
 * `xrlm trace`'s streaming readers; see trace_read.h.
 */
#include "trace_read.h"

#include "csvr.h"
#include "side_cpu.h"
#include "side_gpu.h"
#include "u_ctl.h"
#include "u_parse.h"
#include "u_ticks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the csvr callbacks get: side_file_comment() reads the first member. */
struct reader {
	struct side_reader side;
	trace_call_fn call_fn;
	trace_gpu_fn gpu_fn;
	trace_mark_fn mark_fn;
	void *ctx;
	int64_t rows; /* frames files: the frame id of the next row, less one */
	bool has_cal;
	int64_t cal_ns;
	double bracket_ns; /* GPU files: the last `# gpu_bracket_ns=` seen; NAN: none */
	/*
	 * GPU files: the clock unwrapped, from the latest calibration on. The
	 * ticks of the last valid row (or of the calibration), and how many
	 * ticks past the calibration's they are; each row moves it on by its
	 * nearest distance from the one before (u_ticks_delta()), so a clock
	 * that wraps any number of times is followed as long as consecutive
	 * rows are less than half a wrap apart.
	 */
	uint64_t last_ticks;
	int64_t since_cal;
};

/* Largest |time| accepted, as the merge's readers. */
#define TIME_MAX SIDE_TIME_NS_MAX

static int frames_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                      size_t msg_size)
{
	struct reader *r = ctx;
	struct side_times t;
	(void)present;

	/* In ticks of the file's clock, as a calls file's (calls_read.c). */
	if (side_file_row_times(r->side.meta, v[2].i, v[3].i, &t, msg, msg_size) != 0)
		return -1;
	struct trace_call c = {"xrEndFrame", v[1].u, t.entry_ns, t.exit_ns, ++r->rows, v[0].i, 0};
	return r->call_fn ? r->call_fn(r->ctx, &c, msg, msg_size) : 0;
}

/* The value of "key=" among the blank-separated words of @p text, parsed. */
static bool word_value(const char *text, const char *key, uint64_t *out)
{
	size_t n = strlen(key);
	for (const char *p = text; (p = strstr(p, key)) != NULL; p += n) {
		if (p != text && p[-1] != ' ')
			continue;
		const char *v = p + n;
		return u_parse_span_u64(v, strcspn(v, " \t"), out) == U_PARSE_OK;
	}
	return false;
}

/* "# mark t=<ns> [key=value ...] text=<escaped>": a user's mark (README, control socket). */
static int frames_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct reader *r = ctx;
	uint64_t t;
	char mark[TRACE_MARK_MAX];

	if (strncmp(text, "mark ", 5) != 0)
		return side_file_comment(ctx, text, in_header, msg, msg_size);
	const char *body = strstr(text, " text=");
	if (!word_value(text, "t=", &t) || t >= (uint64_t)TIME_MAX || !body) {
		snprintf(msg, msg_size, "mark line without t= and text=");
		return -1;
	}
	u_ctl_unescape(body + 6, mark, sizeof(mark));
	if (r->mark_fn)
		r->mark_fn(r->ctx, (int64_t)t, mark);
	return 0;
}

int trace_read_frames(const char *path, const char *side, struct side_meta *meta,
                      struct csvr_diag *diag, trace_call_fn fn, trace_mark_fn mark, void *ctx)
{
	struct reader r = {.side = {meta, side, NULL}, .call_fn = fn, .mark_fn = mark, .ctx = ctx};
	struct csvr_format frames_format = side_cpu_format;

	frames_format.comment = frames_comment;
	frames_format.row = frames_row;
	memset(meta, 0, sizeof(*meta));
	memset(diag, 0, sizeof(*diag));
	return csvr_read(path, &frames_format, &r, diag, &meta->truncated_rows);
}

/*
 * "# calibration gpu_ticks=<t> monotonic_ns=<ns> ...": the GPU clock's
 * place; "# gpu_bracket_ns=<ns>": the bracket for the rows below.
 */
static int gpu_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct reader *r = ctx;
	uint64_t ticks, ns;
	int bracket = side_gpu_bracket_line(text, &r->bracket_ns, msg, msg_size);

	if (bracket != 0)
		return bracket < 0 ? -1 : 0;
	if (strncmp(text, "calibration ", 12) != 0)
		return side_file_comment(ctx, text, in_header, msg, msg_size);
	if (!word_value(text, "gpu_ticks=", &ticks) || !word_value(text, "monotonic_ns=", &ns) ||
	    ns >= (uint64_t)TIME_MAX) {
		snprintf(msg, msg_size, "calibration line without gpu_ticks= and monotonic_ns=");
		return -1;
	}
	r->has_cal = true;
	r->cal_ns = (int64_t)ns;
	r->last_ticks = ticks;
	r->since_cal = 0;
	return 0;
}

/*
 * Moves the unwrapped clock on to @p ticks (a valid row's). Wrapping
 * arithmetic: a 64-bit clock then gives exactly (int64_t)(ticks -
 * calibration's), as it always did, and a hostile file no overflow.
 */
static int64_t unwrap(struct reader *r, uint64_t ticks)
{
	int64_t step = u_ticks_delta(ticks, r->last_ticks, side_meta_gpu_bits(r->side.meta));

	r->since_cal = (int64_t)((uint64_t)r->since_cal + (uint64_t)step);
	r->last_ticks = ticks;
	return r->since_cal;
}

static int gpu_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                   size_t msg_size)
{
	struct reader *r = ctx;
	struct trace_gpu g = {v[0].i, v[1].u, side_meta_gpu_bits(r->side.meta), v[2].f, v[3].u != 0,
	                      false, 0, r->bracket_ns};
	(void)present;

	if (side_gpu_check_period(g.period_ns, msg, msg_size) != 0)
		return -1;
	if (r->has_cal && g.valid) {
		double at = (double)r->cal_ns + (double)unwrap(r, g.ticks) * g.period_ns;
		if (at > 0.0 && at < (double)TIME_MAX) {
			g.placed = true;
			g.t_ns = (int64_t)llround(at);
		}
	}
	return r->gpu_fn(r->ctx, &g, msg, msg_size);
}

int trace_read_gpu(const char *path, const char *side, struct side_meta *meta,
                   struct csvr_diag *diag, trace_gpu_fn fn, void *ctx)
{
	struct reader r = {.side = {meta, side, NULL}, .gpu_fn = fn, .ctx = ctx, .bracket_ns = NAN};
	struct csvr_format gpu_format = side_gpu_format;

	gpu_format.comment = gpu_comment;
	gpu_format.row = gpu_row;
	memset(meta, 0, sizeof(*meta));
	memset(diag, 0, sizeof(*diag));
	return csvr_read(path, &gpu_format, &r, diag, &meta->truncated_rows);
}
