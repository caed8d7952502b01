/*
 * The per-side files of a session (schemas in the README, "Files"):
 * frames-<tag>-<side>.csv, xrEndFrame's CPU brackets, calls-<tag>-<side>.csv,
 * every recorded call's, and gpu-<tag>-<side>.csv, the GPU timestamps.
 *
 * Rows hold only numbers, so they are formatted here directly rather than
 * through libcsv, whose writer quotes every field; every reader of these
 * files (merge/, xrlm) parses them with libcsv.
 */
#ifndef XL_SIDE_CSV_H
#define XL_SIDE_CSV_H

#include "xl_csv_file.h"
#include "xl_gpu.h"
#include "xl_ring.h"

/* Identity written into each per-side file's header. */
struct xl_side_csv_meta {
	const char *side;         /* "pre" or "post" */
	const char *layer;        /* this layer's name */
	const char *target_layer; /* the layer(s) between pre and post */
	/*
	 * Post only (negative: none): two clock reads' duration, measured. A
	 * bracket spans one read's worth of its own two reads (the end of the
	 * first, the start of the second); pre's holds the whole of post's two
	 * while post's own holds one read's worth. So pre − post exceeds the
	 * target's cost by two reads, which the merge subtracts. See README.
	 */
	long long bracket_correction_ns;
	/* The phases all of whose functions are recorded (xl_settings.h):
	 * the calls files' "# phases_recorded=" line. */
	unsigned phases_recorded;
};

/* Creates "frames-<tag>-<side>.csv" and writes its header. 0, or -1 with errno. */
int xl_side_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                     const struct xl_side_csv_meta *meta);

/* Appends one CPU row; false once the file has failed. */
bool xl_side_csv_row(struct xl_csv_file *f, const struct xl_call_record *rec);

/* Creates "calls-<tag>-<side>.csv" and writes its header. 0, or -1 with errno. */
int xl_calls_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                      const struct xl_side_csv_meta *meta);

/* Appends one call's row (any function); false once the file has failed. */
bool xl_calls_csv_row(struct xl_csv_file *f, const struct xl_call_record *rec);

/*
 * Writes the "# session_end" footer of a frames or calls file and closes;
 * false if anything failed.
 */
bool xl_side_csv_close(struct xl_csv_file *f, uint64_t dropped_queue_full);

/*
 * Creates "gpu-<tag>-<side>.csv" and writes its header (@p gpu_clock:
 * "vulkan" or "opengl"; @p valid_bits: the ticks' width, at whose top
 * they wrap, which the readers need to subtract them). 0, or -1 with errno.
 */
int xl_gpu_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                    const struct xl_side_csv_meta *meta, const char *gpu_clock,
                    const char *gpu_mode, unsigned valid_bits);

/* Appends one GPU row (a bracket measurement: its `# gpu_bracket_ns=` line); false once the file has failed. */
bool xl_gpu_csv_row(struct xl_csv_file *f, const struct xl_gpu_sample *s);

/* Appends a "# calibration" comment line (GPU clock vs CLOCK_MONOTONIC). */
bool xl_gpu_csv_calibration(struct xl_csv_file *f, const struct xl_gpu_calibration *c);

/* Writes the GPU file's "# session_end" footer and closes. */
bool xl_gpu_csv_close(struct xl_csv_file *f, uint64_t gpu_ring_overflow);

#endif /* XL_SIDE_CSV_H */
