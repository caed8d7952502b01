/*
 * `xrlm report MERGED.csv [-o OUT.html] [--functions F | --no-functions]`:
 * one self-contained HTML page with the session's tables and charts
 * (report_html.h). By default the page goes next to the merged file
 * (frames-merged-<tag>.html) and the sibling functions-merged-<tag>.csv is
 * shown when it exists. The page is written to a temporary file in the
 * same directory and renamed into place, so a browser never opens half a
 * page; an existing page of the same name is replaced, unless it is one of
 * the files the page is made from.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "functions_read.h"
#include "merge.h"
#include "merged_read.h"
#include "metrics.h"
#include "ncsv.h"
#include "out_file.h"
#include "quote.h"
#include "report_html.h"

#ifndef XRLM_VERSION
#define XRLM_VERSION "unknown"
#endif

struct report_args {
	const char *merged, *out, *functions;
	bool no_functions;
};

static int parse_report_args(int argc, char **argv, struct report_args *a)
{
	static const char *const names[] = {"-o", "--output", "--functions"};
	const char **const slots[] = {&a->out, &a->out, &a->functions};

	for (int i = 0; i < argc; i++) {
		int m = cmd_options(argc, argv, &i, names, slots, sizeof(names) / sizeof(names[0]));
		if (m == CMD_EXIT_USAGE)
			return m;
		if (m) {
			continue;
		} else if (strcmp(argv[i], "--no-functions") == 0) {
			a->no_functions = true;
		} else if (cmd_is_option(argv[i])) {
			return cmd_usage_error("unknown option", argv[i]);
		} else if (!a->merged) {
			a->merged = argv[i];
		} else {
			return cmd_usage_error("unexpected argument", argv[i]);
		}
	}
	if (!a->merged)
		return cmd_usage_error("report needs MERGED.csv", NULL);
	if (a->no_functions && a->functions)
		return cmd_usage_error("--no-functions conflicts with --functions", NULL);
	return 0;
}

/*
 * The functions-merged-<tag>.csv next to a frames-merged-<tag>.csv, if it
 * exists; NULL otherwise (or when out of memory). malloc'ed.
 */
static char *sibling_functions(const char *merged)
{
	char path[MERGE_PATH_MAX];
	return functions_read_sibling(merged, path, sizeof(path)) ? strdup(path) : NULL;
}

/* Writes the page to a temporary file beside @p out, then renames it (out_file.h). */
static int write_page(const char *out, const struct report_html_input *in)
{
	char tmp[MERGE_PATH_MAX], msg[2 * MERGE_PATH_MAX];
	int fd;

	out_file_clear_stale(out);
	fd = out_file_create_tmp(out, tmp, sizeof(tmp), msg, sizeof(msg));
	if (fd < 0) {
		cmd_log(NULL, msg);
		return CMD_EXIT_INPUT;
	}
	FILE *f = fdopen(fd, "w");
	const char *why = f ? NULL : strerror(errno);
	if (f && report_html_write(f, in) != 0)
		why = "out of memory";
	else if (f && ferror(f))
		why = strerror(errno ? errno : EIO);
	if (f && fclose(f) != 0 && !why)
		why = strerror(errno);
	if (!f)
		close(fd);
	if (why) {
		char q[QUOTE_PATH_MAX];
		fprintf(stderr, "xrlm: %s: error: cannot write: %s\n", quote_path(q, out), why);
		out_file_discard(tmp);
		return CMD_EXIT_INPUT;
	}
	if (out_file_replace(tmp, out, msg, sizeof(msg)) != 0) {
		cmd_log(NULL, msg);
		return CMD_EXIT_INPUT;
	}
	return 0;
}

/*
 * The functions file @p path of a merged file of @p merged_frames frames
 * into @p out, once it is one (the header and cells `xrlm stats` takes:
 * functions_read_check(), whose warnings are in @p diag). Returns 0, or
 * -1 with one line in @p err.
 */
static int read_functions(const char *path, uint64_t merged_frames, struct ncsv *out,
                          struct csvr_diag *diag, char *err, size_t err_size)
{
	static const char *const text_cols[] = {"fn", "phase", NULL};

	if (functions_read_check(path, merged_frames, diag) != 0) {
		snprintf(err, err_size, "%s", diag->error);
		return -1;
	}
	return ncsv_read(path, text_cols, out, err, err_size);
}

static int run_report(int argc, char **argv)
{
	struct report_args a = {0};
	struct ncsv frames, functions;
	char err[NCSV_MSG_MAX];
	char out[MERGE_PATH_MAX], *fn_path = NULL;
	int ret = parse_report_args(argc, argv, &a);

	if (ret != 0)
		return ret;
	if (!a.out && cmd_default_output(a.merged, ".html", out, sizeof(out)) != 0)
		return cmd_usage_error("path too long", a.merged);
	const char *out_path = a.out ? a.out : out;
	fn_path = a.functions ? strdup(a.functions) : a.no_functions ? NULL : sibling_functions(a.merged);
	/* The page replaces its output: never one of the files it is made from. */
	const char *const inputs[] = {a.merged, fn_path};
	if ((ret = cmd_check_output(out_path, inputs, 2)) != 0) {
		free(fn_path);
		return ret;
	}
	if (ncsv_read(a.merged, NULL, &frames, err, sizeof(err)) != 0) {
		cmd_log(NULL, err);
		free(fn_path);
		return CMD_EXIT_INPUT;
	}
	/* Any other CSV would make a page with nothing on it. */
	if (metrics_check_merged(&frames, a.merged, err, sizeof(err)) != 0) {
		cmd_log(NULL, err);
		ret = CMD_EXIT_INPUT;
		goto out;
	}
	struct report_html_input in = {
		.frames_path = a.merged,
		.frames = &frames,
		.generator = "xrlm " XRLM_VERSION,
	};
	int nwarn = 0;
	char rows_warning[NCSV_MSG_MAX];
	if (frames.warning[0]) {
		cmd_log(NULL, frames.warning);
		in.warnings[nwarn++] = frames.warning;
	}
	if (merged_rows_warning(a.merged, ncsv_meta_value(&frames, "frame_count"), frames.nrows,
	                        rows_warning, sizeof(rows_warning))) {
		cmd_log(NULL, rows_warning);
		in.warnings[nwarn++] = rows_warning;
	}
	struct csvr_diag fn_diag = {0};
	uint64_t session_frames = merged_frames(ncsv_meta_value(&frames, "frame_count"),
	                                        frames.nrows);
	if (fn_path && read_functions(fn_path, session_frames, &functions, &fn_diag, err,
	                              sizeof(err)) != 0) {
		/* A broken functions file costs its table, not the whole report. */
		cmd_log(NULL, err);
		if (a.functions) {
			ret = CMD_EXIT_INPUT;
			goto out;
		}
		free(fn_path);
		fn_path = NULL;
	} else if (fn_path) {
		in.functions_path = fn_path;
		in.functions = &functions;
		/* The check read the same file: its warnings are the table's (a
		 * truncated last row too), and those against the merged file. */
		for (int i = 0; i < fn_diag.warning_count; i++) {
			cmd_log(NULL, fn_diag.warnings[i]);
			if (nwarn < REPORT_HTML_WARNINGS)
				in.warnings[nwarn++] = fn_diag.warnings[i];
		}
	}
	if ((ret = write_page(out_path, &in)) == 0) {
		char q[QUOTE_PATH_MAX];
		printf("wrote %s\n", quote_path(q, out_path));
		ret = cmd_finish_output(stdout);
	}
	if (in.functions)
		ncsv_destroy(&functions);
out:
	ncsv_destroy(&frames);
	free(fn_path);
	return ret;
}

const struct cmd cmd_report = {
	.name = "report",
	.synopsis = "MERGED.csv [-o OUT.html] [--functions F | --no-functions]",
	.help = "writes one self-contained HTML page (no network access, opens from\n"
	        "file://): the session's metadata, the statistics of every column,\n"
	        "frame-by-frame charts with zoom and pan, histograms and percentile\n"
	        "curves with p50/p95/p99 marked, and the per-phase and per-function\n"
	        "breakdowns when the file has them. Default OUT: MERGED with .html\n"
	        "for .csv (replaced if it is the user's own regular file and not\n"
	        "MERGED or F). The sibling functions-merged-<tag>.csv is shown when\n"
	        "it exists (or F with --functions).\n",
	.run = run_report,
};
