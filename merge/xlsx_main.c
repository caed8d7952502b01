/*
 * xrlm-xlsx: the program behind `xrlm xlsx` (cmd_xlsx.c runs it with the
 * arguments after "xlsx"): a merged CSV as a spreadsheet workbook (see
 * xlsx.h). A program of its own because it links libxlsxwriter (and
 * through it libminizip, zlib and libcrypto), shared libraries that a
 * statically linked xrlm cannot load.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "functions_read.h"
#include "merge.h"
#include "out_file.h"
#include "quote.h"
#include "xlsx.h"

struct xlsx_args {
	const char *in, *out, *rows;
};

static int parse_xlsx_args(int argc, char **argv, struct xlsx_args *a)
{
	static const char *const names[] = {"-o", "--output", "--rows-per-sheet"};
	const char **const slots[] = {&a->out, &a->out, &a->rows};

	return cmd_parse_args(argc, argv, names, slots, sizeof(names) / sizeof(names[0]), &a->in,
	                      "xlsx needs MERGED.csv");
}

/* Parses --rows-per-sheet: 1..XLSX_MAX_ROWS_PER_SHEET. */
static int parse_rows(const char *text, uint32_t *out)
{
	char *end;

	errno = 0;
	unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
	if (v == 0 || errno || *end || v > XLSX_MAX_ROWS_PER_SHEET)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* The arguments after "xlsx"; messages and exit status as xrlm's (cmd.h). */
int main(int argc, char **argv)
{
	struct xlsx_args a = {0};
	char out[MERGE_PATH_MAX], functions[MERGE_PATH_MAX], q[QUOTE_PATH_MAX];
	struct xlsx_job job = {.rows_per_sheet = XLSX_MAX_ROWS_PER_SHEET};
	struct xlsx_result r;

	argc--;
	argv++;
	int ret = parse_xlsx_args(argc, argv, &a);
	if (ret != 0)
		return ret;
	if (a.rows && parse_rows(a.rows, &job.rows_per_sheet) != 0)
		return cmd_usage_error("--rows-per-sheet must be 1 to 1048575", a.rows);
	if (!a.out && cmd_default_output(a.in, ".xlsx", out, sizeof(out)) != 0)
		return cmd_usage_error("path too long", a.in);
	job.merged_csv = a.in;
	job.out_path = a.out ? a.out : out;
	job.functions_csv = functions_read_sibling(a.in, functions, sizeof(functions)) ? functions : NULL;
	const char *const inputs[] = {job.merged_csv, job.functions_csv};
	if ((ret = cmd_check_output(job.out_path, inputs, 2)) != 0)
		return ret;
	/* A file-size limit must give EFBIG and a message, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	/* An interrupted workbook leaves no hidden partial file behind. */
	out_file_cleanup_on_signals();
	if (xlsx_write(&job, &r, cmd_log, NULL) != 0)
		return CMD_EXIT_INPUT;
	printf("wrote %s: %" PRIu64 " frames", quote_path(q, job.out_path), r.frames);
	if (r.frame_sheets > 1)
		printf(" on %u Frames sheets", r.frame_sheets);
	if (job.functions_csv)
		printf(", %" PRIu64 " functions", r.functions);
	printf("\n");
	return cmd_finish_output(stdout);
}
