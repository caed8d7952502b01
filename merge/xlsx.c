/*
 * `xrlm xlsx`: the workbook; see xlsx.h.
 *
 * The workbook is built in libxlsxwriter's constant-memory mode (each
 * sheet's rows stream to a temporary file in the output directory, written
 * in row order), so a session of millions of frames needs memory only for
 * the two value columns the histograms are built from.
 */
#include "xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <xlsxwriter.h>

#include "columns.h"
#include "fmt.h"
#include "functions_read.h"
#include "histogram.h"
#include "merged_read.h"
#include "xlsx_book.h"

/* Integers beyond this are written as text: a double would round them. */
#define XLSX_EXACT_INT (INT64_C(1) << 53)

/* Inputs this large may make a zip member pass 4 GiB: use ZIP64 then. */
#define XLSX_ZIP64_INPUT_BYTES (512ull << 20)

/* Cell formats by column, chosen from the column's name. */
static lxw_format *column_format(struct xlsx_book *b, const char *name)
{
	size_t n = strlen(name);

	if (strstr(name, "pct"))
		return b->fmt_pct_col;
	if (n > 3 && strcmp(name + n - 3, "_us") == 0)
		return b->fmt_us;
	return NULL;
}

/* Writes @p u: a number, or its digits as text past 2^53. */
static void write_u64(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, uint64_t u)
{
	char buf[FMT_NUM_MAX];

	if (u < (uint64_t)XLSX_EXACT_INT) {
		xlsx_book_check(b, worksheet_write_number(ws, r, c, (double)u, NULL));
		return;
	}
	*fmt_u64(buf, u) = '\0';
	xlsx_book_check(b, worksheet_write_string(ws, r, c, buf, NULL));
}

/* Writes @p v: a number, or its digits as text past -2^53 or 2^53. */
static void write_i64(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, int64_t v)
{
	char buf[FMT_NUM_MAX];

	if (v >= 0) {
		write_u64(b, ws, r, c, (uint64_t)v);
	} else if (v > -XLSX_EXACT_INT) {
		xlsx_book_check(b, worksheet_write_number(ws, r, c, (double)v, NULL));
	} else {
		*fmt_i64(buf, v) = '\0';
		xlsx_book_check(b, worksheet_write_string(ws, r, c, buf, NULL));
	}
}

/* Writes one row of values read by the csvr engine. */
static void write_values(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r,
                         const struct csvr_format *f, const union csvr_value *v, uint32_t present)
{
	for (int c = 0; c < f->ncols; c++) {
		if (!(present & (1u << c)))
			continue;
		switch (f->kinds[c]) {
		case CSVR_I64: write_i64(b, ws, r, (lxw_col_t)c, v[c].i); break;
		case CSVR_U64: write_u64(b, ws, r, (lxw_col_t)c, v[c].u); break;
		case CSVR_TEXT: xlsx_book_write_string(b, ws, r, (lxw_col_t)c, v[c].s, NULL); break;
		default:
			xlsx_book_check(b, worksheet_write_number(ws, r, (lxw_col_t)c, v[c].f,
			                                          column_format(b, f->names[c])));
			break;
		}
	}
}

/* Adds a data sheet named @p name with the header of @p f's first @p ncols columns, frozen. */
static lxw_worksheet *add_table_sheet(struct xlsx_book *b, const char *name,
                                      const struct csvr_format *f, int ncols)
{
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, name);

	if (!ws) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return NULL;
	}
	for (int c = 0; c < ncols; c++) {
		double width = strlen(f->names[c]) + 2.0;
		xlsx_book_check(b, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c,
		                                        width < 12 ? 12 : width,
		                                        column_format(b, f->names[c])));
		xlsx_book_check(b, worksheet_write_string(ws, 0, (lxw_col_t)c, f->names[c], b->fmt_bold));
	}
	worksheet_freeze_panes(ws, 1, 0);
	return ws;
}

/* ---- Summary and Frames, filled while the merged CSV is read ---- */

struct frames_ctx {
	struct xlsx_book *b;
	const struct xlsx_job *job;
	lxw_worksheet *summary;
	lxw_worksheet *frames;
	lxw_row_t summary_row;
	uint32_t sheet_rows; /* frames on the current Frames sheet */
	unsigned sheets;
	uint64_t frames_total;
	char frame_count[32]; /* the summary's frame_count, as written ("" without one) */
	uint64_t first_sheet_frames;
	struct columns *values;
	const struct csvr_format *layout; /* the merged file's columns, as they are */
};

static void keep_columns(void *ctx, const struct csvr_format *layout)
{
	struct frames_ctx *fc = ctx;
	fc->layout = layout;
}

static int on_summary(void *ctx, const char *key, const char *value, char *msg, size_t msg_size)
{
	struct frames_ctx *fc = ctx;
	struct xlsx_book *b = fc->b;
	lxw_row_t r = fc->summary_row++;

	if (strcmp(key, "frame_count") == 0)
		snprintf(fc->frame_count, sizeof(fc->frame_count), "%.31s", value);
	xlsx_book_write_string(b, fc->summary, r, 0, key, NULL);
	xlsx_book_write_typed(b, fc->summary, r, 1, value);
	return xlsx_book_failed(b, msg, msg_size);
}

/* Starts the next Frames sheet ("Frames", then "Frames 2", ...). */
static int next_frames_sheet(struct frames_ctx *fc)
{
	char name[32];

	if (fc->sheets == 0)
		snprintf(name, sizeof(name), "Frames");
	else
		snprintf(name, sizeof(name), "Frames %u", fc->sheets + 1);
	fc->frames = add_table_sheet(fc->b, name, fc->layout, fc->layout->ncols);
	if (!fc->frames)
		return -1;
	fc->sheets++;
	fc->sheet_rows = 0;
	return 0;
}

/* The histograms' values: target_us and target_gpu_us of every frame. */
static int keep_values(void *ctx, const struct merged_values *r, char *msg, size_t msg_size)
{
	struct frames_ctx *fc = ctx;

	if (columns_add(fc->values, r->target_us, NAN, r->target_gpu_us, NAN, NAN) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	return 0;
}

static int on_frame(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                    size_t msg_size)
{
	struct frames_ctx *fc = ctx;

	if ((fc->sheets == 0 || fc->sheet_rows == fc->job->rows_per_sheet) &&
	    next_frames_sheet(fc) != 0)
		return xlsx_book_failed(fc->b, msg, msg_size);
	write_values(fc->b, fc->frames, ++fc->sheet_rows, fc->layout, v, present);
	fc->frames_total++;
	if (fc->sheets == 1)
		fc->first_sheet_frames++;
	return xlsx_book_failed(fc->b, msg, msg_size);
}

/* ---- Functions ---- */

struct table_ctx {
	struct xlsx_book *b;
	lxw_worksheet *ws;
	const struct csvr_format *format;
	uint32_t rows;
};

static int on_function(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                       size_t msg_size)
{
	struct table_ctx *tc = ctx;

	if (tc->rows == XLSX_MAX_ROWS_PER_SHEET) {
		snprintf(msg, msg_size, "more functions than a sheet holds");
		return -1;
	}
	write_values(tc->b, tc->ws, ++tc->rows, tc->format, v, present);
	return xlsx_book_failed(tc->b, msg, msg_size);
}

static int add_functions(struct xlsx_book *b, const char *path, uint64_t merged_frames,
                         uint64_t *rows, merge_log_fn log, void *ctx)
{
	struct table_ctx tc = {.b = b, .format = functions_read_format()};
	struct csvr_diag diag;

	tc.ws = add_table_sheet(b, "Functions", tc.format, tc.format->ncols);
	if (!tc.ws)
		return -1;
	if (functions_read_each(path, merged_frames, on_function, &tc, &diag) != 0) {
		log(ctx, diag.error);
		return -1;
	}
	for (int i = 0; i < diag.warning_count; i++)
		log(ctx, diag.warnings[i]);
	*rows = tc.rows;
	return 0;
}

/* ---- Charts ---- */

/* The column of @p name in the merged CSV, or -1 (the charts' are among every layout's first). */
static int merged_column(const char *name)
{
	const struct csvr_format *f = merged_read_format();

	for (int c = 0; c < f->ncols; c++)
		if (strcmp(f->names[c], name) == 0)
			return c;
	return -1;
}

/* target_us and target_gpu_us (when it has values) over the first Frames sheet's rows. */
static void add_line_chart(struct xlsx_book *b, lxw_worksheet *charts, uint64_t rows, bool gpu)
{
	static const char *const names[] = {"target_us", "target_gpu_us"};
	lxw_chart *chart = workbook_add_chart(b->wb, LXW_CHART_LINE);

	if (!chart) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	for (int i = 0; i < (gpu ? 2 : 1); i++) {
		int col = merged_column(names[i]);
		lxw_chart_series *s = chart_add_series(chart, NULL, NULL);
		if (col < 0 || !s) {
			xlsx_book_check(b, LXW_ERROR_PARAMETER_VALIDATION);
			return;
		}
		chart_series_set_values(s, "Frames", 1, (lxw_col_t)col, (lxw_row_t)rows,
		                        (lxw_col_t)col);
		chart_series_set_name_range(s, "Frames", 0, (lxw_col_t)col);
	}
	chart_title_set_name(chart, "Target layer per frame (µs)");
	chart_axis_set_name(chart->x_axis, "frame");
	chart_axis_set_name(chart->y_axis, "µs");
	chart_show_blanks_as(chart, LXW_CHART_BLANKS_AS_GAP);
	lxw_chart_options opt = {.x_scale = 2.0, .y_scale = 1.2};
	xlsx_book_check(b, worksheet_insert_chart_opt(charts, 1, 11, chart, &opt));
}

/* A column chart over the bin table at column @p col0 of the Charts sheet. */
static void add_histogram_chart(struct xlsx_book *b, lxw_worksheet *charts, lxw_col_t col0,
                                int bins, const char *title, lxw_row_t at)
{
	lxw_chart *chart = workbook_add_chart(b->wb, LXW_CHART_COLUMN);
	lxw_chart_series *s = chart ? chart_add_series(chart, NULL, NULL) : NULL;

	if (!s) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	chart_series_set_categories(s, "Charts", 1, col0 + 3, (lxw_row_t)bins, col0 + 3);
	chart_series_set_values(s, "Charts", 1, col0 + 2, (lxw_row_t)bins, col0 + 2);
	lxw_chart_options opt = {.x_scale = 1.5};
	chart_set_series_gap(chart, 10);
	chart_title_set_name(chart, title);
	chart_axis_set_name(chart->x_axis, "µs");
	chart_axis_set_name(chart->y_axis, "frames");
	chart_legend_set_position(chart, LXW_CHART_LEGEND_NONE);
	xlsx_book_check(b, worksheet_insert_chart_opt(charts, at, 11, chart, &opt));
}

/* Writes the bin table row @p r (1-based bin r-1) of @p h at column @p col0. */
static void write_bin(struct xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t col0,
                      const struct histogram *h)
{
	int i = (int)r - 1;
	char from[FMT_NUM_MAX], to[FMT_NUM_MAX], label[2 * FMT_NUM_MAX + 8];

	fmt_fixed_str(from, histogram_edge(h, i), h->decimals);
	fmt_fixed_str(to, histogram_edge(h, i + 1), h->decimals);
	xlsx_book_check(b, worksheet_write_number(ws, r, col0, histogram_edge(h, i), NULL));
	if (i < h->nbins) {
		xlsx_book_check(b, worksheet_write_number(ws, r, col0 + 1, histogram_edge(h, i + 1), NULL));
		snprintf(label, sizeof(label), "%s to %s", from, to);
	} else {
		snprintf(label, sizeof(label), ">= %s", from);
	}
	xlsx_book_check(b, worksheet_write_number(ws, r, col0 + 2, (double)h->counts[i], NULL));
	xlsx_book_check(b, worksheet_write_string(ws, r, col0 + 3, label, NULL));
}

/* Bins shown for @p h: the regular ones, and the overflow bin when it has frames. */
static int shown_bins(const struct histogram *h)
{
	return h->nbins + (h->counts[h->nbins] ? 1 : 0);
}

static void write_bin_header(struct xlsx_book *b, lxw_worksheet *ws, lxw_col_t col0,
                             const char *what)
{
	static const char *const suffix[] = {"_from", "_to", "_frames", "_bin"};
	char name[64];

	for (lxw_col_t i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s%s", what, suffix[i]);
		xlsx_book_check(b, worksheet_set_column(ws, col0 + i, col0 + i, 16, NULL));
		xlsx_book_check(b, worksheet_write_string(ws, 0, col0 + i, name, b->fmt_bold));
	}
}

/* The Charts sheet: bin tables in A:D (CPU) and F:I (GPU), charts from L. */
static void add_charts(struct xlsx_book *b, struct columns *values, uint64_t first_sheet_rows)
{
	struct histogram cpu, gpu;
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, "Charts");

	if (!ws) {
		xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	/* A column without bins (no values, or values near ±DBL_MAX) gets no table or histogram. */
	int cpu_bins = histogram_build(values->v[COLUMNS_CPU_US], values->n[COLUMNS_CPU_US], &cpu)
	                       ? shown_bins(&cpu) : 0;
	int gpu_bins = histogram_build(values->v[COLUMNS_GPU_US], values->n[COLUMNS_GPU_US], &gpu)
	                       ? shown_bins(&gpu) : 0;

	if (cpu_bins)
		write_bin_header(b, ws, 0, "target_us");
	if (gpu_bins)
		write_bin_header(b, ws, 5, "target_gpu_us");
	for (int r = 1; r <= cpu_bins || r <= gpu_bins; r++) {
		if (r <= cpu_bins)
			write_bin(b, ws, (lxw_row_t)r, 0, &cpu);
		if (r <= gpu_bins)
			write_bin(b, ws, (lxw_row_t)r, 5, &gpu);
	}
	add_line_chart(b, ws, first_sheet_rows, values->n[COLUMNS_GPU_US] > 0);
	if (cpu_bins)
		add_histogram_chart(b, ws, 0, cpu_bins, "target_us histogram (frames)", 20);
	if (gpu_bins)
		add_histogram_chart(b, ws, 5, gpu_bins, "target_gpu_us histogram (frames)", 38);
}

/* ---- the whole ---- */

/* Reads the merged CSV into the Summary and Frames sheets and @p values. */
static int add_merged(struct xlsx_book *b, const struct xlsx_job *job, struct columns *values,
                      struct frames_ctx *fc, merge_log_fn log, void *ctx)
{
	static const struct merged_read_cb cb = {
		.summary = on_summary,
		.row = keep_values,
		.cells = on_frame,
		.columns = keep_columns,
	};
	struct csvr_diag diag;

	fc->b = b;
	fc->job = job;
	fc->values = values;
	if (columns_create(values, csvr_estimate_rows(job->merged_csv, 48)) != 0) {
		log(ctx, "out of memory");
		return -1;
	}
	fc->summary = workbook_add_worksheet(b->wb, "Summary");
	if (!fc->summary)
		return xlsx_book_check(b, LXW_ERROR_MEMORY_MALLOC_FAILED), -1;
	xlsx_book_check(b, worksheet_set_column(fc->summary, 0, 0, 30, NULL));
	xlsx_book_check(b, worksheet_set_column(fc->summary, 1, 1, 36, NULL));
	if (merged_read_each(job->merged_csv, &cb, fc, &diag) != 0) {
		log(ctx, diag.error);
		return -1;
	}
	for (int i = 0; i < diag.warning_count; i++)
		log(ctx, diag.warnings[i]);
	/* A file without frames still gets its (empty) Frames sheet. */
	if (fc->sheets == 0 && next_frames_sheet(fc) != 0)
		return -1;
	return 0;
}

int xlsx_write(const struct xlsx_job *job, struct xlsx_result *result, merge_log_fn log,
               void *ctx)
{
	struct xlsx_book b;
	struct frames_ctx fc = {0};
	struct columns values = {0};
	struct stat st;
	char msg[CSVR_MSG_MAX];
	bool zip64 = stat(job->merged_csv, &st) == 0 && (uint64_t)st.st_size > XLSX_ZIP64_INPUT_BYTES;

	memset(result, 0, sizeof(*result));
	if (xlsx_book_open(&b, job->out_path, zip64, msg, sizeof(msg)) != 0) {
		log(ctx, msg);
		return -1;
	}
	int ret = add_merged(&b, job, &values, &fc, log, ctx);
	if (ret == 0 && job->functions_csv)
		ret = add_functions(&b, job->functions_csv,
		                    merged_frames(fc.frame_count, fc.frames_total),
		                    &result->functions, log, ctx);
	if (ret == 0 && fc.frames_total > 0)
		add_charts(&b, &values, fc.first_sheet_frames);
	columns_destroy(&values);
	if (ret != 0) {
		xlsx_book_abort(&b);
		return -1;
	}
	if (xlsx_book_commit(&b, msg, sizeof(msg)) != 0) {
		log(ctx, msg);
		return -1;
	}
	result->frames = fc.frames_total;
	result->frame_sheets = fc.sheets;
	return 0;
}
