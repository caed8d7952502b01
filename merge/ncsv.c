/*
 * Reading a CSV file by column name; see ncsv.h.
 *
 * The CSV engine is csvr's, the one under every other reader (the merged
 * file's merged_read.c, the per-side files'): comments, strict numbers, a
 * killed writer's last row and every message are the same. What is ncsv's
 * own is the header: the columns are whatever it names (csvr_format's
 * header_line), each a text column when the caller says so and a number
 * column (blank = NAN) otherwise, and the rows are kept in those columns.
 */
#include "ncsv.h"

#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvr.h"

/* The csvr callbacks' context. */
struct reader {
	struct ncsv *t;
	const char *const *text_cols;
	bool header_failed; /* out of memory while splitting the header */
};

static bool is_text_col(const struct reader *r, const char *name)
{
	for (const char *const *p = r->text_cols; p && *p; p++)
		if (strcmp(*p, name) == 0)
			return true;
	return false;
}

/* libcsv's field callback while splitting the header: one more column. */
static void on_name(void *s, size_t len, void *data)
{
	struct reader *r = data;
	struct ncsv *t = r->t;

	if (r->header_failed || t->ncols == CSVR_MAX_COLS + 1)
		return;
	struct ncsv_col *cols = realloc(t->cols, (t->ncols + 1) * sizeof(*cols));
	if (!cols) {
		r->header_failed = true;
		return;
	}
	t->cols = cols;
	struct ncsv_col *c = &cols[t->ncols];
	memset(c, 0, sizeof(*c));
	c->name = strndup(s ? s : "", len);
	if (!c->name) {
		r->header_failed = true;
		return;
	}
	c->text = is_text_col(r, c->name);
	t->ncols++;
}

/*
 * 0, or -1 with a message when two of @p t's columns have the same name:
 * ncsv_col() would find only the first, and a reader take the wrong one.
 */
static int check_unique(const struct ncsv *t, char *msg, size_t msg_size)
{
	for (size_t c = 1; c < t->ncols; c++) {
		for (size_t d = 0; d < c; d++) {
			if (strcmp(t->cols[c].name, t->cols[d].name) != 0)
				continue;
			char q[48];
			csvr_quote_field(q, sizeof(q), t->cols[c].name, strlen(t->cols[c].name));
			snprintf(msg, msg_size, "column %zu has the name of column %zu, \"%s\": "
			         "a header names each column once", c + 1, d + 1, q);
			return -1;
		}
	}
	return 0;
}

/* csvr's header_line: the names, split as libcsv splits a row (they may be quoted). */
static int header_line(void *ctx, const char *line, size_t len, enum csvr_kind *kinds,
                       const char **names, char *msg, size_t msg_size)
{
	struct reader *r = ctx;
	struct csv_parser p;

	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return 0;
	}
	if (csv_parse(&p, line, len, on_name, NULL, r) != len)
		snprintf(msg, msg_size, "column header: %s", csv_strerror(csv_error(&p)));
	else
		csv_fini(&p, on_name, NULL, r);
	csv_free(&p);
	if (msg[0])
		return 0;
	if (r->header_failed) {
		snprintf(msg, msg_size, "out of memory");
		return 0;
	}
	if (r->t->ncols > CSVR_MAX_COLS) {
		snprintf(msg, msg_size, "more than %d columns", CSVR_MAX_COLS);
		return 0;
	}
	if (check_unique(r->t, msg, msg_size) != 0)
		return 0;
	for (size_t c = 0; c < r->t->ncols; c++) {
		kinds[c] = r->t->cols[c].text ? CSVR_TEXT : CSVR_F64_OPT;
		names[c] = r->t->cols[c].name;
	}
	return (int)r->t->ncols;
}

/* Splits "key=value" (after '#' and blanks) into a metadata entry. */
static int add_meta(struct ncsv_meta **list, size_t *n, const char *text)
{
	struct ncsv_meta *m = realloc(*list, (*n + 1) * sizeof(*m));
	if (!m)
		return -1;
	*list = m;
	const char *eq = strchr(text, '=');
	size_t klen = eq ? (size_t)(eq - text) : strlen(text);
	/* Blanks around the '=' are not the key's or the value's, as in merged_read.c. */
	while (eq && klen > 0 && (text[klen - 1] == ' ' || text[klen - 1] == '\t'))
		klen--;
	m[*n].key = strndup(text, klen);
	m[*n].value = eq ? strdup(eq + 1 + strspn(eq + 1, " \t")) : NULL;
	if (!m[*n].key || (eq && !m[*n].value)) {
		free(m[*n].key);
		free(m[*n].value);
		return -1;
	}
	(*n)++;
	return 0;
}

/* Metadata before the header, footers after it. */
static int on_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct reader *r = ctx;
	struct ncsv *t = r->t;
	int ret = in_header ? add_meta(&t->meta, &t->nmeta, text)
	                    : add_meta(&t->footer, &t->nfooter, text);

	if (ret != 0)
		snprintf(msg, msg_size, "out of memory");
	return ret;
}

static int grow_rows(struct ncsv *t)
{
	size_t cap = t->cap ? t->cap * 2 : 4096;

	for (size_t c = 0; c < t->ncols; c++) {
		struct ncsv_col *col = &t->cols[c];
		void *p = col->text ? realloc(col->s, cap * sizeof(char *))
		                    : realloc(col->v, cap * sizeof(double));
		if (!p)
			return -1;
		if (col->text)
			col->s = p;
		else
			col->v = p;
	}
	t->cap = cap;
	return 0;
}

static int on_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                  size_t msg_size)
{
	struct reader *r = ctx;
	struct ncsv *t = r->t;

	if (t->nrows == t->cap && grow_rows(t) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		bool here = present & (1u << c);
		if (!t->cols[c].text) {
			t->cols[c].v[t->nrows] = here ? v[c].f : NAN;
			continue;
		}
		char *s = strdup(here ? v[c].s : "");
		if (!s) {
			/* The row is not counted: free what it took. */
			while (c-- > 0)
				if (t->cols[c].text)
					free(t->cols[c].s[t->nrows]);
			snprintf(msg, msg_size, "out of memory");
			return -1;
		}
		t->cols[c].s[t->nrows] = s;
	}
	t->nrows++;
	return 0;
}

int ncsv_read(const char *path, const char *const *text_cols, struct ncsv *out, char *err,
              size_t err_size)
{
	static const struct csvr_format format = {
		.comment = on_comment,
		.row = on_row,
		.header_line = header_line,
	};
	struct reader r = {.t = out, .text_cols = text_cols};
	struct csvr_diag diag = {0};

	memset(out, 0, sizeof(*out));
	if (csvr_read(path, &format, &r, &diag, &out->truncated_rows) != 0) {
		snprintf(err, err_size, "%s", diag.error);
		ncsv_destroy(out);
		return -1;
	}
	if (diag.warning_count > 0)
		snprintf(out->warning, sizeof(out->warning), "%s", diag.warnings[0]);
	return 0;
}

static void free_meta(struct ncsv_meta *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].key);
		free(m[i].value);
	}
	free(m);
}

void ncsv_destroy(struct ncsv *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		struct ncsv_col *col = &t->cols[c];
		if (col->text)
			for (size_t i = 0; i < t->nrows; i++)
				free(col->s[i]);
		free(col->s);
		free(col->v);
		free(col->name);
	}
	free(t->cols);
	free_meta(t->meta, t->nmeta);
	free_meta(t->footer, t->nfooter);
	memset(t, 0, sizeof(*t));
}

const struct ncsv_col *ncsv_col(const struct ncsv *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c].name, name) == 0)
			return &t->cols[c];
	return NULL;
}

const char *ncsv_meta_value(const struct ncsv *t, const char *key)
{
	for (size_t i = 0; i < t->nmeta; i++)
		if (t->meta[i].value && strcmp(t->meta[i].key, key) == 0)
			return t->meta[i].value;
	return NULL;
}
