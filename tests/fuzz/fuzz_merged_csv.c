/*
 * Fuzz entry point: what `xrlm stats` does with a merged CSV: read it back
 * (merged_read), summarise the columns and print the table (to /dev/null).
 */
#include <stdio.h>

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
	struct merge_summary s = {0};

	if (!in.path[0])
		fuzz_file_init(&in, "merged.csv");
	if (!sink && !(sink = fopen("/dev/null", "w")))
		fuzz_fail("cannot open /dev/null");
	fuzz_file_set(&in, data, size);
	int ret = merged_read(in.path, &c, &diag);
	fuzz_check_diag(&diag, ret);
	if (ret != 0)
		return 0;
	columns_summarize(&c, &s);
	columns_destroy(&c);
	table_print(sink, &s);
	return 0;
}
