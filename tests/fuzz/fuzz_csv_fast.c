/*
 * Fuzz entry point: the fast path for plain rows against libcsv alone.
 * The first byte picks the column kinds (CPU, GPU, merged file, text
 * cells as in functions-merged files, or a calls file's), the rest is the
 * file. It is read twice by the generic engine, with and without the fast
 * path; every callback (comment text, row values, which cells were
 * present), message and return value must be the same both times, which is
 * what keeps libcsv the parser of record.
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
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		t->hash = (t->hash ^ b[i]) * 0x100000001b3ull;
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

static int on_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg, size_t msg_size)
{
	struct trace *t = ctx;
	(void)msg;
	(void)msg_size;
	t->rows++;
	mix(t, &present, sizeof(present));
	for (int c = 0; c < CSVR_MAX_COLS; c++) {
		if (!(present & (1u << c)))
			continue;
		if (current->kinds[c] == CSVR_TEXT)
			mix(t, v[c].s, strlen(v[c].s) + 1);
		else
			mix(t, &v[c], sizeof(v[c]));
	}
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
};
#define FORMAT_COUNT (sizeof(formats) / sizeof(formats[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	struct csvr_diag d[2];
	struct trace t[2];
	uint64_t truncated[2] = {0, 0};
	int ret[2];

	if (size < 1)
		return 0;
	if (!in.path[0])
		fuzz_file_init(&in, "table.csv");
	const struct csvr_format *f = &formats[data[0] % FORMAT_COUNT];
	current = f;
	fuzz_file_set(&in, data + 1, size - 1);
	for (int i = 0; i < 2; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		t[i] = (struct trace){.hash = 0xcbf29ce484222325ull};
		ret[i] = csvr_read_ex(in.path, f, &t[i], &d[i], &truncated[i], i == 0);
		fuzz_check_diag(&d[i], ret[i]);
	}
	if (ret[0] != ret[1] || truncated[0] != truncated[1] || t[0].hash != t[1].hash ||
	    t[0].rows != t[1].rows || t[0].comments != t[1].comments)
		fuzz_fail("the fast path and libcsv read the file differently");
	if (strcmp(d[0].error, d[1].error) != 0 || d[0].warning_count != d[1].warning_count)
		fuzz_fail("the fast path and libcsv report differently");
	for (int i = 0; i < d[0].warning_count; i++) {
		if (strcmp(d[0].warnings[i], d[1].warnings[i]) != 0)
			fuzz_fail("the fast path and libcsv warn differently");
	}
	return 0;
}
