/*
 * The HTML page of `xrlm report`; see report_html.h.
 */
#include "report_html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "jsonw.h"
#include "metrics.h"
#include "report_assets.h"
#include "stats.h"
#include "utf8.h"

#define HIST_BINS 100
#define NONCE_BYTES 18

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 of @p len bytes at @p in into @p out (4 * ceil(len / 3) + 1 bytes). */
static void base64(const unsigned char *in, size_t len, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < len)
			v |= in[i + 2];
		out[o++] = b64_alphabet[(v >> 18) & 63];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? b64_alphabet[v & 63] : '=';
	}
	out[o] = '\0';
}

/*
 * A fresh nonce for the page's Content-Security-Policy. Falls back to the
 * clock and pid if the kernel has no random bytes to give: the nonce is a
 * second line of defence behind the escaping, not the first.
 */
static void make_nonce(char *out)
{
	unsigned char raw[NONCE_BYTES];

	if (getrandom(raw, sizeof(raw), GRND_NONBLOCK) != (ssize_t)sizeof(raw)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
		for (size_t i = 0; i < sizeof(raw); i++, x = x * 6364136223846793005ull + 1)
			raw[i] = (unsigned char)(x >> 56);
	}
	base64(raw, sizeof(raw), out);
}

/*
 * Writes @p str with &, <, >, " and ' as character references, and as
 * U+FFFD each byte that is not part of valid UTF-8 (as jsonw.h), U+FFFE,
 * U+FFFF and each control character (C0, DEL, C1), which HTML's text
 * cannot hold either.
 */
static void html_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);

	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = utf8_char(s + i, len - i, &cp);
		switch (cp) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0xfffd)
				fputs(UTF8_REPLACEMENT, f);
			else
				fwrite(s + i, 1, n, f);
		}
		i += n ? n : 1;
	}
}

static const char *group_name(const struct metrics_column *m)
{
	if (!m)
		return "other";
	switch (m->group) {
	case METRICS_MAIN: return "main";
	case METRICS_PHASE: return "phase";
	default: return "app";
	}
}

/* Writes @p v[0..n) as base64 of little-endian float32 (NAN stays NAN). */
static int write_series(struct jsonw *w, const double *v, size_t n)
{
	unsigned char *raw = malloc(n * 4 + 1);
	char *text = malloc((n * 4 + 2) / 3 * 4 + 1);
	if (!raw || !text) {
		free(raw);
		free(text);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		float x = (float)v[i];
		uint32_t u;
		memcpy(&u, &x, sizeof(u));
		for (int b = 0; b < 4; b++)
			raw[i * 4 + (size_t)b] = (unsigned char)(u >> (8 * b));
	}
	base64(raw, n * 4, text);
	jsonw_string(w, text);
	free(raw);
	free(text);
	return 0;
}

static void write_stats(struct jsonw *w, const struct stats_summary *s)
{
	static const char *const keys[] = {"mean", "median", "p95", "p99", "min", "max"};
	const double vals[] = {s->mean, s->median, s->p95, s->p99, s->min, s->max};

	jsonw_key(w, "count");
	jsonw_uint(w, s->count);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		jsonw_key(w, keys[i]);
		if (s->count)
			jsonw_fixed(w, vals[i], 3);
		else
			jsonw_null(w);
	}
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* The @p p percentile of sorted @p v[0..n), by stats.h's method (as the page's p50 and p99). */
static double sorted_percentile(const double *v, size_t n, double p)
{
	uint64_t k;
	double frac;

	stats_rank(n, p, &k, &frac);
	return stats_between(n, k, frac, v[k], k + 1 < n ? v[k + 1] : v[k]);
}

/*
 * The histogram of sorted @p v[0..n) from its minimum to p50 + 3 (p99 -
 * p50) at most (a long tail would squeeze everything else into one bin;
 * the percentile curve shows the tail), with the count of values above.
 * p50 and p99 are the ones the page marks: its p99 is always in range.
 * Values all equal get a range of 1, or 10^-12 of their magnitude when
 * that is more (1 would vanish in a huge value). None for a range that
 * is not finite (values of both signs near DBL_MAX, or equal ones at it).
 */
static void write_hist(struct jsonw *w, const double *v, size_t n)
{
	uint64_t counts[HIST_BINS] = {0}, above = 0;
	double p50 = sorted_percentile(v, n, 0.50), p99 = sorted_percentile(v, n, 0.99);
	double lo = v[0], hi = fmin(v[n - 1], p50 + 3 * (p99 - p50));
	if (!(hi > lo))
		hi = lo + fmax(1, fabs(lo) * 1e-12);
	double width = (hi - lo) / HIST_BINS;
	if (!(width > 0) || !isfinite(width))
		return;

	for (size_t i = 0; i < n; i++) {
		if (v[i] > hi) {
			above++;
			continue;
		}
		double x = (v[i] - lo) / width;
		counts[x >= 0 && x < HIST_BINS ? (size_t)x : x >= HIST_BINS ? HIST_BINS - 1 : 0]++;
	}
	jsonw_key(w, "hist");
	jsonw_object(w);
	jsonw_key(w, "lo");
	jsonw_fixed(w, lo, 3);
	jsonw_key(w, "width");
	jsonw_fixed(w, width, 6);
	jsonw_key(w, "above");
	jsonw_uint(w, above);
	jsonw_key(w, "counts");
	jsonw_array(w);
	for (int b = 0; b < HIST_BINS; b++)
		jsonw_uint(w, counts[b]);
	jsonw_end(w);
	jsonw_end(w);
}

/* [value, percentile] pairs of sorted @p v: every 0.1 %, every 0.01 % past 99 %. */
static void write_cdf(struct jsonw *w, const double *v, size_t n)
{
	jsonw_key(w, "cdf");
	jsonw_array(w);
	for (int k = 0; k <= 1090; k++) {
		double pct = k <= 990 ? k / 10.0 : 99.0 + (k - 990) / 100.0;
		jsonw_array(w);
		jsonw_fixed(w, v[(size_t)llround(pct / 100 * (double)(n - 1))], 3);
		jsonw_fixed(w, pct, 2);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* One column's entry; @p buf has room for every row. */
static int write_column(struct jsonw *w, const struct ncsv *t, const struct ncsv_col *c,
                        double *buf)
{
	const struct metrics_column *m = metrics_find(c->name);
	struct stats_summary s;
	size_t n = 0;

	for (size_t i = 0; i < t->nrows; i++)
		if (!isnan(c->v[i]))
			buf[n++] = c->v[i];
	stats_compute(buf, n, &s);
	jsonw_object(w);
	jsonw_key(w, "name");
	jsonw_string(w, c->name);
	jsonw_key(w, "label");
	jsonw_string(w, m ? m->label : c->name);
	jsonw_key(w, "group");
	jsonw_string(w, group_name(m));
	jsonw_key(w, "order"); /* the place in metrics.h's list */
	jsonw_uint(w, m ? (uint64_t)(m - metrics_columns) : metrics_count);
	write_stats(w, &s);
	if (m && m->group == METRICS_MAIN && n > 0) {
		qsort(buf, n, sizeof(double), cmp_double);
		write_hist(w, buf, n);
		write_cdf(w, buf, n);
	}
	if (m && n > 0) {
		jsonw_key(w, "data");
		if (write_series(w, c->v, t->nrows) != 0)
			return -1;
	}
	jsonw_end(w);
	return 0;
}

static void write_meta_list(struct jsonw *w, const char *key, const struct ncsv_meta *m, size_t n)
{
	jsonw_key(w, key);
	jsonw_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw_array(w);
		jsonw_string(w, m[i].key);
		jsonw_string(w, m[i].value);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void write_functions(struct jsonw *w, const struct report_html_input *in)
{
	const struct ncsv *t = in->functions;

	jsonw_key(w, "functions");
	if (!t) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	jsonw_key(w, "source");
	jsonw_string(w, in->functions_path);
	jsonw_key(w, "columns");
	jsonw_array(w);
	for (size_t c = 0; c < t->ncols; c++)
		jsonw_string(w, t->cols[c].name);
	jsonw_end(w);
	jsonw_key(w, "rows");
	jsonw_array(w);
	for (size_t r = 0; r < t->nrows; r++) {
		jsonw_array(w);
		for (size_t c = 0; c < t->ncols; c++) {
			if (t->cols[c].text)
				jsonw_string(w, t->cols[c].s[r]);
			else
				jsonw_fixed(w, t->cols[c].v[r], 3);
		}
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

/* True for the columns that identify a frame rather than measure it. */
static int is_key_column(const struct ncsv_col *c)
{
	return strcmp(c->name, "display_time") == 0 || strcmp(c->name, "thread_id") == 0;
}

static int write_data(FILE *f, const struct report_html_input *in)
{
	const struct ncsv *t = in->frames;
	struct jsonw w;
	int ret = 0;
	double *buf = malloc((t->nrows ? t->nrows : 1) * sizeof(double));

	if (!buf)
		return -1;
	jsonw_init(&w, f);
	jsonw_object(&w);
	jsonw_key(&w, "source");
	jsonw_string(&w, in->frames_path);
	jsonw_key(&w, "generator");
	jsonw_string(&w, in->generator);
	jsonw_key(&w, "frames");
	jsonw_uint(&w, t->nrows);
	jsonw_key(&w, "target_layer");
	jsonw_string(&w, ncsv_meta_value(t, "target_layer"));
	write_meta_list(&w, "meta", t->meta, t->nmeta);
	write_meta_list(&w, "footer", t->footer, t->nfooter);
	jsonw_key(&w, "warnings");
	jsonw_array(&w);
	for (int i = 0; i < REPORT_HTML_WARNINGS && in->warnings[i]; i++)
		jsonw_string(&w, in->warnings[i]);
	jsonw_end(&w);
	jsonw_key(&w, "columns");
	jsonw_array(&w);
	for (size_t c = 0; c < t->ncols && ret == 0; c++)
		if (!t->cols[c].text && !is_key_column(&t->cols[c]))
			ret = write_column(&w, t, &t->cols[c], buf);
	jsonw_end(&w);
	write_functions(&w, in);
	jsonw_end(&w);
	free(buf);
	return ret;
}

int report_html_write(FILE *f, const struct report_html_input *in)
{
	char nonce[(NONCE_BYTES + 2) / 3 * 4 + 1];
	const char *layer = ncsv_meta_value(in->frames, "target_layer");

	make_nonce(nonce);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	fprintf(f, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	           "script-src 'nonce-%s'; style-src 'unsafe-inline'; img-src data:\">\n", nonce);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", f);
	fputs("<title>xrlm report: ", f);
	html_text(f, layer ? layer : in->frames_path);
	fputs("</title>\n<style>\n", f);
	fwrite(report_asset_dygraph_css, 1, report_asset_dygraph_css_len, f);
	fputs("</style>\n<style>\n", f);
	fwrite(report_asset_page_css, 1, report_asset_page_css_len, f);
	fputs("</style>\n</head>\n<body>\n<main id=\"xrlm-main\"></main>\n"
	      "<noscript>This report draws its tables and charts with JavaScript.</noscript>\n"
	      "<script type=\"application/json\" id=\"xrlm-data\">", f);
	if (write_data(f, in) != 0)
		return -1;
	fprintf(f, "</script>\n<script nonce=\"%s\">\n", nonce);
	fwrite(report_asset_dygraph_js, 1, report_asset_dygraph_js_len, f);
	fprintf(f, "</script>\n<script nonce=\"%s\">\n", nonce);
	fwrite(report_asset_page_js, 1, report_asset_page_js_len, f);
	fputs("</script>\n</body>\n</html>\n", f);
	return 0;
}
