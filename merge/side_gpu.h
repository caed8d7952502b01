/*
 * Reading a per-side GPU file, gpu-<tag>-<side>.csv
 * (display_time,gpu_ticks,gpu_period_ns,valid; README "Files").
 */
#ifndef XRLM_SIDE_GPU_H
#define XRLM_SIDE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "side_file.h"

/* One GPU timestamp. 32 bytes. */
struct side_gpu_row {
	int64_t display_time;
	uint64_t ticks;
	double period_ns; /* 0 when the row is not valid (valid=0) */
	double bracket_ns; /* the last `# gpu_bracket_ns=` above the row (pre); NAN: none yet */
};

/* A per-side GPU file. Owns rows; release with side_gpu_destroy(). */
struct side_gpu_file {
	struct side_meta meta;
	struct csvr_diag diag;
	struct side_gpu_row *rows;
	size_t count;
	size_t cap;
	double bracket_ns; /* while reading: the last `# gpu_bracket_ns=` seen; NAN: none */
};

/* The GPU file's columns for csvr; see side_cpu_format. */
extern const struct csvr_format side_gpu_format;

/*
 * Checks a row's gpu_period_ns (any row, valid or not): 0 to below 1e6 ns
 * a tick (Vulkan's timestampPeriod, 1 for OpenGL; a negative or huge
 * period is a corrupt file, not a value to leave blank). Returns 0, or -1
 * with a message. The merge's and the trace's GPU readers share it.
 */
int side_gpu_check_period(double period_ns, char *msg, size_t msg_size);

/*
 * A `# gpu_bracket_ns=<ns>` line (its text after "# "): pre's bracket,
 * measured around an empty submission, for the rows below it (README "GPU
 * cost"). Returns 1 with *@p bracket_ns set, 0 when @p text is another
 * line, -1 with a message when its value is not 0 to 1e9 ns. The merge's
 * and the trace's GPU readers share it.
 */
int side_gpu_bracket_line(const char *text, double *bracket_ns, char *msg, size_t msg_size);

/* As side_cpu_read(), for a GPU file. */
int side_gpu_read(const char *path, const char *expected_side, struct side_gpu_file *out);

/*
 * Opens @p path for reading a chunk at a time (see side_file.h): @p out
 * (zeroed first) gets the metadata now and each side_file_stream_step()'s
 * rows in out->rows. Returns 0, or -1 with out->diag.error set.
 */
int side_gpu_stream_open(const char *path, const char *expected_side, struct side_gpu_file *out,
                       struct side_stream *stream);

/* Frees the rows of @p f; leaves it empty. */
void side_gpu_destroy(struct side_gpu_file *f);

#endif /* XRLM_SIDE_GPU_H */
