/*
 * Fuzz entry point: the whole merge (merge_files). One input holds the
 * per-side files one after another, each ended by a line "====":
 *
 *   PRE.csv ==== POST.csv [==== GPU-PRE.csv [==== GPU-POST.csv]]
 *
 * Two parts give a CPU-only merge, three a merge with one GPU file (the
 * warning path), four the full merge. The merged file goes to the private
 * temporary directory and is read back as `xrlm stats` reads it: the
 * statistics must be the same (merge/README.md promises it). Nothing may be
 * left in the directory afterwards (no stray temporary file).
 */
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "fuzz_check.h"
#include "fuzz_io.h"
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
	static const char *const names[PARTS] = {"pre.csv", "post.csv", "gpu-pre.csv", "gpu-post.csv"};
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

	struct merge_paths paths = {
		.pre_csv = in[0].path,
		.post_csv = in[1].path,
		.gpu_pre_csv = parts > 2 ? in[2].path : NULL,
		.gpu_post_csv = parts > 3 ? in[3].path : NULL,
	};
	struct merge_summary s;
	int errors = 0;

	fuzz_tmp_path(out, sizeof(out), "merged.csv");
	int ret = merge_files(&paths, out, &s, log_check, &errors);
	if ((ret != 0) != (errors == 1))
		fuzz_fail("a failed merge must log exactly one error, a good one none");
	if (ret == 0)
		check_read_back(out, &s);
	unlink(out);
	if (fuzz_tmp_count() != 0)
		fuzz_fail("the merge left a file behind");
	return 0;
}
