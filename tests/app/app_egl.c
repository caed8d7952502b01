/*
 * The test app's OpenGL on EGL; see app_egl.h.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#define XR_USE_PLATFORM_EGL
#define XR_USE_GRAPHICS_API_OPENGL
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include "app_egl.h"

#include "app_check.h"

#include <string.h>

/* Entry points past GL 1.x: through eglGetProcAddress, resolved once per context. */
static PFNGLGENFRAMEBUFFERSPROC gen_framebuffers;
static PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers;
static PFNGLBINDFRAMEBUFFERPROC bind_framebuffer;
static PFNGLFRAMEBUFFERTEXTURELAYERPROC framebuffer_texture_layer;

static bool ask_requirements(XrInstance xr, XrSystemId system)
{
	PFN_xrGetOpenGLGraphicsRequirementsKHR get = NULL;
	if (!APP_XR(xrGetInstanceProcAddr(xr, "xrGetOpenGLGraphicsRequirementsKHR",
	                                  (PFN_xrVoidFunction *)&get)))
		return false;
	XrGraphicsRequirementsOpenGLKHR req = {.type = XR_TYPE_GRAPHICS_REQUIREMENTS_OPENGL_KHR};
	return APP_XR(get(xr, system, &req));
}

/* Mesa's surfaceless platform: GL without any window system. */
static bool open_display(struct app_egl *egl)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display) {
		app_error("EGL: eglGetPlatformDisplayEXT is missing");
		return false;
	}
	egl->display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major = 0, minor = 0;
	if (egl->display == EGL_NO_DISPLAY || !eglInitialize(egl->display, &major, &minor)) {
		app_error("EGL: no surfaceless display (error 0x%x)", eglGetError());
		egl->display = EGL_NO_DISPLAY;
		return false;
	}
	return true;
}

static bool create_context(struct app_egl *egl)
{
	static const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
	                                        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
	static const EGLint context_attribs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
	EGLint n = 0;
	if (!eglBindAPI(EGL_OPENGL_API) ||
	    !eglChooseConfig(egl->display, config_attribs, &egl->config, 1, &n) || n < 1) {
		app_error("EGL: no OpenGL config (error 0x%x)", eglGetError());
		return false;
	}
	egl->context = eglCreateContext(egl->display, egl->config, EGL_NO_CONTEXT, context_attribs);
	if (egl->context == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
		app_error("EGL: no current GL 3.2 context (error 0x%x)", eglGetError());
		return false;
	}
	return true;
}

static bool resolve(void)
{
	gen_framebuffers = (PFNGLGENFRAMEBUFFERSPROC)eglGetProcAddress("glGenFramebuffers");
	delete_framebuffers = (PFNGLDELETEFRAMEBUFFERSPROC)eglGetProcAddress("glDeleteFramebuffers");
	bind_framebuffer = (PFNGLBINDFRAMEBUFFERPROC)eglGetProcAddress("glBindFramebuffer");
	framebuffer_texture_layer =
		(PFNGLFRAMEBUFFERTEXTURELAYERPROC)eglGetProcAddress("glFramebufferTextureLayer");
	if (gen_framebuffers && delete_framebuffers && bind_framebuffer && framebuffer_texture_layer)
		return true;
	app_error("EGL: the GL context lacks framebuffer objects");
	return false;
}

bool app_egl_create(struct app_egl *egl, XrInstance xr, XrSystemId system)
{
	*egl = (struct app_egl){.display = EGL_NO_DISPLAY, .context = EGL_NO_CONTEXT};
	if (!ask_requirements(xr, system) || !open_display(egl) || !create_context(egl) ||
	    !resolve())
		return false;
	gen_framebuffers(1, &egl->framebuffer);
	return app_gl_check_create(&egl->check);
}

void app_egl_destroy(struct app_egl *egl)
{
	app_gl_check_destroy(&egl->check);
	if (egl->framebuffer)
		delete_framebuffers(1, &egl->framebuffer);
	if (egl->context != EGL_NO_CONTEXT) {
		eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglDestroyContext(egl->display, egl->context);
	}
	if (egl->display != EGL_NO_DISPLAY)
		eglTerminate(egl->display);
	*egl = (struct app_egl){.display = EGL_NO_DISPLAY, .context = EGL_NO_CONTEXT};
}

void app_egl_binding(const struct app_egl *egl, void *out)
{
	XrGraphicsBindingEGLMNDX b = {
		.type = XR_TYPE_GRAPHICS_BINDING_EGL_MNDX,
		.getProcAddress = eglGetProcAddress,
		.display = egl->display,
		.config = egl->config,
		.context = egl->context,
	};
	memcpy(out, &b, sizeof(b));
}

bool app_egl_before_end_frame(struct app_egl *egl, bool release, struct app_gl_state *saved)
{
	app_gl_check_save(&egl->check, saved);
	if (release && !eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)) {
		app_error("EGL: releasing the context failed (error 0x%x)", eglGetError());
		return false;
	}
	return true;
}

bool app_egl_after_end_frame(struct app_egl *egl, bool released, const struct app_gl_state *saved)
{
	if (released &&
	    !eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
		app_error("EGL: making the context current again failed (error 0x%x)", eglGetError());
		return false;
	}
	return app_gl_check_same(&egl->check, saved);
}

bool app_egl_render(struct app_egl *egl, uint32_t texture, uint32_t layers, uint64_t frame)
{
	float shade = (float)(frame % 64) / 64.0f;
	bind_framebuffer(GL_FRAMEBUFFER, egl->framebuffer);
	for (uint32_t layer = 0; layer < layers; layer++) {
		framebuffer_texture_layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, texture, 0,
		                          (GLint)layer);
		glClearColor(shade, layer ? 0.2f : 0.5f, 0.3f, 1.0f);
		glClear(GL_COLOR_BUFFER_BIT);
	}
	bind_framebuffer(GL_FRAMEBUFFER, 0);
	GLenum err = glGetError();
	if (err != GL_NO_ERROR) {
		app_error("GL error 0x%x clearing texture %u", err, texture);
		return false;
	}
	return true;
}
