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
/*
 * The longest `#` line the comment callback gets whole, with its NUL: a
 * mark's (`# mark t=<ns> text=<up to 256 bytes escaped, 1024>`) fits. A
 * longer line is cut before the character this limit would split, and
 * the file's first such line gets a warning.
 */
#define CSVR_COMMENT_MAX 2048
/*
 * The bytes read and parsed at a time after the header (csvr_stream_step()):
 * small, so that a stream's batch of rows is small (a streaming reader
 * holds one) and a short file touches little memory.
 */
#define CSVR_CHUNK_BYTES (64u << 10)
#define CSVR_MAX_WARNINGS 4

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
	/*
	 * May be NULL. For a row that a read-ahead worker parsed (csvr.h's
	 * csvr_ahead_min_bytes), called in place of @p row with the same
	 * @p values and @p present, except that a CSVR_TEXT cell is not
	 * copied out of the row's @p line: csvr_text_at() finds its bytes
	 * there (not NUL-terminated; they may hold a NUL, where @p row's
	 * copy would end). For a format whose rows' delivery sets a merge's
	 * pace: the row skips the engine's copy of it. Same return.
	 */
	int (*row_in_line)(void *ctx, const union csvr_value *values, uint32_t present,
	                   const char *line, char *msg, size_t msg_size);
	/* May be NULL. Called once the header is read: the columns this file has (see min_cols). */
	void (*columns)(void *ctx, int ncols);
	/*
	 * May be NULL. For files whose columns are named by their header
	 * rather than fixed here (ncsv.h): @p ncols, @p min_cols, @p kinds and
	 * @p names are then unused, @p header (may be NULL) only named in the
	 * message for a file without a header, and this is called with the
	 * column header line instead (@p len bytes, no line end). It returns
	 * the file's number of columns (1 to CSVR_MAX_COLS) after filling in
	 * their @p kinds and @p names (valid until the read ends), or 0 after
	 * setting @p msg.
	 */
	int (*header_line)(void *ctx, const char *line, size_t len, enum csvr_kind *kinds,
	                   const char **names, char *msg, size_t msg_size);
	/*
	 * 0, or a lower threshold than csvr_ahead_min_bytes for reading this
	 * format's files ahead: for rows whose callback costs the reader's
	 * thread more than their parsing, so that parsing on other threads
	 * pays from smaller files on (a higher value is ignored).
	 */
	size_t ahead_min_bytes;
};

/* The bytes of text cell @p v of a row_in_line() callback's @p line; their number in *@p len. */
static inline const char *csvr_text_at(union csvr_value v, const char *line, size_t *len)
{
	*len = (size_t)(v.u >> 32);
	return line + (uint32_t)v.u;
}

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
 * The same read, a chunk at a time, for readers that must not hold a whole
 * file (the streaming merge): csvr_stream_open() reads the metadata and the
 * column header (the comment callback sees them), then each
 * csvr_stream_step() parses the next chunk (CSVR_CHUNK_BYTES) and
 * calls the row and comment callbacks for what it holds. The callbacks,
 * messages and result are exactly csvr_read_ex()'s.
 */
struct csvr_stream;

/*
 * With the fast path on, a file with at least csvr_ahead_min_bytes (or its
 * format's ahead_min_bytes, if lower) after its header is read ahead on
 * threads of its own (csvr_ahead.h), in
 * segments of csvr_ahead_seg_bytes whose lines they parse while the
 * stream's caller delivers the rows before them: the callbacks and
 * messages stay exactly csvr_read_ex()'s. Tests set all three to read small
 * files that way; nothing else changes them.
 */
extern size_t csvr_ahead_min_bytes;
extern size_t csvr_ahead_seg_bytes;
/* The bytes after the header such a stream parses itself, the threads reading from there on. */
extern size_t csvr_ahead_own_bytes;
/*
 * Set: no file is read ahead, whatever its size or its format's
 * ahead_min_bytes (the post layer's merge, inside its host application:
 * each file on the one thread that reads it, no segments' memory). Set
 * before a merge starts.
 */
extern bool csvr_ahead_off;

/*
 * Opens @p path and reads up to its column header. Returns 0; or -1 with
 * @p diag->error set. *@p out must be closed with csvr_stream_close() either
 * way (it may be NULL after a failed allocation).
 */
int csvr_stream_open(struct csvr_stream **out, const char *path, const struct csvr_format *format,
                     void *ctx, struct csvr_diag *diag, uint64_t *truncated_rows, bool fast);

/*
 * Parses the next chunk. Returns 1 when more may follow, 0 at the end of a
 * good file, -1 on error (@p diag->error set); after 0 or -1 it returns the
 * same again.
 */
int csvr_stream_step(struct csvr_stream *s);

/* Closes the file and frees @p s (NULL is fine). */
void csvr_stream_close(struct csvr_stream *s);

/*
 * The message for a column header @p line (@p len bytes, no line end) that
 * is not @p expected, into @p msg: "wrong column header: " and where it
 * first departs from @p expected, quoted after. For header_line callbacks
 * that check a fixed header of their own; csvr_read() says the same.
 */
void csvr_wrong_header(const char *expected, const char *line, size_t len, char *msg,
                       size_t msg_size);

/*
 * A field's @p len bytes at @p s as messages quote them, into @p dst: the
 * first 40 bytes, "..." after when there are more, '?' for every byte
 * that is not printable ASCII.
 */
void csvr_quote_field(char *dst, size_t size, const char *s, size_t len);

/*
 * Adds a warning of the reader's own (a check after the rows: "<file>:
 * warning: ..." in @p text) to @p d, as far as there is room.
 */
void csvr_diag_add_warning(struct csvr_diag *d, const char *text);

/*
 * Size hint: how many rows @p path may hold, from its size and @p
 * bytes_per_row; 0 when unknown. Used to reserve arrays once.
 */
size_t csvr_estimate_rows(const char *path, size_t bytes_per_row);

#endif /* XRLM_CSVR_H */
