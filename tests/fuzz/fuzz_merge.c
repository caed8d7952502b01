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
static const char *const names[PARTS] = {"pre.csv", "post.csv", "calls-pre.csv", "calls-post.csv"};

/* functions_read_fn: adds up the calls column. */
static int add_calls(void *ctx, const union csvr_value *values, uint32_t present, char *msg,
                     size_t msg_size)
{
	(void)present;
	(void)msg;
	(void)msg_size;
	*(uint64_t *)ctx += values[FUNCTIONS_COL_CALLS].u;
	return 0;
}

/* Parts 3 and 4: the calls files; the functions file goes to @p functions. */
static void set_optional_paths(struct merge_paths *p, const struct fuzz_file *in, int parts,
                               char *functions, size_t functions_size)
{
	fuzz_tmp_path(functions, functions_size, "functions.csv");
	p->calls_pre_csv = parts > 2 ? in[2].path : NULL;
	p->calls_post_csv = parts > 3 ? in[3].path : NULL;
	p->functions_csv = functions;
}

/*
 * After a merge that returned @p ret: a good one's functions file reads
 * back, with every one of pre's calls counted once. Removes the file.
 */
static void check_optional_files(int ret, int parts, const char *functions,
                                 const struct merge_summary *s)
{
	struct csvr_diag diag;
	uint64_t calls = 0;

	if (ret == 0 && parts == PARTS) {
		if (functions_read_each(functions, FUNCTIONS_FRAMES_UNKNOWN, add_calls, &calls,
		                        &diag) != 0) {
			fuzz_check_line(diag.error);
			fuzz_fail("the functions file cannot be read back");
		}
		if (diag.warning_count)
			fuzz_fail("the functions file reads back with warnings");
		if (calls != s->calls_pre)
			fuzz_fail("the functions file does not count each of pre's calls once");
	}
	unlink(functions);
}
#else
static const char *const names[PARTS] = {"pre.csv", "post.csv", "gpu-pre.csv", "gpu-post.csv"};

/* Parts 3 and 4: the GPU files. */
static void set_optional_paths(struct merge_paths *p, const struct fuzz_file *in, int parts,
                               char *functions, size_t functions_size)
{
	(void)functions;
	(void)functions_size;
	p->gpu_pre_csv = parts > 2 ? in[2].path : NULL;
	p->gpu_post_csv = parts > 3 ? in[3].path : NULL;
}

/* Nothing besides the merged file. */
static void check_optional_files(int ret, int parts, const char *functions,
                                 const struct merge_summary *s)
{
	(void)ret;
	(void)parts;
	(void)functions;
	(void)s;
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
	char functions[FUZZ_PATH_MAX];
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

	struct merge_paths paths = {.pre_csv = in[0].path, .post_csv = in[1].path};

	set_optional_paths(&paths, in, parts, functions, sizeof(functions));
	struct merge_summary s;
	int errors = 0;

	fuzz_tmp_path(out, sizeof(out), "merged.csv");
	int ret = merge_files(&paths, out, &s, log_check, &errors);
	if ((ret != 0) != (errors == 1))
		fuzz_fail("a failed merge must log exactly one error, a good one none");
	if (ret == 0)
		check_read_back(out, &s);
	unlink(out);
	check_optional_files(ret, parts, functions, &s);
	if (fuzz_tmp_count() != 0)
		fuzz_fail("the merge left a file behind");
	return 0;
}
