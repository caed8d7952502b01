/*
 * OpenXR set-up and event polling shared by the test bed's applications;
 * see tc_xr.h.
 */
#include "tc_xr.h"

#include <stdio.h>

XrResult tc_xr_create_instance(const char *app_name, const char *extension,
                               XrInstance *instance)
{
	return tc_xr_create_instance_n(app_name, 1, &extension, instance);
}

XrResult tc_xr_create_instance_n(const char *app_name, uint32_t count,
                                 const char *const *extensions, XrInstance *instance)
{
	XrInstanceCreateInfo ci = {
		.type = XR_TYPE_INSTANCE_CREATE_INFO,
		.applicationInfo = {.applicationVersion = 1,
		                    .engineVersion = 1,
		                    .apiVersion = XR_MAKE_VERSION(1, 0, 0)},
		.enabledExtensionCount = count,
		.enabledExtensionNames = extensions,
	};
	snprintf(ci.applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE, "%s", app_name);
	snprintf(ci.applicationInfo.engineName, XR_MAX_ENGINE_NAME_SIZE, "xrlm");
	return xrCreateInstance(&ci, instance);
}

XrResult tc_xr_next_state(XrInstance instance, XrSessionState *state)
{
	for (;;) {
		XrEventDataBuffer ev = {.type = XR_TYPE_EVENT_DATA_BUFFER};
		XrResult r = xrPollEvent(instance, &ev);
		if (r != XR_SUCCESS)
			return r;
		if (ev.type == XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING)
			return XR_ERROR_INSTANCE_LOST;
		if (ev.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) {
			*state = ((const XrEventDataSessionStateChanged *)&ev)->state;
			return XR_SUCCESS;
		}
	}
}
