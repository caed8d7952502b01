/*
 * Reading the per-side CPU and GPU CSV files (and the merged CSV) with
 * libcsv: `# key=value` comment lines before the column header are read as
 * metadata, the column header must match exactly, every row is parsed
 * strictly (no spaces, no quotes tricks, whole-field numbers), and comment
 * lines after the rows (`# session_end ...`) are read as footers.
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
#define CSVR_TEXT_MAX 256
#define CSVR_MAX_WARNINGS 2

/* Messages produced while reading one file. */
struct csvr_diag {
	bool failed;
	char error[CSVR_MSG_MAX];                       /* "<file>:<line>: error: ..." */
	int warning_count;
	char warnings[CSVR_MAX_WARNINGS][CSVR_MSG_MAX]; /* "<file>:<line>: warning: ..." */
};

/* Metadata from a per-side file's comment lines. Empty string = absent. */
struct side_meta {
	char side[16];
	char layer[CSVR_TEXT_MAX];
	char target_layer[CSVR_TEXT_MAX];
	char clock[64];
	char gpu_clock[64];
	uint64_t clock_freq;         /* ticks per second; 0 when absent */
	/* Post's "# bracket_correction_ns" (see merge.h); has_... false when absent. */
	bool has_bracket_correction;
	uint64_t bracket_correction_ns;
	bool has_session_end;        /* the footer line was present */
	uint64_t dropped_queue_full; /* from the CPU footer */
	uint64_t gpu_ring_overflow;  /* from the GPU footer */
	uint64_t truncated_rows;     /* 0 or 1: a cut-short final row skipped */
};

/* One CPU bracket; times are converted to nanoseconds on reading. 32 bytes. */
struct side_cpu_row {
	int64_t display_time;
	uint64_t thread_id;
	int64_t t_entry_ns;
	int64_t dur_ns; /* t_exit - t_entry */
};

/* A per-side CPU file. Owns rows; release with side_cpu_destroy(). */
struct side_cpu_file {
	struct side_meta meta;
	struct csvr_diag diag;
	struct side_cpu_row *rows;
	size_t count;
	size_t cap;
};

/* One GPU timestamp. 24 bytes. */
struct side_gpu_row {
	int64_t display_time;
	uint64_t ticks;
	double period_ns; /* 0 when the row is not valid (valid=0) */
};

/* A per-side GPU file. Owns rows; release with side_gpu_destroy(). */
struct side_gpu_file {
	struct side_meta meta;
	struct csvr_diag diag;
	struct side_gpu_row *rows;
	size_t count;
	size_t cap;
};

/*
 * Reads the CPU file @p path into @p out (zeroed first). @p expected_side
 * ("pre" or "post"), if non-NULL, must match a `# side=` line when present.
 * Returns 0, or -1 with out->diag.error set (rows may be partially read;
 * side_cpu_destroy() must still be called).
 */
int side_cpu_read(const char *path, const char *expected_side, struct side_cpu_file *out);

/* Frees the rows of @p f; leaves it empty. */
void side_cpu_destroy(struct side_cpu_file *f);

/* As side_cpu_read(), for a GPU file. */
int side_gpu_read(const char *path, const char *expected_side, struct side_gpu_file *out);

/* Frees the rows of @p f; leaves it empty. */
void side_gpu_destroy(struct side_gpu_file *f);

/* ---- the generic engine, also used for the merged CSV ---- */

enum csvr_kind {
	CSVR_I64,     /* optional '-', digits */
	CSVR_U64,     /* digits */
	CSVR_F64,     /* plain decimal number, finite */
	CSVR_F64_OPT, /* as CSVR_F64, or an empty field */
	CSVR_TEXT,    /* any text up to CSVR_TEXT_MAX - 1 bytes; empty = not present */
};

union csvr_value {
	int64_t i;
	uint64_t u;
	double f;
	const char *s; /* CSVR_TEXT: valid during the row callback only */
};

#define CSVR_MAX_COLS 12

/* Describes one file format for csvr_read(). */
struct csvr_format {
	const char *header;                    /* exact column header line */
	int ncols;
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
