/*
 * Fuzz entry point: the per-side CPU CSV parser (side_cpu_read), fed one
 * whole file per input, expecting side=pre.
 */
#include <string.h>

#include "side_cpu.h"
#include "side_gpu.h"
#include "fuzz_check.h"
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	struct side_cpu_file f;

	if (!in.path[0])
		fuzz_file_init(&in, "pre.csv");
	fuzz_file_set(&in, data, size);
	int ret = side_cpu_read(in.path, "pre", &f);
	fuzz_check_diag(&f.diag, ret);
	if (ret == 0 && f.count > f.cap)
		fuzz_fail("more rows than room");
	side_cpu_destroy(&f);
	return 0;
}
