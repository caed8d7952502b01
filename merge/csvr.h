/*
 * The CSV engine under every reader of the project's files (side_cpu.h,
 * side_gpu.h, merged_read.h): `#` comment lines before the column header
 * go to a metadata callback, the column header must match exactly, every
 * row is parsed strictly (whole-field numbers through u_parse.h, quotes
 * and blanks as libcsv reads them), and comment lines after the rows
 * (`# session_end ...`) go to the same callback as footers.
 *
 * libcsv is the parser of record; plain all-numeric rows take a fast path
 * that splits them directly (see csvr_read_ex() and merge/README.md).
 *
 * A final row that is cut short (no newline at the end of the file, or fewer
 * fields than columns on the last line) is what a killed writer leaves: it
 * is skipped with a warning. Anything else that is malformed is an error
 * naming the file and line.
 *
 * Readers do not log: they keep their messages in the file struct, so they
 * can run on any thread and the caller decides where messages go.
 */
#ifndef XRLM_CSVR_H
#define XRLM_CSVR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CSVR_MSG_MAX 640
#define CSVR_MAX_WARNINGS 2

/* Messages produced while reading one file. */
struct csvr_diag {
	bool failed;
	char error[CSVR_MSG_MAX];                       /* "<file>:<line>: error: ..." */
	int warning_count;
	char warnings[CSVR_MAX_WARNINGS][CSVR_MSG_MAX]; /* "<file>:<line>: warning: ..." */
};

/* Longest CSVR_TEXT cell kept, with its NUL; longer ones are errors. */
#define CSVR_TEXT_MAX 256

enum csvr_kind {
	CSVR_I64,     /* optional '-', digits */
	CSVR_U64,     /* digits */
	CSVR_F64,     /* plain decimal number, finite */
	CSVR_F64_OPT, /* as CSVR_F64, or an empty field */
	CSVR_U64_OPT, /* as CSVR_U64, or an empty field */
	CSVR_TEXT,    /* any text up to CSVR_TEXT_MAX - 1 bytes; empty = not present */
};

union csvr_value {
	int64_t i;
	uint64_t u;
	double f;
	const char *s; /* CSVR_TEXT: valid during the row callback only */
};

#define CSVR_MAX_COLS 32

/* Describes one file format for csvr_read(). */
struct csvr_format {
	const char *header;                    /* exact column header line */
	int ncols;
	/*
	 * 0: the header must be exactly @p header. Else files written before
	 * the last columns were added are read too: a header that is @p
	 * header cut after at least min_cols columns, with as many fields.
	 */
	int min_cols;
	enum csvr_kind kinds[CSVR_MAX_COLS];
	const char *names[CSVR_MAX_COLS];      /* for messages */
	/*
	 * Called for each `#` line, with the text after "#" and blanks; @p
	 * in_header is true before the column header. Return 0, or -1 after
	 * setting an error message in @p msg (the reader adds file and line).
	 */
	int (*comment)(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size);
	/*
	 * Called for each good row; @p present has bit c set when column c
	 * was non-empty. Return 0, or -1 after setting @p msg.
	 */
	int (*row)(void *ctx, const union csvr_value *values, uint32_t present, char *msg, size_t msg_size);
	/* May be NULL. Called once the header is read: the columns this file has (see min_cols). */
	void (*columns)(void *ctx, int ncols);
};

/*
 * Reads @p path with @p format, calling its callbacks with @p ctx.
 * @p truncated_rows (may be NULL) is incremented for a skipped final row.
 * Returns 0, or -1 with @p diag->error set.
 */
int csvr_read(const char *path, const struct csvr_format *format, void *ctx,
              struct csvr_diag *diag, uint64_t *truncated_rows);

/*
 * As csvr_read(); with @p fast false every line goes through libcsv (the
 * fast path for plain rows is off). Both give the same callbacks and
 * messages for every input; the fuzz tests check that.
 */
int csvr_read_ex(const char *path, const struct csvr_format *format, void *ctx,
                 struct csvr_diag *diag, uint64_t *truncated_rows, bool fast);

/*
 * Size hint: how many rows @p path may hold, from its size and @p
 * bytes_per_row; 0 when unknown. Used to reserve arrays once.
 */
size_t csvr_estimate_rows(const char *path, size_t bytes_per_row);

#endif /* XRLM_CSVR_H */
