/*
 * Live tracing (XRLM_TRACE=lttng): the one facade the layers call, in the
 * spirit of Monado's u_trace_marker.h. Every entry point is an inline test
 * of one pointer; with tracing off nothing else runs, and nothing of LTTng
 * is loaded.
 *
 * Writer thread only. xl_trace_open() loads the provider library
 * (libxrlm_lttng.so, beside the layer's own) there, not on the
 * application's thread: liblttng-ust's constructor waits for a session
 * daemon's registration (LTTNG_UST_REGISTER_TIMEOUT), and that wait must
 * never fall on the host's start. The events are emitted from the records
 * the writer pops from the rings, so the frame thread does nothing more
 * for tracing than for recording; see the README, "Live tracing with LTTng".
 */
#ifndef XL_TRACE_H
#define XL_TRACE_H

#include "xl_gpu.h"
#include "xl_ring.h"
#include "xl_trace_api.h"

#include <stdbool.h>
#include <stdint.h>

/* One side's tracing state. */
struct xl_trace {
	const struct xl_trace_api *api; /* NULL: not tracing */
	struct xl_trace_ident id;
	uint32_t session_id; /* the open session, 0 = none */
	uint32_t ended_id;   /* the session that ended last, 0 = none */
	const char *tag;     /* its tag (the writer's buffer) */
	struct xl_trace_counts counts; /* the open session's */
	uint32_t sessions;   /* sessions traced since xl_trace_open() */
	uint64_t calls;      /* calls traced since xl_trace_open() */
	struct xl_gpu_calibration cal; /* the latest GPU calibration */
	bool cal_valid;
	uint64_t cal_at_ns; /* when it was taken, CLOCK_MONOTONIC */
};

/* Takes one GPU/CPU clock correlation; false when none can be had. */
typedef bool (*xl_trace_calibrate_fn)(void *ctx, struct xl_gpu_calibration *out);

/*
 * Writer thread: when @p lttng, loads the provider and emits xrlm:init for
 * @p id (whose strings must outlive @p t); otherwise leaves @p t off. A
 * provider or LTTng that cannot be loaded is logged once and leaves it off.
 */
void xl_trace_open(struct xl_trace *t, const struct xl_trace_ident *id, bool lttng);

/* Writer thread: emits xrlm:shutdown. The provider stays loaded (see xl_trace.c). */
void xl_trace_close(struct xl_trace *t);

void xl_trace_session_begin_on(struct xl_trace *t, uint32_t session_id, const char *tag);
void xl_trace_session_end_on(struct xl_trace *t, uint64_t dropped, uint64_t gpu_overflow);
void xl_trace_record_on(struct xl_trace *t, const struct xl_call_record *rec);
void xl_trace_gpu_on(struct xl_trace *t, const struct xl_gpu_sample *s,
                     xl_trace_calibrate_fn calibrate, void *ctx);

/* A session's first record: re-emits xrlm:init, then xrlm:session_begin. */
static inline void xl_trace_session_begin(struct xl_trace *t, uint32_t session_id,
                                          const char *tag)
{
	if (t->api)
		xl_trace_session_begin_on(t, session_id, tag);
}

/* The open session has been closed: xrlm:session_end with its counts. */
static inline void xl_trace_session_end(struct xl_trace *t, uint64_t dropped,
                                        uint64_t gpu_overflow)
{
	if (t->api)
		xl_trace_session_end_on(t, dropped, gpu_overflow);
}

/* One record of the open session: xrlm:call, and xrlm:frame_marker for frame functions. */
static inline void xl_trace_record(struct xl_trace *t, const struct xl_call_record *rec)
{
	if (t->api)
		xl_trace_record_on(t, rec);
}

/*
 * One GPU sample of the open session, or of the one that ended last (a
 * frame's timestamps come back after it: the last frames' often once the
 * next session has begun): xrlm:gpu, its time placed on CLOCK_MONOTONIC
 * through @p calibrate (re-taken about once a second). The caller traces
 * only what it writes to a file (or would, without files).
 */
static inline void xl_trace_gpu(struct xl_trace *t, const struct xl_gpu_sample *s,
                                xl_trace_calibrate_fn calibrate, void *ctx)
{
	if (t->api)
		xl_trace_gpu_on(t, s, calibrate, ctx);
}

#endif /* XL_TRACE_H */
