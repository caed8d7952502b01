/*
 * The test app's state: one OpenXR instance, system, session, reference
 * space and (with Vulkan) device, swapchain and GPU frame ring, or (with
 * EGL) a GL context and swapchain.
 */
#ifndef APP_H
#define APP_H

#include "app_args.h"
#include "app_egl.h"
#include "app_gpu.h"
#include "app_input.h"
#include "app_stats.h"
#include "app_swapchain.h"
#include "app_vk.h"

#include <pthread.h>

struct app {
	struct app_options opts;

	XrInstance instance;
	XrSystemId system;
	XrSession session;
	XrSpace space; /* LOCAL: where everything is located and composed */
	XrEnvironmentBlendMode blend_mode;
	struct app_input input; /* --calls full only */

	bool has_vk; /* vulkan or vulkan2: a device, a swapchain, GPU work */
	struct app_vk vk;
	bool has_gl; /* egl: a GL context, a swapchain, no GPU bracket */
	struct app_egl egl;
	struct app_swapchain swapchain;
	struct app_gpu gpu;
	struct gw_work *load; /* --gpu-us: app_load.c; NULL without */

	/* Session state machine (xrPollEvent). */
	XrSessionState state;
	bool running;        /* between xrBeginSession and xrEndSession */
	bool exit_requested; /* xrRequestExitSession called */
	bool quit;           /* leave the loop */
	bool failed;         /* some call failed: exit 1 */

	uint64_t frames_done; /* xrEndFrame calls so far */
	/* --wait-ahead: the next frame, waited for before this one ended. */
	bool ahead;
	XrFrameState ahead_fs;
	struct app_stats stats;
	/* --pipeline: the game-to-render handoff, drained before xrEndSession. */
	struct app_pipe *pipe;
	/*
	 * --frame-log: the first opts.frames xrEndFrame calls, filled by the
	 * thread that ends frames (one at a time), written after the loop.
	 */
	struct app_frame_time *frame_log;
	uint64_t frame_log_len;
};

/* One xrEndFrame of --frame-log: its display time and the app's clock around it. */
struct app_frame_time {
	int64_t display_time;
	uint64_t end_entry_ns, end_exit_ns;
};

/* One frame handed from the game thread to the render thread (--pipeline). */
struct app_frame_plan {
	uint64_t frame;  /* the game thread's count of frames waited, from 0 */
	XrFrameState fs; /* what its xrWaitFrame returned */
	bool rendering;  /* a swapchain and shouldRender: views located, to render */
	XrView views[2];
};

/* Creates instance, system, Vulkan or EGL (if asked), session, space, swapchain. */
bool app_xr_create(struct app *app);

/* Destroys everything app_xr_create() made, in reverse order. False if a call failed. */
bool app_xr_destroy(struct app *app);

/* Handles all queued events (state changes: begin, end, quit). */
bool app_poll_events(struct app *app);

/* Runs one frame: wait, begin, render, the measured xrEndFrame. */
bool app_frame(struct app *app);

/*
 * The game thread's half of frame @p frame (--pipeline): xrWaitFrame, then
 * with --calls full the input and the spaces, and the views when needed.
 */
bool app_frame_game(struct app *app, uint64_t frame, struct app_frame_plan *plan);

/* The render thread's half: xrBeginFrame, render (if planned), xrEndFrame. */
bool app_frame_render(struct app *app, const struct app_frame_plan *plan);

/*
 * --pipeline: runs the event loop and the game halves on this thread and
 * the render halves on a thread of its own, until the session exits.
 */
bool app_pipeline_run(struct app *app);

/* Waits until the render thread has ended every frame handed to it. False if it failed. */
bool app_pipeline_drain(struct app_pipe *pipe);

/*
 * Runs the event/frame loop on opts.threads threads (or, opts.new_threads,
 * on a new thread each iteration) until the session exits.
 */
bool app_loop_run(struct app *app);

#endif /* APP_H */
