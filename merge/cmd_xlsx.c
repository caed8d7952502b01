/*
 * `xrlm xlsx`: runs xrlm-xlsx (xlsx_main.c), the program that links
 * libxlsxwriter, with the arguments after "xlsx". xrlm itself is linked
 * statically where it can be (its start is part of every merge's time)
 * and so cannot load the library; xrlm-xlsx is linked against it.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "quote.h"

/* Where `cmake --install` puts xrlm-xlsx: from xrlm's directory, and absolute. */
#ifndef XRLM_XLSX_FROM_BIN
#define XRLM_XLSX_FROM_BIN "../libexec/xrlm"
#endif
#ifndef XRLM_XLSX_INSTALLED
#define XRLM_XLSX_INSTALLED "/usr/local/libexec/xrlm/xrlm-xlsx"
#endif

/* Whether "@p dir/@p rel/xrlm-xlsx" (@p rel may be empty) can be run; its path into @p buf. */
static bool helper_at(char *buf, size_t size, const char *dir, size_t dir_len, const char *rel)
{
	int n = snprintf(buf, size, "%.*s/%s%sxrlm-xlsx", (int)dir_len, dir, rel, *rel ? "/" : "");

	return n > 0 && (size_t)n < size && access(buf, X_OK) == 0;
}

/*
 * xrlm-xlsx's path into @p buf: next to this executable (a build tree), in
 * the installed layout relative to it (an installed tree, wherever it was
 * moved), else where it was installed. Returns 0, or -1 when it is in none.
 */
static int find_helper(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash = n > 0 ? memrchr(self, '/', (size_t)n) : NULL;

	if (slash) {
		size_t dir_len = (size_t)(slash - self);
		if (helper_at(buf, size, self, dir_len, "") ||
		    helper_at(buf, size, self, dir_len, XRLM_XLSX_FROM_BIN))
			return 0;
	}
	if (snprintf(buf, size, "%s", XRLM_XLSX_INSTALLED) >= (int)size || access(buf, X_OK) != 0)
		return -1;
	return 0;
}

static int run_xlsx(int argc, char **argv)
{
	char helper[PATH_MAX], q[QUOTE_PATH_MAX];
	char **args = calloc((size_t)argc + 2, sizeof(*args));

	if (!args) {
		cmd_log(NULL, "xlsx: error: out of memory");
		return CMD_EXIT_INPUT;
	}
	if (find_helper(helper, sizeof(helper)) != 0) {
		fprintf(stderr, "xrlm: xlsx: error: cannot find xrlm-xlsx next to xrlm or at %s\n",
		        XRLM_XLSX_INSTALLED);
		free(args);
		return CMD_EXIT_INPUT;
	}
	args[0] = "xrlm-xlsx";
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	fflush(NULL);
	execv(helper, args);
	int err = errno;
	fprintf(stderr, "xrlm: xlsx: error: cannot run %s: %s\n", quote_path(q, helper),
	        strerror(err));
	free(args);
	return CMD_EXIT_INPUT;
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
