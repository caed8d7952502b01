/*
 * `xrlm stats`: the statistics table recomputed from a merged file's rows.
 */
#include <stdio.h>

#include "cmd.h"
#include "merged_read.h"
#include "table.h"

static int run_stats(int argc, char **argv)
{
	struct csvr_diag diag;
	struct merge_summary s;

	if (argc != 1)
		return cmd_usage_error(argc ? "stats takes one file" : "stats needs MERGED.csv",
		                       argc > 1 ? argv[1] : NULL);
	if (cmd_is_option(argv[0]))
		return cmd_usage_error("unknown option", argv[0]);
	if (merged_read_stats(argv[0], &s, &diag) != 0) {
		cmd_log(NULL, diag.error);
		return CMD_EXIT_INPUT;
	}
	for (int i = 0; i < diag.warning_count; i++)
		cmd_log(NULL, diag.warnings[i]);
	table_print(stdout, &s);
	return cmd_finish_output(stdout);
}

const struct cmd cmd_stats = {
	.name = "stats",
	.synopsis = "MERGED.csv",
	.help = "prints the same table as merge, recomputed from a merged file's rows.\n",
	.run = run_stats,
};
