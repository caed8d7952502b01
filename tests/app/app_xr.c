/*
 * Creation and destruction of the test app's OpenXR objects.
 */
#include "app.h"
#include "tc_xr.h"

#include "app_check.h"
#include "app_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The application's name: XRTEST_APP_NAME when set (a test of what the layers show of it). */
static const char *app_name(void)
{
	const char *name = getenv("XRTEST_APP_NAME");

	return name && name[0] ? name : "xrlm-test-app";
}

static bool create_instance(struct app *app)
{
	/* XR_MNDX_egl_enable is an addition to XR_KHR_opengl_enable, not a replacement. */
	static const char *const egl[] = {XR_KHR_OPENGL_ENABLE_EXTENSION_NAME, "XR_MNDX_egl_enable"};
	const char *ext = NULL;
	switch (app->opts.graphics) {
	case APP_GRAPHICS_VULKAN: ext = XR_KHR_VULKAN_ENABLE_EXTENSION_NAME; break;
	case APP_GRAPHICS_VULKAN2: ext = XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME; break;
	case APP_GRAPHICS_HEADLESS: ext = XR_MND_HEADLESS_EXTENSION_NAME; break;
	case APP_GRAPHICS_EGL:
		return APP_XR(tc_xr_create_instance_n(app_name(), 2, egl, &app->instance));
	}
	return APP_XR(tc_xr_create_instance(app_name(), ext, &app->instance));
}

static bool create_system(struct app *app)
{
	XrSystemGetInfo gi = {
		.type = XR_TYPE_SYSTEM_GET_INFO,
		.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY,
	};
	return APP_XR(xrGetSystem(app->instance, &gi, &app->system));
}

static bool pick_blend_mode(struct app *app)
{
	/* Headless sessions have no view configuration to ask about. */
	app->blend_mode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
	if (!app->has_vk && !app->has_gl)
		return true;
	XrEnvironmentBlendMode modes[8];
	uint32_t n = 0;
	if (!APP_XR(xrEnumerateEnvironmentBlendModes(app->instance, app->system,
	                                             XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 8,
	                                             &n, modes)))
		return false;
	if (n > 0)
		app->blend_mode = modes[0];
	return true;
}

static bool create_session(struct app *app)
{
	/* Room for either binding; the EGL one's type needs EGL's platform define. */
	union {
		XrGraphicsBindingVulkanKHR vk;
		char egl[64];
	} binding;
	_Static_assert(sizeof(binding.egl) >= sizeof(XrBaseInStructure) + 4 * sizeof(void *),
	               "room for XrGraphicsBindingEGLMNDX");
	XrSessionCreateInfo ci = {.type = XR_TYPE_SESSION_CREATE_INFO, .systemId = app->system};
	if (app->has_vk) {
		binding.vk = app_vk_binding(&app->vk);
		ci.next = &binding;
	} else if (app->has_gl) {
		app_egl_binding(&app->egl, &binding);
		ci.next = &binding;
	}
	return APP_XR(xrCreateSession(app->instance, &ci, &app->session));
}

static bool create_space(struct app *app)
{
	XrReferenceSpaceCreateInfo ci = {
		.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
		.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL,
		.poseInReferenceSpace = {.orientation = {0, 0, 0, 1}},
	};
	return APP_XR(xrCreateReferenceSpace(app->session, &ci, &app->space));
}

bool app_xr_create(struct app *app)
{
	app->has_gl = app->opts.graphics == APP_GRAPHICS_EGL;
	app->has_vk = app->opts.graphics != APP_GRAPHICS_HEADLESS && !app->has_gl;
	if (!create_instance(app) || !create_system(app))
		return false;
	if (app->has_vk && !app_vk_create(&app->vk, app->instance, app->system,
	                                  app->opts.graphics, app->opts.vk_1_0))
		return false;
	if (app->has_gl && !app_egl_create(&app->egl, app->instance, app->system))
		return false;
	if (!pick_blend_mode(app) || !create_session(app) || !create_space(app))
		return false;
	if (app->opts.calls == APP_CALLS_FULL &&
	    !app_input_create(&app->input, app->instance, app->session))
		return false;
	if (!app->has_vk && !app->has_gl)
		return true;
	if (!app_swapchain_create(&app->swapchain, app->instance, app->system, app->session,
	                          app->has_gl))
		return false;
	return !app->has_vk || (app_gpu_create(&app->gpu, &app->vk) && app_load_create(app));
}

bool app_xr_destroy(struct app *app)
{
	bool ok = true;
	/* Our GPU work first: it may still use swapchain images. */
	app_load_destroy(app);
	app_gpu_destroy(&app->gpu);
	ok = app_swapchain_destroy(&app->swapchain) && ok;
	ok = app_input_destroy(&app->input) && ok;
	if (app->space)
		ok = APP_XR(xrDestroySpace(app->space)) && ok;
	if (app->session && !app->opts.keep_session)
		ok = APP_XR(xrDestroySession(app->session)) && ok;
	/* The instance takes a session kept alive with it, and the Vulkan
	 * device outlives the session that used it. */
	if (app->instance && app->opts.keep_session)
		ok = APP_XR(xrDestroyInstance(app->instance)) && ok;
	app_vk_destroy(&app->vk);
	if (app->has_gl)
		app_egl_destroy(&app->egl);
	if (app->instance && !app->opts.keep_session)
		ok = APP_XR(xrDestroyInstance(app->instance)) && ok;
	app->space = XR_NULL_HANDLE;
	app->session = XR_NULL_HANDLE;
	app->instance = XR_NULL_HANDLE;
	return ok;
}
