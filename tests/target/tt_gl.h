/*
 * The synthetic target's OpenGL work (XRTEST_TARGET_GL_DRAWS): in every
 * xrEndFrame of a session with an OpenGL binding, N full-target draws of a
 * costly fragment shader into the target's own 64x64 texture, between a
 * GL_TIMESTAMP pair of its own. That pair is the ground truth the monitor's
 * target_gpu_us is checked against (XRTEST_TARGET_GPU_LOG, as for Vulkan).
 *
 * GL objects are created on the first frame (the app's context is current
 * in xrEndFrame); every binding and capability the draws change is saved
 * and restored, so the app sees its GL state as it left it. The timestamps
 * are read back frames later without waiting, except at xrDestroySession.
 * GL entry points come from the app's GL library (glXGetProcAddressARB);
 * the target links no GL.
 */
#ifndef TT_GL_H
#define TT_GL_H

#include "tt_samples.h"

#include <stdbool.h>
#include <stdint.h>

struct tt_gl;

/*
 * Sets up GL work of @p draws draws per frame for the session whose
 * XrGraphicsBindingOpenGLXlibKHR is @p binding; @p log_path (may be NULL)
 * gets the per-frame CSV at destruction. Logs and returns false on failure.
 */
bool tt_gl_create(const void *binding, uint64_t draws, const char *log_path, struct tt_gl **out);

/*
 * xrEndFrame: reads back finished frames, then draws this frame's work
 * between its timestamp pair. False on a failure (logged).
 */
bool tt_gl_frame(struct tt_gl *gl, int64_t display_time);

/* Reads back the last frames, logs the summary, writes the CSV, frees everything. */
void tt_gl_destroy(struct tt_gl **gl);

#endif /* TT_GL_H */
