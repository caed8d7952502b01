/*
 * xrlm: the offline tool. `xrlm merge` runs the same merge as the post layer;
 * `xrlm stats` recomputes the table from a merged CSV's rows.
 *
 * Exit status: 0 success, 1 bad input or a failed merge, 2 bad arguments.
 * Every failure prints exactly one line on stderr.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "merge.h"
#include "merged_reader.h"
#include "report.h"

#ifndef XRLM_VERSION
#define XRLM_VERSION "unknown"
#endif

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static const char usage[] =
	"usage: xrlm merge PRE.csv POST.csv [--gpu-pre F] [--gpu-post F] [--no-gpu] [-o OUT]\n"
	"       xrlm stats MERGED.csv\n"
	"       xrlm --help | --version\n"
	"\n"
	"merge  joins a session's per-side files (frames-<tag>-pre.csv and\n"
	"       frames-<tag>-post.csv) into frames-merged-<tag>.csv next to PRE\n"
	"       (or OUT; an existing file is never overwritten). The sibling\n"
	"       gpu-<tag>-pre.csv / gpu-<tag>-post.csv files are used when they\n"
	"       exist, unless --gpu-pre/--gpu-post name others or --no-gpu is given.\n"
	"       Prints count/mean/median/p95/p99/min/max of the target layer's CPU\n"
	"       and GPU time, both in microseconds and as a share of the frame.\n"
	"stats  prints the same table, recomputed from a merged file's rows.\n";

static void log_stderr(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "xrlm: %s\n", message);
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "xrlm: %s%s%s (see xrlm --help)\n", what, arg ? ": " : "", arg ? arg : "");
	return EXIT_USAGE;
}

struct merge_args {
	const char *pre, *post, *gpu_pre, *gpu_post, *out;
	bool no_gpu;
};

/*
 * Matches "--name VALUE" or "--name=VALUE" at argv[*i]. Returns 1 on a
 * match (advancing *i past a separate value), 0 if not this option, -1 when
 * the value is missing.
 */
static int option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, name, n) != 0)
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return **value ? 1 : -1;
	}
	if (arg[n] != '\0')
		return 0;
	if (*i + 1 >= argc || argv[*i + 1][0] == '\0')
		return -1;
	*value = argv[++*i];
	return 1;
}

static int parse_merge_args(int argc, char **argv, struct merge_args *a)
{
	static const char *const names[] = {"--gpu-pre", "--gpu-post", "-o", "--output"};
	int positional = 0;

	for (int i = 0; i < argc; i++) {
		const char **slots[] = {&a->gpu_pre, &a->gpu_post, &a->out, &a->out};
		int matched = 0;
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]) && !matched; k++) {
			matched = option_value(argc, argv, &i, names[k], slots[k]);
			if (matched < 0)
				return usage_error("option needs a value", names[k]);
		}
		if (matched)
			continue;
		if (strcmp(argv[i], "--no-gpu") == 0) {
			a->no_gpu = true;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return usage_error("unknown option", argv[i]);
		} else if (positional == 0) {
			a->pre = argv[i];
			positional++;
		} else if (positional == 1) {
			a->post = argv[i];
			positional++;
		} else {
			return usage_error("unexpected argument", argv[i]);
		}
	}
	if (positional < 2)
		return usage_error("merge needs PRE.csv and POST.csv", NULL);
	if (a->no_gpu && (a->gpu_pre || a->gpu_post))
		return usage_error("--no-gpu conflicts with --gpu-pre/--gpu-post", NULL);
	return 0;
}

static int cmd_merge(int argc, char **argv)
{
	struct merge_args a = {0};
	struct mrg_siblings sib;
	struct mrg_summary s;

	int ret = parse_merge_args(argc, argv, &a);
	if (ret != 0)
		return ret;

	bool derived = mrg_sibling_paths(a.pre, a.post, &sib) == 0;
	if (!a.out && !derived)
		return usage_error("cannot derive the output name (PRE is not named "
		                   "frames-<tag>-pre.csv); give -o OUT", NULL);

	struct mrg_paths paths = {
		.pre_csv = a.pre,
		.post_csv = a.post,
		.gpu_pre_csv = a.gpu_pre,
		.gpu_post_csv = a.gpu_post,
	};
	if (!a.no_gpu && derived) {
		if (!paths.gpu_pre_csv && sib.gpu_pre_csv[0])
			paths.gpu_pre_csv = sib.gpu_pre_csv;
		if (!paths.gpu_post_csv && sib.gpu_post_csv[0])
			paths.gpu_post_csv = sib.gpu_post_csv;
	}
	const char *out = a.out ? a.out : sib.merged_csv;

	if (mrg_merge_files(&paths, out, &s, log_stderr, NULL) != 0)
		return EXIT_INPUT;
	rpt_print(stdout, &s);
	printf("wrote %s\n", out);
	return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
}

static int cmd_stats(int argc, char **argv)
{
	struct csvr_diag diag;
	struct cols c;
	struct mrg_summary s = {0};

	if (argc != 1)
		return usage_error(argc ? "stats takes one file" : "stats needs MERGED.csv",
		                   argc > 1 ? argv[1] : NULL);
	if (argv[0][0] == '-' && argv[0][1] != '\0')
		return usage_error("unknown option", argv[0]);
	if (mrd_read(argv[0], &c, &diag) != 0) {
		log_stderr(NULL, diag.error);
		return EXIT_INPUT;
	}
	for (int i = 0; i < diag.warning_count; i++)
		log_stderr(NULL, diag.warnings[i]);
	cols_summarize(&c, &s);
	cols_destroy(&c);
	rpt_print(stdout, &s);
	return fflush(stdout) == 0 ? 0 : EXIT_INPUT;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("no command", NULL);
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("xrlm %s\n", XRLM_VERSION);
		return 0;
	}
	if (strcmp(cmd, "merge") == 0)
		return cmd_merge(argc - 2, argv + 2);
	if (strcmp(cmd, "stats") == 0)
		return cmd_stats(argc - 2, argv + 2);
	return usage_error("unknown command", cmd);
}
