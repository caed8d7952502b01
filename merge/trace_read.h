/*
 * `xrlm trace`'s streaming readers of a session's frames and GPU files
 * (calls files are calls_read.h's): each row goes to a callback as it is
 * read, so that memory stays bounded whatever the session's length. A
 * frames file (frames-<tag>-<side>.csv) gives its xrEndFrame calls,
 * numbered 1, 2, ... as frame ids, and the user's marks among its rows; a
 * GPU file its timestamps, placed on CLOCK_MONOTONIC through the latest
 * "# calibration" line before them, the GPU clock unwrapped row by row
 * when it is narrower than 64 bits (`# gpu_valid_bits=`), each with the
 * GPU bracket measured above it (side_gpu_bracket_line()).
 */
#ifndef XRLM_TRACE_READ_H
#define XRLM_TRACE_READ_H

#include "side_file.h"

#include <stdbool.h>
#include <stdint.h>

/* One recorded call (a frames file's row, or a calls file's). */
struct trace_call {
	const char *fn;       /* the function's name; valid during the callback */
	uint64_t thread_id;
	int64_t t_entry;      /* CLOCK_MONOTONIC ns */
	int64_t t_exit;
	int64_t frame_id;
	int64_t display_time; /* frames files; 0 from a calls file */
	int64_t result;       /* the XrResult; 0 from a frames file */
};

/* Longest mark text kept (the control socket's limit is 256 bytes). */
#define TRACE_MARK_MAX 512

/* One GPU timestamp. */
struct trace_gpu {
	int64_t display_time;
	uint64_t ticks;
	unsigned valid_bits; /* the file's tick width (side_meta_gpu_bits()) */
	double period_ns;
	bool valid;
	bool placed; /* t_ns holds its CLOCK_MONOTONIC time (a calibration came before it) */
	int64_t t_ns;
	double bracket_ns; /* the last `# gpu_bracket_ns=` above it (pre's file); NAN: none yet */
};

typedef int (*trace_call_fn)(void *ctx, const struct trace_call *c, char *msg, size_t msg_size);
typedef int (*trace_gpu_fn)(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size);
/* A user's mark ("# mark t=<ns> text=<escaped>" among the rows), its text unescaped. */
typedef void (*trace_mark_fn)(void *ctx, int64_t t_ns, const char *text);

/*
 * Streams the frames file @p path of side @p side: its rows into @p fn and
 * its marks into @p mark (either may be NULL). @p meta gets the file's
 * metadata, @p diag its messages (both zeroed first: one may serve each
 * file in turn). Returns 0, or -1 with @p diag->error set (@p fn's own
 * errors included).
 */
int trace_read_frames(const char *path, const char *side, struct side_meta *meta,
                      struct csvr_diag *diag, trace_call_fn fn, trace_mark_fn mark, void *ctx);

/* Streams the GPU file @p path into @p fn; as trace_read_calls(). */
int trace_read_gpu(const char *path, const char *side, struct side_meta *meta,
                   struct csvr_diag *diag, trace_gpu_fn fn, void *ctx);

#endif /* XRLM_TRACE_READ_H */
