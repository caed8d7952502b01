/*
 * One `xrlm trace` conversion: the session's files, the window, and the
 * state its passes share (cmd_trace.c finds the files and writes the
 * document; trace_cpu.c and trace_gpu.c stream the rows into it).
 */
#ifndef XRLM_TRACE_JOB_H
#define XRLM_TRACE_JOB_H

#include "merge.h"
#include "trace_out.h"
#include "trace_read.h"
#include "trace_target.h"
#include "u_names.h"

/* A window bound: seconds from the session's first call, or a frame id ("f<N>"). */
struct trace_bound {
	bool set, frame;
	double seconds;
	int64_t frame_id;
};

struct trace_job {
	char tag[U_NAMES_TAG_MAX];
	char dir[MERGE_PATH_MAX];
	bool calls;                  /* calls files (else frames files) */
	char cpu[2][MERGE_PATH_MAX]; /* [0] pre, [1] post: calls or frames files */
	char gpu[2][MERGE_PATH_MAX]; /* "" when absent */
	char frames_pre[MERGE_PATH_MAX]; /* pre's frames file (its "# mark" lines), "" when absent */
	struct trace_bound from, to;
	int64_t from_ns, to_ns;
	char layer[2][SIDE_TEXT_MAX]; /* the sides' layer names, from their files */
	char target_layer[SIDE_TEXT_MAX];
	struct trace_out out;
	struct trace_spool spool;
	struct trace_target target;
	struct trace_spool_rec gpu_next;
	bool gpu_has_next;
	/* GPU files, per side ([0] pre, [1] post): valid rows read, and of them those placed. */
	uint64_t gpu_valid[2], gpu_placed[2];
	uint64_t slices, target_slices, marks; /* written: those in the window */
	int64_t first_ns; /* window resolution: the session's first call */
	bool have_first;
	/* The span of pre's calls, from the window pass (when a bound is given). */
	int64_t last_ns;
	int64_t first_frame_id, last_frame_id;
	/* The first file read, whose session every other file must share. */
	char ref_path[MERGE_PATH_MAX];
	char ref_session[SIDE_TEXT_MAX];
};

/* Prints a reader's warnings, or its error (returning -1). */
int trace_report_read(int rc, const struct csvr_diag *d);

/*
 * Ends the read of @p path (status @p rc): says its warnings or error, checks
 * that it is of the session of the first file read (merge_check.h), and
 * frees @p meta. 0, or -1 with the error said.
 */
int trace_read_done(struct trace_job *j, int rc, const struct csvr_diag *d, const char *path,
                    struct side_meta *meta);

/* Turns the window's bounds into times (a pass over pre's file when needed). 0 or -1. */
int trace_cpu_window(struct trace_job *j);

/*
 * Writes the calls (or frames), the target's slices, the frame markers and
 * marks, then the target_us counter (trace_rows_run()). 0 or -1.
 */
int trace_cpu_run(struct trace_job *j);

/*
 * Writes the target_us counter: a sample per row of the session's merged
 * file, at its xrEndFrame's entry, holding the row's target_us (the
 * merge's join of the frames files; none without them). 0 or -1.
 */
int trace_rows_run(struct trace_job *j);

/* Writes the GPU timestamps and the target's GPU slices. 0 or -1. */
int trace_gpu_run(struct trace_job *j);

#endif /* XRLM_TRACE_JOB_H */
