/*
 * Fuzz entry point: the per-side GPU CSV parser (side_gpu_read), fed one
 * whole file per input, expecting side=post.
 */
#include <math.h>

#include "side_cpu.h"
#include "side_gpu.h"
#include "fuzz_check.h"
#include "fuzz_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file in;
	struct side_gpu_file f;

	if (!in.path[0])
		fuzz_file_init(&in, "gpu-post.csv");
	fuzz_file_set(&in, data, size);
	int ret = side_gpu_read(in.path, "post", &f);
	fuzz_check_diag(&f.diag, ret);
	/* The join and the trace rely on this: a width u_ticks.h knows, or none. */
	if (ret == 0 && f.meta.gpu_valid_bits > 64)
		fuzz_fail("GPU file accepted with gpu_valid_bits above 64");
	for (size_t i = 0; ret == 0 && i < f.count; i++) {
		/* The join relies on this: invalid rows carry period 0. */
		if (!(f.rows[i].period_ns >= 0) || !isfinite(f.rows[i].period_ns))
			fuzz_fail("GPU row with a negative or non-finite period");
	}
	side_gpu_destroy(&f);
	return 0;
}
