/*
 * XR_KHR_opengl_enable on Xlib/GLX, or with XR_MNDX_egl_enable on EGL: the
 * graphics requirements, the session's binding, and swapchains of GL
 * textures in the app's context. GLX and EGL differ only in how the binding
 * names the context and how the current one is asked for; everything else
 * is the same GL.
 *
 * The spec has the app's context current on the calling thread in
 * xrCreateSwapchain, xrDestroySwapchain, the image calls and xrEndFrame:
 * textures are created and deleted there. Only the display, the drawable
 * and the context of a GLX binding are used (apps often leave visualid and
 * glxFBConfig unset). Every binding the app can see (the texture target's
 * binding) is restored after use.
 */
/* Before rt_internal.h: its openxr_platform.h then has the Xlib binding. */
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#define XR_USE_PLATFORM_XLIB 1

#include "rt_internal.h"
#include "rt_api.h"

#include <stdlib.h>

/* Our own needs: immutable texture storage (core in 4.2, an extension since 3.x). */
#define RT_GL_MIN_VERSION XR_MAKE_VERSION(3, 2, 0)
#define RT_GL_MAX_VERSION XR_MAKE_VERSION(4, 6, 0)
#define RT_GL_MAX_ARRAY 16

/* In order of preference: hello_xr takes the first one it knows. */
static const int64_t g_gl_formats[] = {
	GL_SRGB8_ALPHA8,       GL_RGBA8,             GL_RGBA16F,           GL_RGB10_A2,
	GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT16,
};
#define RT_GL_FORMAT_COUNT (sizeof(g_gl_formats) / sizeof(g_gl_formats[0]))

struct rt_gl_session {
	void *context;                      /* GLXContext or EGLContext */
	void *(*current_context)(void);     /* glXGetCurrentContext or eglGetCurrentContext */
	PFNGLTEXSTORAGE2DPROC TexStorage2D;
	PFNGLTEXSTORAGE3DPROC TexStorage3D;
};

XrResult XRAPI_CALL rt_xrGetOpenGLGraphicsRequirementsKHR(
	XrInstance instance, XrSystemId systemId, XrGraphicsRequirementsOpenGLKHR *requirements)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_system(instance, systemId, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (!requirements || requirements->type != XR_TYPE_GRAPHICS_REQUIREMENTS_OPENGL_KHR)
		return XR_ERROR_VALIDATION_FAILURE;
	requirements->minApiVersionSupported = RT_GL_MIN_VERSION;
	requirements->maxApiVersionSupported = RT_GL_MAX_VERSION;
	inst->gl_requirements_queried = true;
	return XR_SUCCESS;
}

static void *glx_current_context(void)
{
	return glXGetCurrentContext();
}

static void *egl_current_context(void)
{
	return eglGetCurrentContext();
}

/* A GLX binding: only the display, the drawable and the context are needed. */
static XrResult glx_binding(const XrGraphicsBindingOpenGLXlibKHR *b, struct rt_gl_session *gl)
{
	if (!b->xDisplay || !b->glxContext || !b->glxDrawable)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	gl->context = b->glxContext;
	gl->current_context = glx_current_context;
	rt_log("OpenGL session (GLX): display %p, drawable 0x%lx, context %p%s",
	       (void *)b->xDisplay, (unsigned long)b->glxDrawable, (void *)b->glxContext,
	       b->glxFBConfig || b->visualid ? "" : " (no visualid or glxFBConfig: not needed)");
	return XR_SUCCESS;
}

/* An EGL binding (XR_MNDX_egl_enable, next to XR_KHR_opengl_enable). */
static XrResult egl_binding(struct rt_instance *inst, const XrGraphicsBindingEGLMNDX *b,
                            struct rt_gl_session *gl)
{
	if (!inst->ext_egl_enable || !b->getProcAddress || !b->display || !b->context)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	gl->context = b->context;
	gl->current_context = egl_current_context;
	rt_log("OpenGL session (EGL): display %p, context %p", (void *)b->display,
	       (void *)b->context);
	return XR_SUCCESS;
}

XrResult rt_gl_session_create(struct rt_instance *inst, const void *binding,
                              struct rt_gl_session **out)
{
	const XrBaseInStructure *base = binding;
	if (!inst->ext_opengl_enable)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	if (!inst->gl_requirements_queried)
		return XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING;
	struct rt_gl_session *gl = calloc(1, sizeof(*gl));
	if (!gl)
		return XR_ERROR_OUT_OF_MEMORY;
	XrResult r = base->type == XR_TYPE_GRAPHICS_BINDING_EGL_MNDX
	                     ? egl_binding(inst, binding, gl)
	                     : glx_binding(binding, gl);
	/* Through GLVND both look the entry points up in the same dispatch. */
	gl->TexStorage2D = (PFNGLTEXSTORAGE2DPROC)glXGetProcAddressARB(
		(const GLubyte *)"glTexStorage2D");
	gl->TexStorage3D = (PFNGLTEXSTORAGE3DPROC)glXGetProcAddressARB(
		(const GLubyte *)"glTexStorage3D");
	if (r == XR_SUCCESS && (!gl->TexStorage2D || !gl->TexStorage3D))
		r = XR_ERROR_GRAPHICS_DEVICE_INVALID;
	if (r != XR_SUCCESS) {
		free(gl);
		return r;
	}
	if (inst->knobs.compositor_gpu_us)
		rt_log("warning: XRTEST_COMPOSITOR_GPU_US applies to Vulkan sessions only");
	*out = gl;
	return XR_SUCCESS;
}

void rt_gl_session_destroy(struct rt_gl_session *gl)
{
	free(gl);
}

XrResult rt_gl_enumerate_formats(uint32_t capacity, uint32_t *count_out, int64_t *formats)
{
	return rt_two_call(capacity, count_out, formats, g_gl_formats, RT_GL_FORMAT_COUNT,
	                   sizeof(g_gl_formats[0]));
}

static bool is_depth(int64_t format)
{
	return format == GL_DEPTH_COMPONENT32F || format == GL_DEPTH_COMPONENT24 ||
	       format == GL_DEPTH_COMPONENT16;
}

XrResult rt_gl_swapchain_check(const XrSwapchainCreateInfo *info)
{
	bool offered = false;
	for (size_t i = 0; i < RT_GL_FORMAT_COUNT; i++)
		offered |= g_gl_formats[i] == info->format;
	if (!offered)
		return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
	if (is_depth(info->format) && (info->usageFlags & XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT))
		return XR_ERROR_FEATURE_UNSUPPORTED;
	GLint max_size = 0;
	glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
	uint32_t max_mips = 1;
	while (max_mips < 32 && (info->width >> max_mips || info->height >> max_mips))
		max_mips++;
	if (info->width > (uint32_t)max_size || info->height > (uint32_t)max_size ||
	    info->arraySize > RT_GL_MAX_ARRAY || info->mipCount > max_mips)
		return XR_ERROR_FEATURE_UNSUPPORTED;
	return XR_SUCCESS;
}

/* The context the swapchain's calls must find current; false when it is not. */
static bool context_current(const struct rt_gl_session *gl)
{
	return gl->current_context() == gl->context;
}

XrResult rt_gl_swapchain_create_images(struct rt_swapchain *sc)
{
	const struct rt_gl_session *gl = sc->sess->gl;
	const XrSwapchainCreateInfo *info = &sc->info;
	bool array = info->arraySize > 1;
	GLenum target = array ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
	GLint saved = 0;

	if (!context_current(gl)) {
		rt_log("warning: xrCreateSwapchain without the session's GL context current");
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	}
	glGetIntegerv(array ? GL_TEXTURE_BINDING_2D_ARRAY : GL_TEXTURE_BINDING_2D, &saved);
	glGenTextures((GLsizei)sc->image_count, sc->gl_textures);
	for (uint32_t i = 0; i < sc->image_count; i++) {
		glBindTexture(target, sc->gl_textures[i]);
		if (array)
			gl->TexStorage3D(target, (GLsizei)info->mipCount, (GLenum)info->format,
			                 (GLsizei)info->width, (GLsizei)info->height,
			                 (GLsizei)info->arraySize);
		else
			gl->TexStorage2D(target, (GLsizei)info->mipCount, (GLenum)info->format,
			                 (GLsizei)info->width, (GLsizei)info->height);
	}
	glBindTexture(target, (GLuint)saved);
	rt_log("GL swapchain %ux%u x%u, format 0x%llx: textures %u..%u", info->width,
	       info->height, info->arraySize, (unsigned long long)info->format, sc->gl_textures[0],
	       sc->gl_textures[sc->image_count - 1]);
	return XR_SUCCESS;
}

void rt_gl_swapchain_destroy_images(struct rt_swapchain *sc)
{
	if (!sc->gl_textures[0])
		return;
	/* Destroyed with its session or instance, the context may be gone or
	 * elsewhere: the textures then die with the context. */
	if (context_current(sc->sess->gl))
		glDeleteTextures((GLsizei)sc->image_count, sc->gl_textures);
	else
		rt_log("swapchain destroyed without its GL context current: its textures are "
		       "left to the context");
}

void rt_gl_end_frame(struct rt_gl_session *gl)
{
	/* A compositor reads the app's textures: their rendering must be submitted. */
	if (context_current(gl))
		glFlush();
}

XrResult rt_gl_enumerate_images(struct rt_swapchain *sc, XrSwapchainImageBaseHeader *images)
{
	XrSwapchainImageOpenGLKHR *gl_images = (XrSwapchainImageOpenGLKHR *)images;
	for (uint32_t i = 0; i < sc->image_count; i++) {
		if (gl_images[i].type != XR_TYPE_SWAPCHAIN_IMAGE_OPENGL_KHR)
			return XR_ERROR_VALIDATION_FAILURE;
		gl_images[i].image = sc->gl_textures[i];
	}
	return XR_SUCCESS;
}
