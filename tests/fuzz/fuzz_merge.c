/*
 * Fuzz entry point: the whole merge (merge_files). One input holds the
 * per-side files one after another, each ended by a line "====":
 *
 *   PRE.csv ==== POST.csv [==== GPU-PRE.csv [==== GPU-POST.csv]]
 *
 * Two parts give a CPU-only merge, three a merge with one GPU file (the
 * warning path), four the full merge. Built as fuzz_merge_calls
 * (FUZZ_MERGE_CALLS), the last two parts are the calls files instead:
 *
 *   PRE.csv ==== POST.csv [==== CALLS-PRE.csv [==== CALLS-POST.csv]]
 *
 * (one calls file alone is ignored, as `xrlm merge` ignores it), which
 * adds the every-function columns and the functions file. The merged file
 * goes to the private temporary directory and is read back as `xrlm
 * stats` reads it: the statistics must be the same (merge/README.md
 * promises it); the functions file must read back too, with each of pre's
 * calls counted once. Nothing may be left in the directory afterwards (no
 * stray temporary file).
 */
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "fuzz_check.h"
#include "fuzz_io.h"
#include "functions_read.h"
#include "merge.h"
#include "merged_read.h"

#define PARTS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void log_check(void *ctx, const char *message)
{
	int *errors = ctx;
	fuzz_check_line(message);
	*errors += strstr(message, ": error: ") != NULL;
}

#ifdef FUZZ_MERGE_CALLS
/* functions_read_fn: adds up the calls column. */
static int add_calls(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
                     size_t msg_size)
{
	(void)msg;
	(void)msg_size;
	if (!(present & (1u << 2)))
		fuzz_fail("a function without its calls");
	*(uint64_t *)ctx += values[2].u;
	return 0;
}

/* Reads the functions file back: every pre call counted once. */
static void check_functions(const char *path, const struct merge_summary *s)
{
	struct csvr_diag diag;
	uint64_t calls = 0;

	if (functions_read_each(path, add_calls, &calls, &diag) != 0) {
		fuzz_check_line(diag.error);
		fuzz_fail("the functions file cannot be read back");
	}
	if (diag.warning_count)
		fuzz_fail("the functions file reads back with warnings");
	if (calls != s->calls_pre)
		fuzz_fail("the functions file does not count each of pre's calls once");
}
#endif

/* Reads the merged file back as `xrlm stats` does; compares statistics. */
static void check_read_back(const char *out, const struct merge_summary *s)
{
	struct csvr_diag diag;
	struct columns c;
	struct merge_summary again = {0};

	if (merged_read(out, &c, &diag) != 0) {
		fuzz_check_line(diag.error);
		fuzz_fail("xrlm stats cannot read what the merge wrote");
	}
	if (diag.warning_count)
		fuzz_fail("xrlm stats warns about what the merge wrote");
	columns_summarize(&c, &again);
	columns_destroy(&c);
	fuzz_check_same_stats(s, &again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in[PARTS];
#ifdef FUZZ_MERGE_CALLS
	static const char *const names[PARTS] = {"pre.csv", "post.csv", "calls-pre.csv",
	                                         "calls-post.csv"};
	char functions[FUZZ_PATH_MAX];
#else
	static const char *const names[PARTS] = {"pre.csv", "post.csv", "gpu-pre.csv", "gpu-post.csv"};
#endif
	char out[FUZZ_PATH_MAX];
	size_t pos = 0;
	int parts = 0;

	for (; parts < PARTS && pos < size; parts++) {
		if (!in[parts].path[0])
			fuzz_file_init(&in[parts], names[parts]);
		size_t next, end = fuzz_part_end(data, size, pos, &next);
		fuzz_file_set(&in[parts], data + pos, end - pos);
		pos = next;
	}
	if (parts < 2)
		return 0;

#ifdef FUZZ_MERGE_CALLS
	fuzz_tmp_path(functions, sizeof(functions), "functions.csv");
	struct merge_paths paths = {
		.pre_csv = in[0].path,
		.post_csv = in[1].path,
		.calls_pre_csv = parts > 2 ? in[2].path : NULL,
		.calls_post_csv = parts > 3 ? in[3].path : NULL,
		.functions_csv = functions,
	};
#else
	struct merge_paths paths = {
		.pre_csv = in[0].path,
		.post_csv = in[1].path,
		.gpu_pre_csv = parts > 2 ? in[2].path : NULL,
		.gpu_post_csv = parts > 3 ? in[3].path : NULL,
	};
#endif
	struct merge_summary s;
	int errors = 0;

	fuzz_tmp_path(out, sizeof(out), "merged.csv");
	int ret = merge_files(&paths, out, &s, log_check, &errors);
	if ((ret != 0) != (errors == 1))
		fuzz_fail("a failed merge must log exactly one error, a good one none");
	if (ret == 0)
		check_read_back(out, &s);
	unlink(out);
#ifdef FUZZ_MERGE_CALLS
	if (ret == 0 && parts == PARTS)
		check_functions(functions, &s);
	unlink(functions);
#endif
	if (fuzz_tmp_count() != 0)
		fuzz_fail("the merge left a file behind");
	return 0;
}
