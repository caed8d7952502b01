/*
 * Reading ahead (csvr_ahead.h) against libcsv alone: each input is read
 * without the fast path, with it, and with it reading ahead on a thread in
 * segments of many sizes (check_same()), and every callback, message and
 * result must be the same. The inputs put what libcsv alone must read (a
 * line cut across segments whose second piece looks like a row, a short
 * row before another, a quoted field over a line end, comments, CRLF, a
 * cut last row) where segments end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "csvr.h"
#include "tm_common.h"

/* What one read saw, as text: every callback in order, then the messages. */
struct trace {
	char *text;
	size_t len, cap;
};

static void add(struct trace *t, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(line));
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->text = realloc(t->text, t->cap);
		assert_non_null(t->text);
	}
	memcpy(t->text + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
}

static int on_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	(void)msg;
	(void)msg_size;
	add(ctx, "comment %d %s\n", in_header, text);
	return 0;
}

/* A row's line of the trace: its text cell's @p len bytes at @p text, up to a NUL in them. */
static void add_row(struct trace *t, const union csvr_value *v, uint32_t present,
                    const char *text, size_t len)
{
	add(t, "row %x %.*s %lld %lld %llu\n", (unsigned)present,
	    present & 1 ? (int)strnlen(text, len) : 1, present & 1 ? text : "-",
	    present & 2 ? (long long)v[1].i : 0LL, present & 4 ? (long long)v[2].i : 0LL,
	    present & 8 ? (unsigned long long)v[3].u : 0ULL);
}

static int on_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                  size_t msg_size)
{
	(void)msg;
	(void)msg_size;
	add_row(ctx, v, present, present & 1 ? v[0].s : "", CSVR_TEXT_MAX);
	return 0;
}

/* on_row() for a row read ahead, its text cell where it is in its line. */
static int on_row_in_line(void *ctx, const union csvr_value *v, uint32_t present,
                          const char *line, char *msg, size_t msg_size)
{
	size_t len = 0;
	const char *text = present & 1 ? csvr_text_at(v[0], line, &len) : "";

	(void)msg;
	(void)msg_size;
	add_row(ctx, v, present, text, len);
	return 0;
}

static const struct csvr_format format = {
	.header = "fn,a,b,c",
	.ncols = 4,
	.kinds = {CSVR_TEXT, CSVR_I64, CSVR_I64, CSVR_U64_OPT},
	.names = {"fn", "a", "b", "c"},
	.comment = on_comment,
	.row = on_row,
};

/*
 * Reads @p path (fast path on or off, reading ahead from @p min bytes in
 * @p seg-byte segments, the stream parsing the first @p own bytes itself;
 * with @p in_line, the rows read ahead through row_in_line).
 */
static char *read_trace_as(const char *path, bool fast, size_t min, size_t seg, size_t own,
                           bool in_line)
{
	struct trace t = {0};
	struct csvr_diag d;
	uint64_t truncated = 0;

	memset(&d, 0, sizeof(d));
	csvr_ahead_min_bytes = min;
	csvr_ahead_seg_bytes = seg;
	csvr_ahead_own_bytes = own;
	struct csvr_format f = format;
	if (in_line)
		f.row_in_line = on_row_in_line; /* the calls files' way */
	int ret = csvr_read_ex(path, &f, &t, &d, &truncated, fast);
	add(&t, "ret %d truncated %llu error %s\n", ret, (unsigned long long)truncated, d.error);
	for (int i = 0; i < d.warning_count; i++)
		add(&t, "warning %s\n", d.warnings[i]);
	return t.text;
}

static char *read_trace(const char *path, bool fast, size_t min, size_t seg, size_t own)
{
	return read_trace_as(path, fast, min, seg, own, false);
}

/* Writes the file: the header, then @p pad_to bytes of rows and a comment (0: none), then @p body. */
static void write_file(const char *path, const char *body, long pad_to)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	long at = fprintf(f, "# side=pre\nfn,a,b,c\n");
	if (pad_to > 0) {
		for (; at + 8 + 100 < pad_to; at += 8)
			fputs("p,1,2,3\n", f);
		fputc('#', f);
		for (long i = at + 1; i < pad_to - 1; i++)
			fputc('x', f);
		fputc('\n', f);
		at = pad_to;
	}
	fputs(body, f);
	assert_int_equal(ftell(f), at + (long)strlen(body));
	fclose(f);
}

/*
 * Reads @p path ahead in segments of each of @p sizes bytes, the stream
 * parsing none, a few (cutting a line) or more of the first bytes itself
 * (past the bytes read with the header too): all as @p want. Every other
 * read delivers the rows read ahead through row_in_line.
 */
static void check_sizes(const char *path, const char *want, const size_t *sizes, size_t n)
{
	static const size_t own[] = {0, 3, 11, 100, (size_t)CSVR_CHUNK_BYTES + 5};

	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
		/* Every size once; with the stream's own bytes, a few (threads cost). */
		for (size_t i = 0; i < n; i += k == 0 || n < 8 ? 1 : 7) {
			bool in_line = (i + k) % 2;
			char *got = read_trace_as(path, true, 0, sizes[i], own[k], in_line);
			if (strcmp(got, want) != 0)
				fail_msg("segments of %zu bytes, %zu parsed by the stream%s:\n%s\n"
				         "libcsv alone:\n%s", sizes[i], own[k],
				         in_line ? ", row_in_line" : "", got, want);
			free(got);
		}
	}
}

/*
 * @p body after the header, read every way: all the same as libcsv alone.
 * Once right after the header (the bytes the stream's first read took,
 * handed to the thread, or parsed by the stream up to some point), in
 * segments of 1 to 64 bytes; once after rows that fill that first read
 * exactly (@p body comes from the file), in a few sizes.
 */
static void check_same(const char *body)
{
	static const size_t from_file[] = {9, 17, 64, 4096, (size_t)256 << 10};
	size_t all[64];
	char dir[256], path[300];
	size_t min = csvr_ahead_min_bytes, seg = csvr_ahead_seg_bytes, own = csvr_ahead_own_bytes;

	for (size_t i = 0; i < 64; i++)
		all[i] = i + 1;
	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	for (int padded = 0; padded < 2; padded++) {
		write_file(path, body, padded ? (long)CSVR_CHUNK_BYTES : 0);
		char *want = read_trace(path, false, SIZE_MAX, seg, own);
		char *fast = read_trace(path, true, SIZE_MAX, seg, own);
		assert_string_equal(fast, want);
		free(fast);
		if (padded)
			check_sizes(path, want, from_file, sizeof(from_file) / sizeof(from_file[0]));
		else
			check_sizes(path, want, all, 64);
		free(want);
	}
	csvr_ahead_min_bytes = min;
	csvr_ahead_seg_bytes = seg;
	csvr_ahead_own_bytes = own;
	remove(path);
	tm_dir_remove(dir);
}

/* The trace of @p body after the header, read by libcsv alone (check_same() compares the ways). */
static char *trace_of(const char *body)
{
	char dir[256], path[300];

	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	write_file(path, body, 0);
	char *got = read_trace(path, false, SIZE_MAX, csvr_ahead_seg_bytes, csvr_ahead_own_bytes);
	remove(path);
	tm_dir_remove(dir);
	return got;
}

static void test_plain_rows(void **state)
{
	(void)state;
	check_same("xrWaitFrame,1,2,3\nxrBeginFrame,-4,5,\nxrEndFrame,6,7,8\n");
}

/* "12345678,1,2,3" cut after "1234": the piece after the cut is a row of its own to the fast path. */
static void test_cut_line_that_looks_like_a_row(void **state)
{
	(void)state;
	check_same("f,1,2,3\nf,12345678,1,2\n1,2,3,4\nf,5,6,7\n");
	check_same("f,1,2,3\n\"f,1\n2,3\",1,2,3\nf,4,5,6\nf,7,8,9\n");
}

/* A short row is an error only if another row follows it (or a comment). */
static void test_short_rows(void **state)
{
	(void)state;
	check_same("f,1,2,3\nf,1,2\nf,4,5,6\n");
	check_same("f,1,2,3\nf,4,5,6\nf,1,2\n");
	check_same("f,1,2,3\nf,4,5,6\nf,1,2");
	/* The error ends the read: neither the row nor the comment after it is delivered. */
	static const char *const after[] = {"f,4,5,6\n", "# end=1\n"};
	for (size_t i = 0; i < 2; i++) {
		char body[64];
		snprintf(body, sizeof(body), "f,1,2,3\nf,1,2\n%s", after[i]);
		check_same(body);
		char *got = trace_of(body);
		static const char want[] = "comment 1 side=pre\nrow f f 1 2 3\n"
		                           "ret -1 truncated 0 error ";
		if (strncmp(got, want, sizeof(want) - 1) != 0 ||
		    !strstr(got, "t.csv:4: error: expected 4 fields, got 3\n"))
			fail_msg("a short row, then \"%s\": %s", after[i], got);
		free(got);
	}
}

static void test_comments_crlf_quotes_blanks(void **state)
{
	(void)state;
	check_same("f,1,2,3\n# mid=1\nf,4,5,6\r\nf , 7,8,9\n\"g\",1,2,3\n\nf,1,2,3\n# end=2\n");
	check_same("f,1,2,3\n\tg\t,1,2,3\nf,4,5,6\n"); /* libcsv trims tabs as it trims blanks */
	check_same("f,1,2,3\nf,x,2,3\nf,4,5,6\n");
	check_same("f,1,2,3,4\nf,4,5,6\n");
	check_same("f,1,2,3\n\"open,1,2,3\nf,4,5,6\n");
}

/*
 * Text cells, which the threads check but do not copy: a blank one (not
 * present), the longest kept and one byte too long (libcsv's error: an
 * error for every way of reading, not only the same).
 */
static void test_text_cells(void **state)
{
	(void)state;
	char body[3 * CSVR_TEXT_MAX + 64];
	char name[CSVR_TEXT_MAX + 1];

	check_same("f,1,2,3\n,4,5,6\nf,7,8,9\n");
	memset(name, 'n', sizeof(name) - 1);
	name[CSVR_TEXT_MAX - 1] = '\0';
	snprintf(body, sizeof(body), "f,1,2,3\n%s,4,5,6\nf,7,8,9\n", name);
	check_same(body);
	char *got = trace_of(body);
	assert_non_null(strstr(got, "ret 0 "));
	free(got);
	name[CSVR_TEXT_MAX - 1] = 'n';
	name[CSVR_TEXT_MAX] = '\0';
	snprintf(body, sizeof(body), "f,1,2,3\n%s,4,5,6\nf,7,8,9\n", name);
	check_same(body);
	got = trace_of(body);
	if (!strstr(got, "ret -1 truncated 0 error ") ||
	    !strstr(got, "t.csv:4: error: column 1 (fn) is out of range (expected text of at most "
	                 "255 bytes): \"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...\"\n"))
		fail_msg("a text cell of %d bytes: %s", CSVR_TEXT_MAX, got);
	free(got);
}

/* Many rows: every segment boundary falls somewhere in a row. */
static void test_many_rows(void **state)
{
	(void)state;
	char *body = malloc(64 * 1024);
	size_t n = 0;

	assert_non_null(body);
	for (int i = 0; i < 1500; i++)
		n += (size_t)sprintf(body + n, "xrFn%d,%d,-%d,%s\n", i % 7, i * 37, i * 1001,
		                     i % 5 ? "12345678901" : "");
	check_same(body);
	free(body);
}

/*
 * Numbers of every length from 1 to 20 digits (the fast path reads 8
 * bytes at a time and leaves more than 19 digits to libcsv's path),
 * leading zeros, each kind's limits and one past them, a digit followed
 * by one of the bytes after '9' (each an error of its own: an error ends
 * the read); text cells of 1 to 18 bytes with
 * bytes that end nothing ('!', '+', a control byte, bytes above 0x7f).
 */
static void test_numbers_and_text_bytes(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"f,9223372036854775808,1,1\n", "f,1,-9223372036854775809,1\n",
		"f,1,1,18446744073709551616\n", "f,12345678901234567890,1,1\n",
		"f,-,1,1\n", "f,1,1,-1\n", "f,1,1,1-\n", "f,1,12345678901234567x,1\n",
		/* The bytes just after '9', which the 8-byte digit test must not take. */
		"f,1:,1,1\n", "f,1,-2;,1\n", "f,1,1,3<\n", "f,4=,1,1\n", "f,5>,1,1\n", "f,6?,1,1\n",
	};
	const char *digits = "12345678901234567890";
	char body[8192];
	size_t n = 0;

	for (int len = 1; len <= 20; len++) {
		int ilen = len < 19 ? len : 19;
		n += (size_t)sprintf(body + n, "f,%.*s,-%.*s,%.*s\n", ilen, digits, ilen, digits, len,
		                     digits);
		n += (size_t)sprintf(body + n, "f,%0*d,-%0*d,%0*d\n", ilen, 7, ilen, 7, len, 7);
	}
	n += (size_t)sprintf(body + n, "f,9223372036854775807,-9223372036854775808,"
	                     "18446744073709551615\nf,0,-0,\nf,00000000000000000000001,1,1\n");
	for (int len = 1; len <= 18; len++)
		n += (size_t)sprintf(body + n, "%.*s,1,2,3\n", len, "a!b$c%d&e(f)g*h+i\x01\xc3\xa9");
	assert_true(n < sizeof(body));
	check_same(body);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(body, sizeof(body), "f,1,2,3\n%sf,4,5,6\n", bad[i]);
		check_same(body);
	}
}

/* The process's threads now (/proc/self/status). */
static int threads_now(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Threads:", 8) == 0)
			n = atoi(line + 8);
	fclose(f);
	return n;
}

static int most_threads;

static int ignore_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	(void)ctx;
	(void)text;
	(void)in_header;
	(void)msg;
	(void)msg_size;
	return 0;
}

static int count_threads_row(void *ctx, const union csvr_value *v, uint32_t present, char *msg,
                             size_t msg_size)
{
	(void)ctx;
	(void)v;
	(void)present;
	(void)msg;
	(void)msg_size;
	static unsigned rows;
	if (rows++ % 1024 == 0) {
		int n = threads_now();
		if (n > most_threads)
			most_threads = n;
	}
	return 0;
}

/*
 * csvr_ahead_off (the post layer's merge, inside its host application):
 * no file is read ahead, not even one whose format reads ahead from a
 * lower size than csvr_ahead_min_bytes (the calls files': 1 MiB). Before,
 * the layer set csvr_ahead_min_bytes = SIZE_MAX, which the calls format's
 * lower threshold overrode: their reader threads ran in the application.
 */
static void test_ahead_off_starts_no_thread(void **state)
{
	(void)state;
	struct csvr_format low = format;
	char dir[256], path[300];
	struct csvr_diag d;
	size_t min = csvr_ahead_min_bytes, own = csvr_ahead_own_bytes;

	low.row = count_threads_row;
	low.comment = ignore_comment;
	low.ahead_min_bytes = 1;
	tm_dir_create(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	write_file(path, "f,1,2,3\n", (long)CSVR_CHUNK_BYTES * 16);
	/* 16 MiB: more than the read-ahead's segments hold, so that its
	 * threads still run while the rows after the first chunk come. */
	csvr_ahead_min_bytes = SIZE_MAX; /* what the layer set */
	csvr_ahead_own_bytes = 0;
	int base = threads_now();
	for (int off = 0; off < 2; off++) {
		csvr_ahead_off = off;
		most_threads = 0;
		memset(&d, 0, sizeof(d));
		assert_int_equal(csvr_read_ex(path, &low, NULL, &d, NULL, true), 0);
		if (off)
			assert_int_equal(most_threads, base); /* read on this thread alone */
		else
			assert_true(most_threads > base); /* the format's threshold: read ahead */
	}
	csvr_ahead_off = false;
	csvr_ahead_min_bytes = min;
	csvr_ahead_own_bytes = own;
	remove(path);
	tm_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_rows),
		cmocka_unit_test(test_cut_line_that_looks_like_a_row),
		cmocka_unit_test(test_short_rows),
		cmocka_unit_test(test_comments_crlf_quotes_blanks),
		cmocka_unit_test(test_text_cells),
		cmocka_unit_test(test_many_rows),
		cmocka_unit_test(test_numbers_and_text_bytes),
		cmocka_unit_test(test_ahead_off_starts_no_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
