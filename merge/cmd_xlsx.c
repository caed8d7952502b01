/*
 * `xrlm xlsx`: a merged CSV as a spreadsheet workbook (see xlsx.h).
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

static int run_xlsx(int argc, char **argv)
{
	struct xlsx_args a = {0};
	char out[MERGE_PATH_MAX], functions[MERGE_PATH_MAX];
	struct xlsx_job job = {.rows_per_sheet = XLSX_MAX_ROWS_PER_SHEET};
	struct xlsx_result r;

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
	/* A file-size limit must give EFBIG and a message, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	if (xlsx_write(&job, &r, cmd_log, NULL) != 0)
		return CMD_EXIT_INPUT;
	printf("wrote %s: %" PRIu64 " frames", job.out_path, r.frames);
	if (r.frame_sheets > 1)
		printf(" on %u Frames sheets", r.frame_sheets);
	if (job.functions_csv)
		printf(", %" PRIu64 " functions", r.functions);
	printf("\n");
	return cmd_finish_output(stdout);
}

const struct cmd cmd_xlsx = {
	.name = "xlsx",
	.synopsis = "MERGED.csv [-o FILE.xlsx] [--rows-per-sheet N]",
	.help = "writes a spreadsheet workbook (default: MERGED with .xlsx; an\n"
	        "existing file is never overwritten): a Summary sheet (numbers as\n"
	        "numbers, percentages as percentages), a Frames sheet, a Functions\n"
	        "sheet when functions-merged-<tag>.csv sits next to MERGED, and a\n"
	        "Charts sheet: target_us and target_gpu_us over frames and as\n"
	        "histograms. More frames than a sheet holds (N, at most 1048575)\n"
	        "continue on \"Frames 2\", \"Frames 3\", ...; the charts show the first.\n",
	.run = run_xlsx,
};
