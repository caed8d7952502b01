/*
 * What the per-side files (frames-<tag>-<side>.csv, read by side_cpu.h,
 * and gpu-<tag>-<side>.csv, read by side_gpu.h) share: the `# key=value`
 * metadata before the column header, the `# session_end` footer after the
 * rows, and the growable row arrays.
 */
#ifndef XRLM_SIDE_FILE_H
#define XRLM_SIDE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csvr.h"
#include "u_phase.h"
#include "u_ticks.h"

#define SIDE_TEXT_MAX 256

/* Metadata from a per-side file's comment lines. Empty string = absent. */
struct side_meta {
	char session[SIDE_TEXT_MAX]; /* the recording session's tag */
	char side[16];
	char layer[SIDE_TEXT_MAX];
	char target_layer[SIDE_TEXT_MAX];
	char clock[64];
	char gpu_clock[64];
	char gpu_mode[32];           /* a GPU file's "# gpu_mode=" */
	uint64_t clock_freq;         /* ticks per second; 0 when absent */
	/* A GPU file's "# gpu_valid_bits=" (1..64: its ticks wrap at 2^N);
	 * 0 when absent. Read it with side_meta_gpu_bits(). */
	unsigned gpu_valid_bits;
	/* Post's "# bracket_correction_ns" (see merge.h); has_... false when absent. */
	bool has_bracket_correction;
	uint64_t bracket_correction_ns;
	/* A calls file's "# phases_recorded=" (u_phase.h's set); has_...
	 * false when absent. Read it with side_meta_phases(). */
	bool has_phases_recorded;
	unsigned phases_recorded;
	bool has_session_end;        /* the footer line was present */
	uint64_t dropped_queue_full; /* from the CPU footer */
	uint64_t gpu_ring_overflow;  /* from the GPU footer */
	uint64_t truncated_rows;     /* 0 or 1: a cut-short final row skipped */
	/* The frames a GPU file's "# gate_tripped display_time=<t>" lines name. */
	int64_t *gate_trips;
	size_t gate_trip_count;
	size_t gate_trip_cap;
	/* An older file's "# gpu_gate_tripped=1" line: tripped, frame unknown. */
	bool gate_tripped_unknown_frame;
};

/*
 * Largest time in nanoseconds a CPU row may hold (about 73 years): the
 * merge subtracts times (durations) and then durations (target time), and
 * with both sides below 2^61 neither subtraction can overflow. None is
 * negative: CLOCK_MONOTONIC starts at 0 (at boot).
 */
#define SIDE_TIME_NS_MAX (INT64_C(1) << 61)

/* A row's bracket, in nanoseconds. */
struct side_times {
	int64_t entry_ns;
	int64_t exit_ns;
};

/* side_file_row_times() for a row other than the usual one (below). */
int side_file_row_times_other(const struct side_meta *meta, int64_t t_entry, int64_t t_exit,
                              struct side_times *out, char *msg, size_t msg_size);

/*
 * The one check of a row's t_entry and t_exit, for every reader of them
 * (frames and calls files, `xrlm merge` and `xrlm trace`): @p t_entry and
 * @p t_exit are in ticks of the file's clock (@p meta->clock_freq per
 * second; 0: ns), converted into @p out exactly for the usual 1 GHz clock.
 * Both must lie within [0, SIDE_TIME_NS_MAX), and t_exit must not be before
 * t_entry (a monotonic clock does not run back within one call). Returns
 * 0, or -1 with the reason in @p msg.
 * Inline for the usual row (nanoseconds already, in range and in order):
 * every row of every file comes through here.
 */
static inline int side_file_row_times(const struct side_meta *meta, int64_t t_entry,
                                      int64_t t_exit, struct side_times *out, char *msg,
                                      size_t msg_size)
{
	if ((meta->clock_freq == 0 || meta->clock_freq == 1000000000u) && t_entry >= 0 &&
	    t_exit < SIDE_TIME_NS_MAX && t_exit >= t_entry) {
		out->entry_ns = t_entry;
		out->exit_ns = t_exit;
		return 0;
	}
	return side_file_row_times_other(meta, t_entry, t_exit, out, msg, msg_size);
}

/*
 * The width of a GPU file's ticks, for u_ticks.h: its `# gpu_valid_bits=`,
 * or 64 for a file without the line (written before the layers said it:
 * read as it always was).
 */
static inline unsigned side_meta_gpu_bits(const struct side_meta *meta)
{
	return meta->gpu_valid_bits ? meta->gpu_valid_bits : U_TICKS_BITS_MAX;
}

/*
 * The phases a calls file records wholly: its `# phases_recorded=`, or
 * every phase for a file without the line (written before the layers
 * said it, when only XRLM_FUNCTIONS could leave functions out).
 */
static inline unsigned side_meta_phases(const struct side_meta *meta)
{
	return meta->has_phases_recorded ? meta->phases_recorded : U_PHASE_ALL;
}

/* Frees what @p m owns (the gate trips). */
void side_meta_destroy(struct side_meta *m);

/*
 * Whether @p mode is a GPU mode a GPU file's "# gpu_mode=" line may name:
 * the modes the layers measure in (gated, sandwich). Any other text is a
 * damaged file's, never shown as a mode.
 */
bool side_file_gpu_mode_known(const char *mode);

/* The context the per-side formats' callbacks get from side_file_read(). */
struct side_reader {
	struct side_meta *meta;
	const char *expected_side; /* NULL: any */
	void *file;                /* the struct side_cpu_file or side_gpu_file */
};

/*
 * Reads the per-side file @p path with @p format (whose comment callback
 * must be side_file_comment()) into @p file: @p meta gets the metadata,
 * @p diag the messages. @p expected_side ("pre" or "post"), if non-NULL,
 * must match a `# side=` line when present. Returns 0, or -1 with
 * @p diag->error set.
 */
int side_file_read(const char *path, const struct csvr_format *format, const char *expected_side,
                   struct side_meta *meta, struct csvr_diag *diag, void *file);

/*
 * A per-side file read a chunk at a time (the streaming merge): each step
 * appends the rows of the next chunk to the file struct's row array, which
 * the caller takes and empties (count = 0) before the next step.
 */
struct side_stream {
	struct side_reader reader;
	struct csvr_stream *csv;
};

/*
 * As side_file_read(), up to the column header: @p meta has the metadata
 * before the rows. Returns 0, or -1 with @p diag->error set; close @p s
 * with side_file_stream_close() either way.
 */
int side_file_stream_open(struct side_stream *s, const char *path, const struct csvr_format *format,
                          const char *expected_side, struct side_meta *meta, struct csvr_diag *diag,
                          void *file);

/* The next chunk's rows (and footers); csvr_stream_step()'s result. */
int side_file_stream_step(struct side_stream *s);

/* Closes the file (NULL stream is fine). */
void side_file_stream_close(struct side_stream *s);

/* The csvr comment callback of the per-side formats (ctx: struct side_reader). */
int side_file_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size);

/*
 * Reserves *@p rows for the rows @p path may hold (from its size), so a
 * large file does not regrow; leaves the array empty when that fails.
 */
void side_file_reserve(const char *path, void **rows, size_t *cap, size_t row_size);

/* As side_file_reserve(), for the rows of one chunk of a stream (at most a chunk's worth). */
void side_file_reserve_chunk(const char *path, void **rows, size_t *cap, size_t row_size);

/* Grows *@p rows to hold at least @p count + 1 rows. Returns 0 or -1 (ENOMEM). */
int side_file_grow(void **rows, size_t *cap, size_t count, size_t row_size);

#endif /* XRLM_SIDE_FILE_H */
