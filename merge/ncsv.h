/*
 * Reading a CSV file by column name, for the tools that look at merged
 * files whose columns vary (`xrlm report`, `xrlm compare`): the merged
 * frames file with or without the per-phase columns, and the per-function
 * file. libcsv splits the rows; `#` lines before the header are kept as
 * metadata (`# key=value`), `#` lines after it as footers.
 *
 * Every column is numeric (blank cell = NAN) unless the caller names it as
 * a text column. A number is a plain finite decimal read in the "C" locale;
 * anything else is an error naming the file, line and column. A last line
 * cut short (no newline, or too few fields at the end of the file) is what
 * a killed writer leaves: skipped, counted in truncated_rows. A header
 * that names a column twice is an error: ncsv_col() finds one column by
 * name, and a file with two would be read as whichever came first.
 */
#ifndef XRLM_NCSV_H
#define XRLM_NCSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NCSV_MSG_MAX 640

/* One `#` line: "# key=value" gives both; a line without '=' has value NULL. */
struct ncsv_meta {
	char *key;
	char *value;
};

/* One column: numbers (v, NAN when blank) or texts (s, "" when blank). */
struct ncsv_col {
	char *name;
	bool text;
	double *v;
	char **s;
};

/* A whole file. Release with ncsv_destroy(). */
struct ncsv {
	size_t ncols;
	struct ncsv_col *cols;
	size_t nrows;
	size_t cap;
	struct ncsv_meta *meta; /* `#` lines before the header, in order */
	size_t nmeta;
	struct ncsv_meta *footer; /* `#` lines after it */
	size_t nfooter;
	uint64_t truncated_rows;
	char warning[NCSV_MSG_MAX]; /* "" or "<file>:<line>: warning: ..." */
};

/*
 * Reads @p path into @p out. Columns named in @p text_cols (NULL-terminated
 * list, may be NULL) keep their text. Returns 0, or -1 with one line
 * "<file>[:<line>]: error: ..." in @p err; @p out is empty after a failure.
 */
int ncsv_read(const char *path, const char *const *text_cols, struct ncsv *out, char *err,
              size_t err_size);

/* Frees everything @p t holds and leaves it empty. */
void ncsv_destroy(struct ncsv *t);

/* The column named @p name, or NULL. */
const struct ncsv_col *ncsv_col(const struct ncsv *t, const char *name);

/* The value of the first metadata line with key @p key, or NULL. */
const char *ncsv_meta_value(const struct ncsv *t, const char *key);

#endif /* XRLM_NCSV_H */
