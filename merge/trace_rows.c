/*
 * `xrlm trace`'s target_us counter: the merged file's target_us, row for
 * row. The session's frames files are joined by the merge's own join
 * (join.h) and each record's figure is merge_rows_target_ns(), so the
 * counter has a sample exactly where the merged file has a row (none for
 * a frame the target answers itself, or one a side lost) with the row's
 * value: pre's bracket less post's and the bracket correction, the
 * runtime's time in the calls the target makes inside xrEndFrame included
 * (which the target slices' exclusive target_us leaves out). See
 * cmd_trace.c.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "merge_rows.h"
#include "trace_job.h"

/* Join records held in memory before the rest go to a temporary file (64 bytes each). */
#define ROWS_MEM 4096

/* One side's frames file, read a chunk of rows at a time. */
struct rows_side {
	char path[MERGE_PATH_MAX];
	struct side_cpu_file file;
	struct side_stream stream;
	bool open;
};

/* join_pull_fn: the side's next chunk of rows. */
static int pull_rows(void *ctx, const void **rows, size_t *n)
{
	struct rows_side *s = ctx;

	s->file.count = 0;
	int r = side_file_stream_step(&s->stream);
	*rows = s->file.rows;
	*n = s->file.count;
	return r;
}

/* Opens side @p side's frames file. 1, 0 when the session has none, -1 (said by close_side()). */
static int open_side(const struct trace_job *j, int side, struct rows_side *s)
{
	const char *name = side ? U_NAMES_POST : U_NAMES_PRE;

	if (u_names_side_file(s->path, sizeof(s->path), j->dir, U_NAMES_FRAMES, j->tag, name) < 0 ||
	    access(s->path, F_OK) != 0)
		return 0;
	s->open = true;
	return side_cpu_stream_open(s->path, name, &s->file, &s->stream) == 0 ? 1 : -1;
}

/*
 * Reads the rest of @p s and closes it. With @p say_all (a file no other
 * pass reads) its warnings and session are said as every file's are,
 * else only an error. 0, or -1 when it had one.
 */
static int close_side(struct trace_job *j, struct rows_side *s, bool say_all)
{
	int rc = 0;

	if (!s->open)
		return 0;
	while (side_file_stream_step(&s->stream) > 0)
		s->file.count = 0;
	side_file_stream_close(&s->stream);
	if (say_all)
		rc = trace_read_done(j, s->file.diag.failed ? -1 : 0, &s->file.diag, s->path,
		                     &s->file.meta);
	else if (s->file.diag.failed)
		rc = trace_report_read(-1, &s->file.diag);
	side_cpu_destroy(&s->file);
	return rc;
}

/* Joins pre's rows with post's, a sample per record. 0, or -1 (said when not a file's). */
static int join_rows(struct trace_job *j, struct rows_side side[2])
{
	const struct window_source post = join_cpu_source(pull_rows, &side[1]);
	const unsigned no_gpu[2] = {0, 0};
	uint64_t bracket_ns = side[1].file.meta.bracket_correction_ns;
	struct spill recs;
	struct join join;
	int r = -1;

	if (spill_init(&recs, sizeof(struct join_rec), ROWS_MEM, NULL) != 0) {
		fprintf(stderr, "xrlm: out of memory\n");
		return -1;
	}
	if (join_init(&join, &post, NULL, NULL, no_gpu, &recs) == 0) {
		do {
			const void *rows;
			size_t n = 0;
			r = pull_rows(&side[0], &rows, &n);
			for (size_t i = 0; r >= 0 && i < n; i++) {
				uint64_t count = recs.count;
				if (join_pre_row(&join, (const struct side_cpu_row *)rows + i) != 0)
					r = -1;
				else if (recs.count > count) {
					const struct join_rec *a = spill_item(&recs, recs.count - 1);
					trace_out_counter(&j->out, TRACE_PID_TARGET, "target_us", a->t_entry_ns,
					                  (double)merge_rows_target_ns(bracket_ns, a) / 1000.0);
				}
			}
		} while (r > 0);
		if (r == 0)
			r = join_finish(&join);
	}
	if (r != 0 && !side[0].file.diag.failed && !side[1].file.diag.failed)
		fprintf(stderr, "xrlm: joining the frames files failed: %s\n",
		        recs.error ? strerror(recs.error) : "out of memory");
	join_destroy(&join);
	spill_destroy(&recs);
	return r != 0 ? -1 : 0;
}

int trace_rows_run(struct trace_job *j)
{
	struct rows_side side[2];
	int rc = 0;

	memset(side, 0, sizeof(side));
	int pre = open_side(j, 0, &side[0]);
	int post = pre > 0 ? open_side(j, 1, &side[1]) : 0;
	/* Without both frames files there is no merged row, and no counter. */
	if (pre > 0 && post > 0)
		rc = join_rows(j, side);
	else if (pre < 0 || post < 0)
		rc = -1;
	/* Pre's frames file was read by the CPU pass, and post's too without calls files. */
	for (int s = 0; s < 2; s++)
		if (close_side(j, &side[s], s == 1 && j->calls) != 0)
			rc = -1;
	return rc;
}
