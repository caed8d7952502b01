/*
 * Fuzz entry point: the fast path for plain rows against libcsv alone.
 * The first byte picks the column kinds (CPU, GPU, merged file, text
 * cells as in functions-merged files, or a calls file's, some with the
 * rows read ahead delivered in their lines: row_in_line) and, for the
 * third read, the segment size; the rest is the file. It is read three
 * times by the generic engine: without the fast path, with it, and with it
 * reading ahead on a thread (csvr_ahead.h) in segments of 1 to 48 bytes,
 * so that lines, fields and quotes fall across segments. Every callback
 * (comment text, row values, which cells were present), message and
 * return value must be the same each time, which is what keeps libcsv the
 * parser of record.
 */
#include <string.h>

#include "csvr.h"
#include "fuzz_check.h"
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What one read saw, folded into a hash (FNV-1a) and counts. */
struct trace {
	uint64_t hash;
	uint64_t rows, comments;
};

static void mix(struct trace *t, const void *p, size_t n)
{
	fuzz_hash_mix(&t->hash, p, n);
}

static int on_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct trace *t = ctx;
	(void)msg;
	(void)msg_size;
	t->comments++;
	mix(t, &in_header, sizeof(in_header));
	mix(t, text, strlen(text) + 1);
	return 0;
}

/* The format being read: text cells are compared by their text. */
static const struct csvr_format *current;

/*
 * Folds a row into @p t: a text cell's bytes up to a NUL in it, then one
 * (what row()'s copy of it holds), found in @p line when it is given
 * (row_in_line), else copied.
 */
static void mix_row(struct trace *t, const union csvr_value *v, uint32_t present, const char *line)
{
	static const char nul;

	t->rows++;
	mix(t, &present, sizeof(present));
	for (int c = 0; c < CSVR_MAX_COLS; c++) {
		if (!(present & (1u << c)))
			continue;
		if (current->kinds[c] != CSVR_TEXT) {
			mix(t, &v[c], sizeof(v[c]));
			continue;
		}
		size_t len = CSVR_TEXT_MAX;
		const char *text = line ? csvr_text_at(v[c], line, &len) : v[c].s;
		mix(t, text, strnlen(text, len));
		mix(t, &nul, 1);
	}
}

static int on_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	(void)msg;
	(void)msg_size;
	mix_row(ctx, v, present, NULL);
	return 0;
}

/* on_row() for a row read ahead through row_in_line: its text cells where they are. */
static int on_row_in_line(void *ctx, const union csvr_value *v, uint32_t present,
                          const char *line, char *msg, size_t msg_size)
{
	(void)msg;
	(void)msg_size;
	mix_row(ctx, v, present, line);
	return 0;
}

static const struct csvr_format formats[] = {
	{.header = "a,b,c,d", .ncols = 4,
	 .kinds = {CSVR_I64, CSVR_U64, CSVR_I64, CSVR_I64},
	 .names = {"a", "b", "c", "d"}, .comment = on_comment, .row = on_row},
	{.header = "a,b,c,d", .ncols = 4,
	 .kinds = {CSVR_I64, CSVR_U64, CSVR_F64, CSVR_U64},
	 .names = {"a", "b", "c", "d"}, .comment = on_comment, .row = on_row},
	/* The merged CSV: files with or without the last column (gate_tripped). */
	{.header = "a,b,c,d,e,f,g,h,i,j", .ncols = 10, .min_cols = 9,
	 .kinds = {CSVR_I64, CSVR_U64, CSVR_F64_OPT, CSVR_F64, CSVR_F64, CSVR_F64, CSVR_F64_OPT,
	           CSVR_F64_OPT, CSVR_F64_OPT, CSVR_U64_OPT},
	 .names = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, .comment = on_comment,
	 .row = on_row},
	{.header = "a,b,c,d", .ncols = 4,
	 .kinds = {CSVR_TEXT, CSVR_TEXT, CSVR_U64, CSVR_F64_OPT},
	 .names = {"a", "b", "c", "d"}, .comment = on_comment, .row = on_row},
	/* The calls files' kinds: a function name, then numbers. */
	{.header = "a,b,c,d,e,f", .ncols = 6,
	 .kinds = {CSVR_TEXT, CSVR_U64, CSVR_I64, CSVR_I64, CSVR_U64, CSVR_I64},
	 .names = {"a", "b", "c", "d", "e", "f"}, .comment = on_comment, .row = on_row},
	/* The same, as the calls files' reader takes rows read ahead: in their lines. */
	{.header = "a,b,c,d,e,f", .ncols = 6,
	 .kinds = {CSVR_TEXT, CSVR_U64, CSVR_I64, CSVR_I64, CSVR_U64, CSVR_I64},
	 .names = {"a", "b", "c", "d", "e", "f"}, .comment = on_comment, .row = on_row,
	 .row_in_line = on_row_in_line},
	/* Two text cells, one at the line's end, in their lines too. */
	{.header = "a,b,c,d", .ncols = 4,
	 .kinds = {CSVR_TEXT, CSVR_U64, CSVR_I64, CSVR_TEXT},
	 .names = {"a", "b", "c", "d"}, .comment = on_comment, .row = on_row,
	 .row_in_line = on_row_in_line},
};
#define FORMAT_COUNT (sizeof(formats) / sizeof(formats[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	struct csvr_diag d[3];
	struct trace t[3];
	uint64_t truncated[3] = {0, 0, 0};
	int ret[3];

	if (size < 1)
		return 0;
	if (!in.path[0])
		fuzz_file_init(&in, "table.csv");
	const struct csvr_format *f = &formats[data[0] % FORMAT_COUNT];
	current = f;
	fuzz_file_set(&in, data + 1, size - 1);
	size_t min_bytes = csvr_ahead_min_bytes, seg_bytes = csvr_ahead_seg_bytes;
	size_t own_bytes = csvr_ahead_own_bytes;
	for (int i = 0; i < 3; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		t[i] = (struct trace){.hash = FUZZ_HASH_START};
		/* The first two never read ahead: the input is far below the bound. */
		if (i == 2) {
			csvr_ahead_min_bytes = 0;
			csvr_ahead_seg_bytes = 1 + (size_t)(data[0] / FORMAT_COUNT) % 48;
			/* What the stream parses itself before the threads' first byte:
			 * none, or a cut anywhere in a short input's first lines. */
			csvr_ahead_own_bytes = size % 61;
		}
		ret[i] = csvr_read_ex(in.path, f, &t[i], &d[i], &truncated[i], i != 0);
		fuzz_check_diag(&d[i], ret[i]);
	}
	csvr_ahead_min_bytes = min_bytes;
	csvr_ahead_seg_bytes = seg_bytes;
	csvr_ahead_own_bytes = own_bytes;
	for (int i = 1; i < 3; i++) {
		if (ret[0] != ret[i] || truncated[0] != truncated[i] || t[0].hash != t[i].hash ||
		    t[0].rows != t[i].rows || t[0].comments != t[i].comments)
			fuzz_fail(i == 1 ? "the fast path and libcsv read the file differently"
			                 : "reading ahead and libcsv read the file differently");
		if (strcmp(d[0].error, d[i].error) != 0 || d[0].warning_count != d[i].warning_count)
			fuzz_fail(i == 1 ? "the fast path and libcsv report differently"
			                 : "reading ahead and libcsv report differently");
		for (int k = 0; k < d[0].warning_count; k++) {
			if (strcmp(d[0].warnings[k], d[i].warnings[k]) != 0)
				fuzz_fail("the fast path or reading ahead and libcsv warn differently");
		}
	}
	return 0;
}
