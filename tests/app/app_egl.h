/*
 * The test app's OpenGL on EGL (--graphics egl, XR_MNDX_egl_enable): a GL
 * context on Mesa's surfaceless platform (no window system, no X), current
 * on the frame thread for the whole session, and a framebuffer that clears
 * one swapchain texture layer per eye each frame. The GL state the app can
 * see is checked across every xrEndFrame (app_gl_state.h).
 */
#ifndef APP_EGL_H
#define APP_EGL_H

#include "app_gl_state.h"

#include <EGL/egl.h>
#include <openxr/openxr.h>

#include <stdbool.h>
#include <stdint.h>

struct app_egl {
	EGLDisplay display;
	EGLConfig config;
	EGLContext context;
	uint32_t framebuffer;
	struct app_gl_check check; /* the GL state across xrEndFrame */
};

/*
 * Creates a GL >= 3.2 context on a surfaceless EGL display and makes it
 * current, after asking @p xr for its GL requirements (the runtime checks
 * that they were asked). On failure prints why; @p egl is then safe for
 * app_egl_destroy().
 */
bool app_egl_create(struct app_egl *egl, XrInstance xr, XrSystemId system);

/* Releases the context and the display (safe on a partly created one). */
void app_egl_destroy(struct app_egl *egl);

/* The XrGraphicsBindingEGLMNDX for xrCreateSession, as @p out's base (it must outlive the call). */
void app_egl_binding(const struct app_egl *egl, void *out);

/*
 * Just before xrEndFrame: saves the GL state into @p saved and, with
 * @p release, leaves no context current for the call (an application bug
 * that the layers must survive: --gl-uncurrent-every).
 */
bool app_egl_before_end_frame(struct app_egl *egl, bool release, struct app_gl_state *saved);

/*
 * Just after xrEndFrame: makes the context current again if @p released,
 * then checks that the GL state is still @p saved (printed if not).
 */
bool app_egl_after_end_frame(struct app_egl *egl, bool released, const struct app_gl_state *saved);

/* Clears layers 0 .. @p layers - 1 of GL texture @p texture (one per eye), colour from @p frame. */
bool app_egl_render(struct app_egl *egl, uint32_t texture, uint32_t layers, uint64_t frame);

#endif /* APP_EGL_H */
