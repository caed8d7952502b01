/*
 * Fuzz entry point: the per-side CPU CSV parser (csvr_read_cpu), fed one
 * whole file per input, expecting side=pre.
 */
#include <string.h>

#include "csv_reader.h"
#include "fuzz_check.h"
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	struct csvr_cpu_file f;

	if (!in.path[0])
		fuzz_file_init(&in, "pre.csv");
	fuzz_file_set(&in, data, size);
	int ret = csvr_read_cpu(in.path, "pre", &f);
	fuzz_check_diag(&f.diag, ret);
	if (ret == 0 && f.count > f.cap)
		fuzz_fail("more rows than room");
	csvr_cpu_file_destroy(&f);
	return 0;
}
