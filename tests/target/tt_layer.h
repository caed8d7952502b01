/*
 * Shared state of the synthetic target layer: one record per XrInstance it
 * was created in, one per XrSession, and the hooks that use them.
 */
#ifndef TT_LAYER_H
#define TT_LAYER_H

#include <openxr/openxr.h>

#include "tt_calls.h"
#include "tt_gl.h"
#include "tt_gpu.h"
#include "tt_thread.h"

#define TT_LAYER_NAME "XR_APILAYER_XRLM_test_target"

/* The next layer's (or runtime's) functions for one instance. */
struct tt_instance {
	XrInstance handle;
	PFN_xrGetInstanceProcAddr next_gipa;
	PFN_xrDestroyInstance next_destroy_instance;
	PFN_xrCreateSession next_create_session;
	PFN_xrDestroySession next_destroy_session;
	PFN_xrEndFrame next_end_frame;
	/* Only when a knob asks the target to call the runtime on its own. */
	PFN_xrCreateReferenceSpace next_create_reference_space;
	PFN_xrDestroySpace next_destroy_space;
	PFN_xrVoidFunction next_callee[TT_CALLEE_COUNT];
};

/* What the target does for one session. */
struct tt_session {
	XrSession handle;
	struct tt_instance *instance;
	PFN_xrEndFrame next_end_frame; /* copied: one lookup per frame, not two */
	uint64_t cpu_us;
	uint64_t sleep_us;
	uint64_t toggle_frame; /* XRTEST_TARGET_TOGGLE_FRAME (tt_toggle.h); 0 off */
	bool gpu_wait;
	struct tt_gpu *gpu; /* NULL: no Vulkan binding or no GPU work requested */
	struct tt_gl *gl;   /* NULL: no OpenGL binding or no GL work requested */
	struct tt_call_ctx calls; /* what the target's own calls use; spaces only if asked */
	struct tt_thread *thread; /* XRTEST_TARGET_THREAD_CALLS; NULL without */
};

/* The instance record of @p handle, or NULL. */
struct tt_instance *tt_instance_find(XrInstance handle);

/*
 * True if the knobs ask the target to call the runtime on its own (induced
 * or own-thread calls); then @p out says which functions.
 */
bool tt_session_own_calls(struct tt_calls *out);

/* The time the target's own calls use: the last xrEndFrame's display time,
 * or before any, CLOCK_MONOTONIC now (the test runtime's XrTime). */
XrTime tt_session_time(void);

/* Returns our hook for @p name, or NULL if the target does not intercept it. */
PFN_xrVoidFunction tt_session_hook(const char *name);

/* Destroys the target's state of every session of @p inst (before the
 * application's VkDevice can go away with the instance). */
void tt_session_destroy_all(struct tt_instance *inst);

#endif /* TT_LAYER_H */
