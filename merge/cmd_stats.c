/*
 * `xrlm stats`: the statistics table recomputed from a merged file's rows.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "functions_read.h"
#include "merge.h"
#include "merged_read.h"
#include "quote.h"
#include "table.h"

/* The per-function table from the functions file next to @p merged, if any. */
static int print_functions(const char *merged, const struct merge_summary *s, bool all)
{
	char path[MERGE_PATH_MAX], qm[QUOTE_PATH_MAX], qp[QUOTE_PATH_MAX];

	if (functions_read_sibling(merged, path, sizeof(path)))
		return cmd_print_functions(path, s->summary_frame_count ? s->summary_frame_count
		                                                       : s->frame_count, all);
	if (s->has_calls && merge_functions_path(merged, path, sizeof(path)) == 0)
		fprintf(stderr, "xrlm: %s: warning: no per-function table: %s is missing\n",
		        quote_path(qm, merged), quote_path(qp, path));
	return 0;
}

static int run_stats(int argc, char **argv)
{
	struct csvr_diag diag;
	struct merge_summary s;
	const char *merged = NULL;
	bool all = false;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--all") == 0)
			all = true;
		else if (cmd_is_option(argv[i]))
			return cmd_usage_error("unknown option", argv[i]);
		else if (merged)
			return cmd_usage_error("stats takes one file", argv[i]);
		else
			merged = argv[i];
	}
	if (!merged)
		return cmd_usage_error("stats needs MERGED.csv", NULL);
	if (merged_read_stats(merged, &s, &diag) != 0) {
		cmd_log(NULL, diag.error);
		return CMD_EXIT_INPUT;
	}
	for (int i = 0; i < diag.warning_count; i++)
		cmd_log(NULL, diag.warnings[i]);
	table_print(stdout, &s);
	int ret = print_functions(merged, &s, all);
	int out = cmd_finish_output(stdout);
	return ret ? ret : out;
}

const struct cmd cmd_stats = {
	.name = "stats",
	.synopsis = "MERGED.csv [--all]",
	.help = "prints the same table as merge, recomputed from a merged file's rows,\n"
	        "and the per-function table of the functions-merged-<tag>.csv next\n"
	        "to it when there is one: the 15 functions with the most target time,\n"
	        "or every function with --all.\n",
	.run = run_stats,
};
