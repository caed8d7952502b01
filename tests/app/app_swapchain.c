/*
 * Stereo swapchain creation, image enumeration, acquire/wait/release.
 */
#include "app_swapchain.h"

#include "app_check.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <stdlib.h>

/* Formats we can clear; the runtime's order of preference decides among them. */
static bool format_usable(int64_t f, bool gl)
{
	if (gl)
		return f == GL_SRGB8_ALPHA8 || f == GL_RGBA8;
	return f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_B8G8R8A8_SRGB ||
	       f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_B8G8R8A8_UNORM;
}

static bool pick_format(XrSession session, bool gl, int64_t *out)
{
	uint32_t n = 0;
	if (!APP_XR(xrEnumerateSwapchainFormats(session, 0, &n, NULL)))
		return false;
	int64_t *formats = calloc(n ? n : 1, sizeof(*formats));
	if (!formats)
		return false;
	bool ok = APP_XR(xrEnumerateSwapchainFormats(session, n, &n, formats));
	uint32_t i = 0;
	while (ok && i < n && !format_usable(formats[i], gl))
		i++;
	if (ok && i == n)
		app_error("the runtime offers no 8-bit RGBA/BGRA swapchain format (%u formats)", n);
	if (ok && i < n)
		*out = formats[i];
	free(formats);
	return ok && i < n;
}

static bool pick_size(struct app_swapchain *sc, XrInstance xr, XrSystemId system)
{
	XrViewConfigurationView views[2] = {{.type = XR_TYPE_VIEW_CONFIGURATION_VIEW},
	                                    {.type = XR_TYPE_VIEW_CONFIGURATION_VIEW}};
	uint32_t n = 0;
	if (!APP_XR(xrEnumerateViewConfigurationViews(xr, system,
	                                              XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
	                                              2, &n, views)))
		return false;
	if (n != 2) {
		app_error("the stereo view configuration has %u views, not 2", n);
		return false;
	}
	uint32_t w = views[0].recommendedImageRectWidth;
	uint32_t h = views[0].recommendedImageRectHeight;
	sc->width = w < APP_SWAPCHAIN_MAX_SIZE ? w : APP_SWAPCHAIN_MAX_SIZE;
	sc->height = h < APP_SWAPCHAIN_MAX_SIZE ? h : APP_SWAPCHAIN_MAX_SIZE;
	sc->layers = 2;
	return sc->width > 0 && sc->height > 0;
}

static bool enumerate_images(struct app_swapchain *sc)
{
	uint32_t n = 0;
	if (!APP_XR(xrEnumerateSwapchainImages(sc->handle, 0, &n, NULL)))
		return false;
	if (sc->gl) {
		sc->gl_images = calloc(n ? n : 1, sizeof(*sc->gl_images));
		for (uint32_t i = 0; sc->gl_images && i < n; i++)
			sc->gl_images[i].type = XR_TYPE_SWAPCHAIN_IMAGE_OPENGL_KHR;
	} else {
		sc->images = calloc(n ? n : 1, sizeof(*sc->images));
		for (uint32_t i = 0; sc->images && i < n; i++)
			sc->images[i].type = XR_TYPE_SWAPCHAIN_IMAGE_VULKAN_KHR;
	}
	if (!sc->images)
		return false;
	sc->image_count = n;
	return APP_XR(xrEnumerateSwapchainImages(sc->handle, n, &n,
	                                         (XrSwapchainImageBaseHeader *)sc->images));
}

bool app_swapchain_create(struct app_swapchain *sc, XrInstance xr, XrSystemId system,
                          XrSession session, bool gl)
{
	*sc = (struct app_swapchain){.gl = gl};
	if (!pick_format(session, gl, &sc->format) || !pick_size(sc, xr, system))
		return false;
	XrSwapchainCreateInfo ci = {
		.type = XR_TYPE_SWAPCHAIN_CREATE_INFO,
		.usageFlags = XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT |
		              XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT,
		.format = sc->format,
		.sampleCount = 1,
		.width = sc->width,
		.height = sc->height,
		.faceCount = 1,
		.arraySize = sc->layers,
		.mipCount = 1,
	};
	return APP_XR(xrCreateSwapchain(session, &ci, &sc->handle)) && enumerate_images(sc);
}

bool app_swapchain_destroy(struct app_swapchain *sc)
{
	bool ok = !sc->handle || APP_XR(xrDestroySwapchain(sc->handle));
	free(sc->images);
	*sc = (struct app_swapchain){0};
	return ok;
}

bool app_swapchain_acquire(struct app_swapchain *sc, struct app_stats *st, uint64_t frame,
                           uint32_t *index)
{
	XrSwapchainImageAcquireInfo ai = {.type = XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO};
	XrSwapchainImageWaitInfo wi = {
		.type = XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO,
		.timeout = XR_INFINITE_DURATION,
	};
	if (!APP_XR_TIMED(st, frame, APP_CALL_ACQUIRE_SWAPCHAIN_IMAGE,
	                  xrAcquireSwapchainImage(sc->handle, &ai, index)) ||
	    !APP_XR_TIMED(st, frame, APP_CALL_WAIT_SWAPCHAIN_IMAGE,
	                  xrWaitSwapchainImage(sc->handle, &wi)))
		return false;
	if (*index >= sc->image_count) {
		app_error("xrAcquireSwapchainImage returned image %u of %u", *index,
		          sc->image_count);
		return false;
	}
	return true;
}

bool app_swapchain_release(struct app_swapchain *sc, struct app_stats *st, uint64_t frame)
{
	XrSwapchainImageReleaseInfo ri = {.type = XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO};
	return APP_XR_TIMED(st, frame, APP_CALL_RELEASE_SWAPCHAIN_IMAGE,
	                    xrReleaseSwapchainImage(sc->handle, &ri));
}
