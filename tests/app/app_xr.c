/*
 * Creation and destruction of the test app's OpenXR objects.
 */
#include "app.h"
#include "tc_xr.h"

#include "app_check.h"
#include "app_load.h"

#include <stdio.h>
#include <string.h>

static const char *graphics_extension(enum app_graphics g)
{
	switch (g) {
	case APP_GRAPHICS_VULKAN: return XR_KHR_VULKAN_ENABLE_EXTENSION_NAME;
	case APP_GRAPHICS_VULKAN2: return XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME;
	case APP_GRAPHICS_HEADLESS: return XR_MND_HEADLESS_EXTENSION_NAME;
	}
	return NULL;
}

static bool create_instance(struct app *app)
{
	const char *ext = graphics_extension(app->opts.graphics);
	return APP_XR(tc_xr_create_instance("xrlm-test-app", ext, &app->instance));
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
	if (!app->has_vk)
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
	XrGraphicsBindingVulkanKHR binding;
	XrSessionCreateInfo ci = {.type = XR_TYPE_SESSION_CREATE_INFO, .systemId = app->system};
	if (app->has_vk) {
		binding = app_vk_binding(&app->vk);
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
	app->has_vk = app->opts.graphics != APP_GRAPHICS_HEADLESS;
	if (!create_instance(app) || !create_system(app))
		return false;
	if (app->has_vk && !app_vk_create(&app->vk, app->instance, app->system,
	                                  app->opts.graphics))
		return false;
	if (!pick_blend_mode(app) || !create_session(app) || !create_space(app))
		return false;
	if (!app->has_vk)
		return true;
	return app_swapchain_create(&app->swapchain, app->instance, app->system, app->session) &&
	       app_gpu_create(&app->gpu, &app->vk) && app_load_create(app);
}

bool app_xr_destroy(struct app *app)
{
	bool ok = true;
	/* Our GPU work first: it may still use swapchain images. */
	app_load_destroy(app);
	app_gpu_destroy(&app->gpu);
	ok = app_swapchain_destroy(&app->swapchain) && ok;
	if (app->space)
		ok = APP_XR(xrDestroySpace(app->space)) && ok;
	if (app->session)
		ok = APP_XR(xrDestroySession(app->session)) && ok;
	/* The Vulkan device outlives the session that used it. */
	app_vk_destroy(&app->vk);
	if (app->instance)
		ok = APP_XR(xrDestroyInstance(app->instance)) && ok;
	app->space = XR_NULL_HANDLE;
	app->session = XR_NULL_HANDLE;
	app->instance = XR_NULL_HANDLE;
	return ok;
}
