/*
 * The one system: a stereo HMD with fixed views and an opaque display.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <stdio.h>

/* Small enough that lavapipe renders hello_xr's views at 90 Hz on 2 cores. */
#define RT_VIEW_WIDTH 512
#define RT_VIEW_HEIGHT 512
#define RT_MAX_IMAGE_SIZE 4096

static const XrViewConfigurationType g_view_config = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
static const XrEnvironmentBlendMode g_blend_mode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;

/*
 * The checks of a query about the system: the instance, the system id, then
 * the structure @p info of @p type (none for XR_TYPE_UNKNOWN).
 */
static XrResult check_system_info(XrInstance instance, XrSystemId systemId, const void *info,
                                  XrStructureType type)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_system(instance, systemId, &inst);
	if (r != XR_SUCCESS || type == XR_TYPE_UNKNOWN)
		return r;
	return rt_check_struct(info, type);
}

/* The checks of the queries about our one view configuration. */
static XrResult check_view_config(XrInstance instance, XrSystemId systemId,
                                  XrViewConfigurationType type)
{
	XrResult r = check_system_info(instance, systemId, NULL, XR_TYPE_UNKNOWN);
	if (r != XR_SUCCESS)
		return r;
	return type == g_view_config ? XR_SUCCESS : XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
}

XrResult XRAPI_CALL rt_xrGetSystem(XrInstance instance, const XrSystemGetInfo *getInfo,
                                   XrSystemId *systemId)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_create(instance, getInfo, XR_TYPE_SYSTEM_GET_INFO, systemId, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (getInfo->formFactor == XR_FORM_FACTOR_HANDHELD_DISPLAY)
		return XR_ERROR_FORM_FACTOR_UNSUPPORTED;
	if (getInfo->formFactor != XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY)
		return XR_ERROR_VALIDATION_FAILURE;
	*systemId = RT_SYSTEM_ID;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrGetSystemProperties(XrInstance instance, XrSystemId systemId,
                                             XrSystemProperties *properties)
{
	XrResult r = check_system_info(instance, systemId, properties, XR_TYPE_SYSTEM_PROPERTIES);
	if (r != XR_SUCCESS)
		return r;
	properties->systemId = RT_SYSTEM_ID;
	properties->vendorId = 0x584c; /* "XL" */
	snprintf(properties->systemName, sizeof(properties->systemName), "XRLM headless test HMD");
	properties->graphicsProperties.maxSwapchainImageWidth = RT_MAX_IMAGE_SIZE;
	properties->graphicsProperties.maxSwapchainImageHeight = RT_MAX_IMAGE_SIZE;
	properties->graphicsProperties.maxLayerCount = RT_MAX_LAYERS;
	properties->trackingProperties.orientationTracking = XR_TRUE;
	properties->trackingProperties.positionTracking = XR_TRUE;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrEnumerateEnvironmentBlendModes(XrInstance instance, XrSystemId systemId,
                                                        XrViewConfigurationType viewConfigurationType,
                                                        uint32_t capacity, uint32_t *countOutput,
                                                        XrEnvironmentBlendMode *modes)
{
	XrResult r = check_view_config(instance, systemId, viewConfigurationType);
	if (r != XR_SUCCESS)
		return r;
	return rt_two_call(capacity, countOutput, modes, &g_blend_mode, 1, sizeof(g_blend_mode));
}

XrResult XRAPI_CALL rt_xrEnumerateViewConfigurations(XrInstance instance, XrSystemId systemId,
                                                     uint32_t capacity, uint32_t *countOutput,
                                                     XrViewConfigurationType *types)
{
	XrResult r = check_system_info(instance, systemId, NULL, XR_TYPE_UNKNOWN);
	if (r != XR_SUCCESS)
		return r;
	return rt_two_call(capacity, countOutput, types, &g_view_config, 1, sizeof(g_view_config));
}

XrResult XRAPI_CALL rt_xrGetViewConfigurationProperties(XrInstance instance, XrSystemId systemId,
                                                        XrViewConfigurationType viewConfigurationType,
                                                        XrViewConfigurationProperties *properties)
{
	XrResult r = check_system_info(instance, systemId, properties,
	                               XR_TYPE_VIEW_CONFIGURATION_PROPERTIES);
	if (r != XR_SUCCESS)
		return r;
	if (viewConfigurationType != g_view_config)
		return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
	properties->viewConfigurationType = g_view_config;
	properties->fovMutable = XR_FALSE;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrEnumerateViewConfigurationViews(XrInstance instance, XrSystemId systemId,
                                                         XrViewConfigurationType viewConfigurationType,
                                                         uint32_t capacity, uint32_t *countOutput,
                                                         XrViewConfigurationView *views)
{
	XrResult r = check_view_config(instance, systemId, viewConfigurationType);
	if (r != XR_SUCCESS)
		return r;
	bool fill;
	r = rt_two_call_begin(capacity, countOutput, views, RT_VIEW_COUNT, &fill);
	if (r != XR_SUCCESS || !fill)
		return r;
	for (uint32_t i = 0; i < RT_VIEW_COUNT; i++) {
		/* The app's type and next stay; only the payload is ours. */
		if (views[i].type != XR_TYPE_VIEW_CONFIGURATION_VIEW)
			return XR_ERROR_VALIDATION_FAILURE;
		views[i].recommendedImageRectWidth = RT_VIEW_WIDTH;
		views[i].maxImageRectWidth = RT_MAX_IMAGE_SIZE;
		views[i].recommendedImageRectHeight = RT_VIEW_HEIGHT;
		views[i].maxImageRectHeight = RT_MAX_IMAGE_SIZE;
		views[i].recommendedSwapchainSampleCount = 1;
		views[i].maxSwapchainSampleCount = 1;
	}
	return XR_SUCCESS;
}
