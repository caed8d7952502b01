/*
 * Fuzz entry point: what `xrlm stats` does with a merged CSV: read it back
 * (merged_read_stats: the rows' statistics and the summary's counts) and
 * print the table (to /dev/null); and merged_read(), the columns alone,
 * which must give the same statistics.
 */
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "fuzz_check.h"
#include "fuzz_io.h"
#include "merged_read.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	static FILE *sink;
	struct csvr_diag diag;
	struct columns c;
	struct merge_summary s, t = {0};

	if (!in.path[0])
		fuzz_file_init(&in, "merged.csv");
	if (!sink && !(sink = fopen("/dev/null", "w")))
		fuzz_fail("cannot open /dev/null");
	fuzz_file_set(&in, data, size);
	int ret = merged_read_stats(in.path, &s, &diag);
	fuzz_check_diag(&diag, ret);
	if (ret != 0)
		return 0;
	table_print(sink, &s);

	if (merged_read(in.path, &c, &diag) != 0)
		fuzz_fail("merged_read failed where merged_read_stats did not");
	columns_summarize(&c, &t);
	columns_destroy(&c);
	if (memcmp(&t.target_cpu_us, &s.target_cpu_us, sizeof(t.target_cpu_us)) != 0 ||
	    memcmp(&t.target_gpu_us, &s.target_gpu_us, sizeof(t.target_gpu_us)) != 0 ||
	    t.frame_count != s.frame_count)
		fuzz_fail("merged_read and merged_read_stats disagree");
	return 0;
}
