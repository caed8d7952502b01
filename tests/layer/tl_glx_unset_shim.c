/*
 * LD_PRELOAD shim for hello_xr -g OpenGL (test fixture only): its
 * xrCreateSession reaches the loader with the XrGraphicsBindingOpenGLXlibKHR's
 * visualid and glxFBConfig cleared, as some applications leave them. The
 * monitor must need only the display, the drawable and the context
 * (README, GPU cost, "OpenGL"); the test runtime logs that it got neither.
 */
#define _GNU_SOURCE
#include <GL/glx.h>
#define XR_USE_PLATFORM_XLIB
#define XR_USE_GRAPHICS_API_OPENGL
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include <dlfcn.h>
#include <stdio.h>

__attribute__((visibility("default"))) XrResult XRAPI_CALL
xrCreateSession(XrInstance instance, const XrSessionCreateInfo *info, XrSession *session)
{
	PFN_xrCreateSession next = (PFN_xrCreateSession)dlsym(RTLD_NEXT, "xrCreateSession");
	if (!next)
		return XR_ERROR_RUNTIME_FAILURE;
	const XrBaseInStructure *binding = info ? info->next : NULL;
	if (!binding || binding->type != XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR)
		return next(instance, info, session);
	/* Copies: the app's own structures stay as they are. */
	XrGraphicsBindingOpenGLXlibKHR glx = *(const XrGraphicsBindingOpenGLXlibKHR *)binding;
	XrSessionCreateInfo copy = *info;
	glx.visualid = 0;
	glx.glxFBConfig = NULL;
	copy.next = &glx;
	fprintf(stderr, "[glx-unset-shim] xrCreateSession: visualid and glxFBConfig cleared\n");
	return next(instance, &copy, session);
}
