/*
 * Command line of the test app:
 *   xrlm-test-app [--frames N] [--graphics vulkan|vulkan2|egl|headless]
 *                 [--warmup N] [--threads 1|2|new] [--stats]
 *                 [--cycles N] [--toggle-every N] [--exit-without-destroy]
 *                 [--gpu-us N] [--calls full|frame] [--vk-1.0]
 *                 [--gl-uncurrent-every N] [--fork-at N] [--fork-destroy]
 *                 [--keep-session] [--pipeline] [--frame-log FILE]
 */
#ifndef APP_ARGS_H
#define APP_ARGS_H

#include <stdbool.h>
#include <stdint.h>

enum app_graphics {
	APP_GRAPHICS_HEADLESS, /* XR_MND_headless: no graphics binding, no GPU work */
	APP_GRAPHICS_VULKAN,   /* XR_KHR_vulkan_enable: extension strings */
	APP_GRAPHICS_VULKAN2,  /* XR_KHR_vulkan_enable2: xrCreateVulkan*KHR (default) */
	APP_GRAPHICS_EGL,      /* XR_KHR_opengl_enable + XR_MNDX_egl_enable: GL on surfaceless EGL */
};

/* Which OpenXR calls each frame makes (see tests/README.md, "Test app"). */
enum app_calls {
	APP_CALLS_FULL,  /* input, tracking and rendering: ~29 calls a frame (default) */
	APP_CALLS_FRAME, /* the frame loop only: wait, begin, (render), end */
};

/* What the user asked for. */
struct app_options {
	uint64_t frames; /* xrEndFrame calls before requesting exit */
	uint64_t warmup; /* first frames left out of the statistics */
	uint32_t threads; /* 1, or 2: frames alternate between two threads */
	bool new_threads; /* --threads new: each iteration on a thread of its own (threads = 1) */
	enum app_graphics graphics;
	bool stats; /* print the summary lines at exit */
	uint32_t cycles;       /* instance create..destroy cycles in this process */
	uint64_t toggle_every; /* raise SIGUSR2 after every N frames; 0 = never */
	bool exit_without_destroy; /* exit() after the loop, destroying nothing */
	bool keep_session;         /* xrDestroyInstance with the session alive */
	uint64_t gpu_us; /* the app's own GPU load per frame (app_load.c); 0 = none */
	enum app_calls calls;
	bool vk_1_0;     /* a Vulkan 1.0 instance (as hello_xr), else 1.1 */
	uint64_t gl_uncurrent_every; /* egl: every Nth xrEndFrame without a current context; 0 = never */
	uint64_t fork_at; /* after frame N, fork a child that calls exit(0); 0 = never */
	bool fork_destroy; /* that child first destroys the session and instance it inherited */
	bool pipeline; /* game thread waits, render thread begins and ends (app_pipeline.c) */
	bool wait_ahead; /* xrWaitFrame(N+1) between xrBeginFrame(N) and xrEndFrame(N), one thread */
	const char *frame_log; /* --frame-log: where each xrEndFrame's times go; NULL = nowhere */
};

enum app_args_result {
	APP_ARGS_OK,
	APP_ARGS_HELP, /* usage printed; exit 0 */
	APP_ARGS_BAD,  /* one error line printed; exit 2 */
};

/* Parses the command line into @p opts. */
enum app_args_result app_args_parse(int argc, char **argv, struct app_options *opts);

/* The name of @p g as on the command line. */
const char *app_graphics_name(enum app_graphics g);

#endif /* APP_ARGS_H */
