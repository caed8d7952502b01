/*
 * Reading a CSV file by column name; see ncsv.h.
 *
 * The file is read line by line. A line that starts with '#' while libcsv
 * is between records is a comment; every other line goes to libcsv, whose
 * callbacks build the header and then the rows. A row is checked when its
 * record ends; a short row is held back until the next record shows it was
 * not the file's last (a killed writer's last line is skipped, not an error).
 */
#include "ncsv.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u_parse.h"

struct reader {
	struct ncsv *t;
	const char *path;
	const char *const *text_cols;
	uint64_t line;       /* number of the line being fed */
	bool have_header;
	bool failed;
	char *err;
	size_t err_size;
	size_t field;        /* fields seen in the current record */
	size_t records;      /* records ended so far */
	/* The row being built: values of numeric columns, texts of text columns. */
	double *row_v;
	char **row_s;
	bool row_bad;        /* a field failed to parse; message in err */
	/* A short row waiting to see whether another record follows. */
	bool short_pending;
	uint64_t short_line;
	size_t short_fields;
};

static void fail(struct reader *r, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = true;
	n = line ? snprintf(r->err, r->err_size, "%s:%llu: error: ", r->path,
	                    (unsigned long long)line)
	         : snprintf(r->err, r->err_size, "%s: error: ", r->path);
	if (n < 0 || (size_t)n >= r->err_size)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
	va_end(ap);
}

static bool is_text_col(const struct reader *r, const char *name)
{
	for (const char *const *p = r->text_cols; p && *p; p++)
		if (strcmp(*p, name) == 0)
			return true;
	return false;
}

/* A plain finite decimal (u_parse.h), the whole field; blank = NAN. */
static bool parse_number(const char *s, size_t len, double *out)
{
	if (len == 0) {
		*out = NAN;
		return true;
	}
	return u_parse_span_f64(s, len, out) == U_PARSE_OK;
}

static int add_column(struct reader *r, const char *name, size_t len)
{
	struct ncsv *t = r->t;
	struct ncsv_col *cols = realloc(t->cols, (t->ncols + 1) * sizeof(*cols));
	if (!cols)
		return -1;
	t->cols = cols;
	struct ncsv_col *c = &cols[t->ncols];
	memset(c, 0, sizeof(*c));
	c->name = strndup(name, len);
	if (!c->name)
		return -1;
	c->text = is_text_col(r, c->name);
	t->ncols++;
	return 0;
}

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	const char *text = s ? s : "";
	size_t i = r->field++;

	if (r->failed)
		return;
	if (!r->have_header) {
		if (add_column(r, text, len) != 0)
			fail(r, r->line, "out of memory");
		return;
	}
	if (i >= r->t->ncols || r->row_bad)
		return;
	const struct ncsv_col *c = &r->t->cols[i];
	if (c->text) {
		free(r->row_s[i]);
		r->row_s[i] = strndup(text, len);
		if (!r->row_s[i])
			fail(r, r->line, "out of memory");
	} else if (!parse_number(text, len, &r->row_v[i])) {
		char shown[48];
		snprintf(shown, sizeof(shown), "%.*s%s", len > 40 ? 40 : (int)len, text,
		         len > 40 ? "..." : "");
		r->row_bad = true;
		fail(r, r->line, "column %s: not a number: \"%s\"", c->name, shown);
	}
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

static int start_rows(struct reader *r)
{
	r->have_header = true;
	if (r->t->ncols == 0)
		return -1;
	r->row_v = calloc(r->t->ncols, sizeof(double));
	r->row_s = calloc(r->t->ncols, sizeof(char *));
	return r->row_v && r->row_s ? 0 : -1;
}

static void commit_row(struct reader *r)
{
	struct ncsv *t = r->t;

	if (t->nrows == t->cap && grow_rows(t) != 0) {
		fail(r, r->line, "out of memory");
		return;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->cols[c].text) {
			t->cols[c].s[t->nrows] = r->row_s[c] ? r->row_s[c] : strdup("");
			r->row_s[c] = NULL;
			if (!t->cols[c].s[t->nrows]) {
				fail(r, r->line, "out of memory");
				return;
			}
		} else {
			t->cols[c].v[t->nrows] = r->row_v[c];
		}
	}
	t->nrows++;
}

static void on_record(int c, void *data)
{
	struct reader *r = data;
	size_t fields = r->field;

	(void)c;
	r->field = 0;
	r->records++;
	if (r->failed)
		return;
	if (r->short_pending) {
		fail(r, r->short_line, "%zu fields, the header has %zu", r->short_fields,
		     r->t->ncols);
		return;
	}
	if (!r->have_header) {
		if (start_rows(r) != 0)
			fail(r, r->line, "no column names or out of memory");
		return;
	}
	if (r->row_bad)
		return;
	if (fields > r->t->ncols) {
		fail(r, r->line, "%zu fields, the header has %zu", fields, r->t->ncols);
	} else if (fields < r->t->ncols) {
		r->short_pending = true;
		r->short_line = r->line;
		r->short_fields = fields;
	} else {
		commit_row(r);
	}
}

/* Splits "key=value" (after '#' and blanks) into a metadata entry. */
static int add_meta(struct ncsv_meta **list, size_t *n, const char *line)
{
	while (*line == '#' || *line == ' ' || *line == '\t')
		line++;
	struct ncsv_meta *m = realloc(*list, (*n + 1) * sizeof(*m));
	if (!m)
		return -1;
	*list = m;
	const char *eq = strchr(line, '=');
	size_t len = strcspn(line, "\r\n");
	m[*n].key = strndup(line, eq && (size_t)(eq - line) < len ? (size_t)(eq - line) : len);
	m[*n].value = eq && (size_t)(eq - line) < len
	                      ? strndup(eq + 1, len - (size_t)(eq - line) - 1) : NULL;
	if (!m[*n].key || (eq && (size_t)(eq - line) < len && !m[*n].value)) {
		free(m[*n].key);
		free(m[*n].value);
		return -1;
	}
	(*n)++;
	return 0;
}

static void feed(struct reader *r, struct csv_parser *p, const char *buf, size_t len)
{
	if (csv_parse(p, buf, len, on_field, on_record, r) != len)
		fail(r, r->line, "%s", csv_strerror(csv_error(p)));
}

/* Reads every line of @p f; true when the last row line had no newline. */
static bool read_lines(struct reader *r, struct csv_parser *p, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool between = true, unterminated = false;

	while (!r->failed && (len = getline(&line, &cap, f)) > 0) {
		r->line++;
		if (between && line[0] == '#') {
			struct ncsv *t = r->t;
			int ret = r->have_header ? add_meta(&t->footer, &t->nfooter, line)
			                         : add_meta(&t->meta, &t->nmeta, line);
			if (ret != 0)
				fail(r, r->line, "out of memory");
			continue;
		}
		if (between && strspn(line, "\r\n") == (size_t)len)
			continue;
		size_t before = r->records;
		unterminated = line[len - 1] != '\n';
		feed(r, p, line, (size_t)len);
		between = r->records != before;
		/* A whole line that ended no record has a '"' left open: our
		 * files never put a line break inside a field (as csvr.c). */
		if (!between && !unterminated && !r->failed)
			fail(r, r->line, "a field opened by '\"' runs over the end of its line "
			     "(stray quote?)");
	}
	if (!r->failed && ferror(f))
		fail(r, 0, "cannot read: %s", strerror(errno));
	free(line);
	return unterminated;
}

static void finish(struct reader *r, struct csv_parser *p, bool unterminated)
{
	/* A last row without a newline is incomplete whatever it holds. */
	if (!r->failed && unterminated && r->have_header) {
		if (r->short_pending) {
			fail(r, r->short_line, "%zu fields, the header has %zu", r->short_fields,
			     r->t->ncols);
			return;
		}
		r->t->truncated_rows++;
		snprintf(r->t->warning, sizeof(r->t->warning),
		         "%s:%llu: warning: last row is cut short (writer killed?); skipped", r->path,
		         (unsigned long long)r->line);
		return;
	}
	csv_fini(p, on_field, on_record, r);
	if (r->failed)
		return;
	if (r->short_pending) {
		r->t->truncated_rows++;
		snprintf(r->t->warning, sizeof(r->t->warning),
		         "%s:%llu: warning: last row has %zu of %zu fields (writer killed?); skipped",
		         r->path, (unsigned long long)r->short_line, r->short_fields, r->t->ncols);
	}
	if (!r->have_header)
		fail(r, 0, "no column header");
}

int ncsv_read(const char *path, const char *const *text_cols, struct ncsv *out, char *err,
              size_t err_size)
{
	struct reader r = {
		.t = out, .path = path, .text_cols = text_cols, .err = err, .err_size = err_size,
	};
	struct csv_parser p;

	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(err, err_size, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		fail(&r, 0, "out of memory");
	} else {
		finish(&r, &p, read_lines(&r, &p, f));
		csv_free(&p);
	}
	fclose(f);
	if (r.row_s)
		for (size_t c = 0; c < out->ncols; c++)
			free(r.row_s[c]);
	free(r.row_s);
	free(r.row_v);
	if (r.failed) {
		ncsv_destroy(out);
		return -1;
	}
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
