/*
 * GPU timestamps in an OpenGL session's command stream: one side's half of
 * the GPU sandwich for an XrSession with an XrGraphicsBindingOpenGLXlibKHR
 * (XR_KHR_opengl_enable) or an XrGraphicsBindingEGLMNDX (XR_MNDX_egl_enable).
 *
 * GL calls are only valid on the thread where the context is current, which
 * in xrEndFrame is the application's frame thread (the spec requires the
 * context current there; each frame checks it and skips the frame with a
 * counted reason if not). So, unlike the Vulkan path, all GL work happens on
 * the frame thread: each xrEndFrame takes the older queries' results,
 * pushes finished samples into a small single-producer ring, and issues
 * glQueryCounter(GL_TIMESTAMP). The writer thread only drains that ring.
 * The calls are a handful of driver entry points: no lock, no allocation,
 * no I/O, nothing that blocks.
 *
 * The results come through a mapped query buffer where the context has one
 * (GL 4.5, or ARB_direct_state_access + ARB_buffer_storage +
 * ARB_query_buffer_object): a query's result is asked when it is
 * XL_GL_REQUEST_AGE frames old, with glGetQueryBufferObjectui64v
 * (GL_QUERY_RESULT_NO_WAIT: a request never waits for the query; one that
 * ran too early is made again on a later frame) into its cell of a
 * persistently mapped buffer, and read there with a plain load once the
 * cell no longer holds its sentinel. No per-frame GL call returns data or
 * waits, which matters under Mesa's glthread: there every call that
 * returns data waits for the GL thread to run everything the application
 * queued. Otherwise
 * the older queries are polled with GL_QUERY_RESULT_AVAILABLE (never
 * waiting, but a wait for the GL thread under glthread; logged once).
 *
 * The exceptions to "nothing but clock reads and a push" are the first
 * recorded frame of the session: the query objects must be created with the
 * context current, hence on the frame thread. That happens once (support
 * check, glGenQueries, the mapped buffer), and its cost is logged. And the
 * first frame of each recording: a clock correlation, three
 * glGetInteger64v(GL_TIMESTAMP) (under Mesa's glthread each a wait for the
 * GL thread), because the GL clock may drift from CLOCK_MONOTONIC (a GPU
 * counter scaled by its nominal frequency against an NTP-slewed clock: 20
 * ppm is 1.2 ms a minute), so one taken at the session's start could
 * misplace a later recording's GPU timestamps on the CPU timeline by more
 * than a frame; the Vulkan path also
 * correlates per recording (per GPU file). Their count and mean cost are
 * logged at xrDestroySession.
 *
 * The layers do not link libGL or libEGL: for GLX, glXGetProcAddressARB is
 * found with dlsym(RTLD_DEFAULT) in the application's own GL library; for
 * EGL, the binding's own getProcAddress is used (eglGetProcAddress found the
 * same way if the binding leaves it NULL). Every gl* and the current-context
 * query (glXGetCurrentContext / eglGetCurrentContext) come through it. Nothing is looked up for other
 * sessions. Only the binding's context (and EGL's getProcAddress) are used.
 *
 * GL state the application can see is left as it was: timestamp queries are
 * never active, the mapped buffer is made and written through its name
 * (no binding), and the only binding touched, by the glGetQueryObject
 * readback (GL_QUERY_BUFFER, which would redirect query results into a
 * buffer), is restored at once. Not GL state, and not avoidable: under EGL
 * the current-context check (eglGetCurrentContext, each stamped or idle
 * frame and at xrDestroySession) resets the thread's pending EGL error to
 * EGL_SUCCESS.
 */
#ifndef XL_GL_H
#define XL_GL_H

#include "xl_gpu.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define XL_GL_QUERIES 16 /* timestamps in flight per side */
#define XL_GL_DONE 64    /* finished samples waiting for the writer */
/*
 * How many frames old a query is when its result is first asked into the
 * mapped buffer: by then it has finished on any GPU that keeps within a
 * frame or two, so the request, which writes nothing for an unfinished
 * query, rarely has to be made again.
 */
#define XL_GL_REQUEST_AGE (XL_GL_QUERIES / 2)
/*
 * The same on frames after a stop (xl_gl_idle): 8 frames would keep the
 * last results past the writer's wait at a low frame rate; 2 frames old,
 * a query has finished unless the GPU runs two frames behind, and then
 * it is asked again on the next frames.
 */
#define XL_GL_IDLE_AGE 2
/*
 * Frames a result may stay unwritten after its first request before the
 * mapped readback is given up for the session (a reset context, a request
 * the driver dropped, a write that never shows through the mapping, a GPU
 * that many frames behind): the rest read back with glGetQueryObject, and
 * the writer logs why.
 */
#define XL_GL_CELL_PATIENCE (2 * XL_GL_QUERIES)

/* Why a recorded frame got no GL timestamp (counted; logged at the session's end). */
enum xl_gl_skip {
	XL_GL_SKIP_NOT_CURRENT, /* the binding's context was not current in xrEndFrame */
	XL_GL_SKIP_UNSUPPORTED, /* no usable timer queries */
	XL_GL_SKIP_COUNT,
};

/* What the frame thread found at set-up, for the writer to log once. */
enum xl_gl_status {
	XL_GL_STATUS_NEW = 0,    /* no recorded frame yet */
	XL_GL_STATUS_READY,      /* queries created, calibration taken */
	XL_GL_STATUS_UNSUPPORTED,
};

enum xl_gl_stamp_result {
	XL_GL_STAMPED,
	XL_GL_OVERFLOW, /* every query still in flight: the caller counts a gpu_ring_overflow */
	XL_GL_SKIPPED,  /* counted in xl_gl::skipped */
};

struct xl_gl_fns; /* the resolved entry points, in xl_gl.c */

/* One entry of the frame thread → writer ring: a sample or a calibration. */
struct xl_gl_done {
	bool is_calibration;
	struct xl_gpu_sample sample;
	struct xl_gpu_calibration cal;
};

struct xl_gl_query {
	uint32_t name;
	uint32_t session_id;
	uint32_t frame;               /* xl_gl::frame when it was issued */
	uint32_t asked;               /* xl_gl::frame when its result was first asked for */
	int64_t display_time;
	int64_t frame_id;             /* the OpenXR frame's id (xl_call.h) */
};

struct xl_gl {
	XrSession session;
	void *context;                /* the binding's GLXContext or EGLContext */
	const char *window_system;    /* "GLX" or "EGL" */
	struct xl_gl_fns *fn;
	/* Frame thread only. */
	bool ready;                   /* queries created */
	bool query_buffer;            /* GL_QUERY_BUFFER exists and must be stepped around */
	uint8_t valid_bits;           /* GL_QUERY_COUNTER_BITS, 1..64: the timestamps wrap at
	                               * 2^valid_bits ns (Mesa's Intel drivers: 36, 68.7 s);
	                               * set before status turns READY */
	uint32_t buffer;              /* the mapped query buffer; 0: glGetQueryObject readback */
	volatile uint64_t *cells;     /* its mapping: a result cell per query, then a mark
	                               * cell per query (its latest request has run);
	                               * volatile: the driver writes it behind the
	                               * compiler's back */
	uint64_t suspect;             /* a cell value with an all-ones low half, until read twice */
	uint32_t requested;           /* mapped readback: results asked, tail <= requested <= head */
	uint32_t frame;               /* frames that stamped, or read back after a stop: ages */
	uint32_t calibrated_session;  /* the recording session last calibrated */
	struct xl_gl_query queries[XL_GL_QUERIES];
	uint32_t head, tail;          /* issued, read back */
	/* Frame thread → writer. */
	struct xl_gl_done done[XL_GL_DONE];
	atomic_uint done_head;        /* written by the frame thread */
	atomic_uint done_tail;        /* written by the writer */
	atomic_uint in_flight;        /* head - tail, for the writer's drain */
	atomic_int status;            /* enum xl_gl_status */
	char why[160];                /* set before status turns UNSUPPORTED */
	uint64_t setup_ns;            /* the first frame's set-up cost, set before status */
	bool mapped_readback;         /* the buffer was made; set before status */
	atomic_bool cells_stuck;      /* a cell stayed unwritten: glGetQueryObject from then on
	                               * (the frame thread's switch, the writer's log) */
	atomic_uint_fast64_t skipped[XL_GL_SKIP_COUNT];
	atomic_uint_fast64_t done_overflow; /* samples lost: the writer fell behind */
	atomic_uint_fast64_t frames, frame_ns; /* frames stamped and their cost on the frame thread */
	atomic_uint_fast64_t calibrations, calibration_ns; /* clock correlations, their cost
	                                                    * (within frame_ns) */
	/* Writer thread only. */
	int status_logged;
	bool stuck_logged;
	struct xl_gpu_calibration cal; /* the latest calibration drained */
	bool has_cal;
};

/*
 * The OpenGL binding in @p info's chain, or NULL: an XrGraphicsBindingOpenGLXlibKHR
 * or an XrGraphicsBindingEGLMNDX (returned as its base header).
 */
const XrBaseInStructure *xl_gl_find_binding(const XrSessionCreateInfo *info);

/*
 * Sets up the timestamps of @p session for @p binding (from
 * xl_gl_find_binding): resolves the GL entry points in the application's GL
 * library; creates no GL object yet. On failure returns NULL after writing
 * a reason into @p why.
 */
struct xl_gl *xl_gl_create(XrSession session, const XrBaseInStructure *binding, char *why,
                           size_t why_size);

/*
 * Frame thread, inside xrEndFrame: reads back the older frames' finished
 * timestamps, then issues this frame's (@p display_time, @p frame_id,
 * handed back with its sample); @p post: this is post's stamp,
 * which asks for older results after its timestamp instead of before it
 * (those requests are GPU work, kept out of the target's interval) and
 * is followed by glFlush.
 *
 * Post flushes: a timestamp is only written once the driver submits it, and
 * without a flush the driver may hold it back until the application's next
 * frame, counting the wait as the target's GPU time (the runtime below
 * flushes at this point anyway). Pre does not: its timestamp then reaches
 * the GPU together with the target's work, with no idle gap between them.
 */
enum xl_gl_stamp_result xl_gl_stamp(struct xl_gl *gl, int64_t display_time, int64_t frame_id,
                                    uint32_t session_id, bool post);

/*
 * Frame thread, inside an xrEndFrame that is not recorded (the recording
 * stopped) while timestamps are in flight: the frame counts towards their
 * age, results that came of age are asked for and finished ones read back,
 * as xl_gl_stamp does, so that the last recorded frames get their GPU
 * values (the writer waits for them as the session closes). Nothing when
 * the binding's context is not current. Returns whether any timestamp is
 * still in flight.
 */
bool xl_gl_idle(struct xl_gl *gl);

/*
 * xrDestroySession, before the chain below: with the context current on the
 * calling thread, reads back the last timestamps (asking the results not
 * yet asked, and again those not finished, polling up to @p timeout_ns for
 * the GPU: no driver wait) and deletes the
 * queries and the mapped buffer; otherwise leaves them to the context
 * (they go with it), logged. Then waits up to
 * @p timeout_ns for the writer to drain the ring.
 */
void xl_gl_finish(struct xl_gl *gl, uint64_t timeout_ns);

/* Frees the host memory (after xl_gl_finish, or with the instance gone). */
void xl_gl_destroy(struct xl_gl *gl);

/*
 * Writer thread: hands each finished sample of a session up to
 * @p max_session, in order, to @p emit (a calibration first updates
 * xl_gl::cal). Returns true while timestamps of such sessions are still in
 * flight. Logs the set-up result once.
 */
bool xl_gl_collect(struct xl_gl *gl, uint32_t max_session,
                   void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx);

/* Writer thread: timestamps issued and not yet read back on the frame thread. */
unsigned xl_gl_pending(struct xl_gl *gl);

/*
 * Writer thread: the width of the session's GL timestamps (GL_QUERY_COUNTER_BITS,
 * as the GPU file's `# gpu_valid_bits=`); U_TICKS_BITS_MAX before the first
 * recorded frame read it, or without timer queries.
 */
unsigned xl_gl_valid_bits(const struct xl_gl *gl);

/* Writer thread: the latest GL/CLOCK_MONOTONIC correlation drained; false if none. */
bool xl_gl_calibration(const struct xl_gl *gl, struct xl_gpu_calibration *out);

#endif /* XL_GL_H */
