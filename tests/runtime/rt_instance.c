/*
 * XrInstance: creation, extensions, properties and the enum-to-string calls.
 */
#include "rt_internal.h"
#include "rt_api.h"
#include "rt_calls.h"

#include <openxr/openxr_reflection.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const g_extensions[] = {
	XR_KHR_VULKAN_ENABLE_EXTENSION_NAME,
	XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME,
	XR_MND_HEADLESS_EXTENSION_NAME,
	XR_KHR_OPENGL_ENABLE_EXTENSION_NAME,
	XR_MNDX_EGL_ENABLE_EXTENSION_NAME,
};
#define RT_EXTENSION_COUNT (sizeof(g_extensions) / sizeof(g_extensions[0]))

RT_DEFINE_HANDLE_GET_INFO(rt_instance_get, XrInstance, struct rt_instance, RT_HANDLE_INSTANCE)

XrResult rt_instance_check_system(struct rt_instance *inst, XrSystemId system_id)
{
	(void)inst;
	return system_id == RT_SYSTEM_ID ? XR_SUCCESS : XR_ERROR_SYSTEM_INVALID;
}

XrResult rt_instance_get_system(XrInstance handle, XrSystemId system_id, struct rt_instance **out)
{
	XrResult r = rt_instance_get(handle, out);
	if (r != XR_SUCCESS)
		return r;
	return rt_instance_check_system(*out, system_id);
}

XrResult XRAPI_CALL rt_xrEnumerateInstanceExtensionProperties(const char *layerName,
                                                              uint32_t propertyCapacityInput,
                                                              uint32_t *propertyCountOutput,
                                                              XrExtensionProperties *properties)
{
	if (layerName)
		return XR_ERROR_API_LAYER_NOT_PRESENT;
	bool fill;
	XrResult r = rt_two_call_begin(propertyCapacityInput, propertyCountOutput, properties,
	                               RT_EXTENSION_COUNT, &fill);
	if (r != XR_SUCCESS || !fill)
		return r;
	for (uint32_t i = 0; i < RT_EXTENSION_COUNT; i++) {
		if (properties[i].type != XR_TYPE_EXTENSION_PROPERTIES)
			return XR_ERROR_VALIDATION_FAILURE;
		snprintf(properties[i].extensionName, sizeof(properties[i].extensionName), "%s",
		         g_extensions[i]);
		properties[i].extensionVersion = 1;
	}
	return XR_SUCCESS;
}

/* Records which of our extensions @p info enables; refuses unknown ones. */
static XrResult enable_extensions(struct rt_instance *inst, const XrInstanceCreateInfo *info)
{
	for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
		const char *name = info->enabledExtensionNames[i];
		if (!name)
			return XR_ERROR_VALIDATION_FAILURE;
		if (strcmp(name, XR_KHR_VULKAN_ENABLE_EXTENSION_NAME) == 0)
			inst->ext_vulkan_enable = true;
		else if (strcmp(name, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME) == 0)
			inst->ext_vulkan_enable2 = true;
		else if (strcmp(name, XR_MND_HEADLESS_EXTENSION_NAME) == 0)
			inst->ext_headless = true;
		else if (strcmp(name, XR_KHR_OPENGL_ENABLE_EXTENSION_NAME) == 0)
			inst->ext_opengl_enable = true;
		else if (strcmp(name, XR_MNDX_EGL_ENABLE_EXTENSION_NAME) == 0)
			inst->ext_egl_enable = true;
		else if (strcmp(name, XR_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0)
			; /* the loader implements it on top of us */
		else
			return XR_ERROR_EXTENSION_NOT_PRESENT;
	}
	return XR_SUCCESS;
}

static void instance_destroy(void *obj)
{
	struct rt_instance *inst = obj;
	rt_event_queue_fini(&inst->events);
	rt_path_table_fini(&inst->paths);
	free(inst);
}

static XrResult check_create_info(const XrInstanceCreateInfo *info)
{
	if (info->type != XR_TYPE_INSTANCE_CREATE_INFO)
		return XR_ERROR_VALIDATION_FAILURE;
	if (info->enabledExtensionCount > 0 && !info->enabledExtensionNames)
		return XR_ERROR_VALIDATION_FAILURE;
	if (XR_VERSION_MAJOR(info->applicationInfo.apiVersion) != 1)
		return XR_ERROR_API_VERSION_UNSUPPORTED;
	if (!rt_name_ok(info->applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE))
		return XR_ERROR_NAME_INVALID;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrCreateInstance(const XrInstanceCreateInfo *createInfo, XrInstance *instance)
{
	if (!createInfo || !instance)
		return XR_ERROR_VALIDATION_FAILURE;
	XrResult r = check_create_info(createInfo);
	if (r != XR_SUCCESS)
		return r;

	struct rt_instance *inst = calloc(1, sizeof(*inst));
	if (!inst)
		return XR_ERROR_OUT_OF_MEMORY;
	r = enable_extensions(inst, createInfo);
	if (r != XR_SUCCESS) {
		free(inst);
		return r;
	}
	rt_event_queue_init(&inst->events);
	rt_path_table_init(&inst->paths);
	r = RT_HANDLE_PUBLISH(RT_HANDLE_INSTANCE, inst, 0, instance_destroy, instance);
	if (r != XR_SUCCESS)
		return r;

	rt_log("instance created for \"%s\" (vulkan_enable=%d vulkan_enable2=%d headless=%d "
	       "opengl_enable=%d egl_enable=%d)", createInfo->applicationInfo.applicationName,
	       inst->ext_vulkan_enable, inst->ext_vulkan_enable2, inst->ext_headless,
	       inst->ext_opengl_enable, inst->ext_egl_enable);
	rt_knobs_read(&inst->knobs);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrDestroyInstance(XrInstance instance)
{
	XrResult r = rt_handle_destroy_as(RT_H(instance), RT_HANDLE_INSTANCE);
	if (r == XR_SUCCESS)
		rt_calls_write();
	return r;
}

XrResult XRAPI_CALL rt_xrGetInstanceProperties(XrInstance instance,
                                               XrInstanceProperties *instanceProperties)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_info(instance, instanceProperties, XR_TYPE_INSTANCE_PROPERTIES,
	                                  &inst);
	if (r != XR_SUCCESS)
		return r;
	instanceProperties->runtimeVersion = XR_MAKE_VERSION(0, 1, 0);
	snprintf(instanceProperties->runtimeName, sizeof(instanceProperties->runtimeName),
	         "XRLM headless test runtime");
	/* A runtime that fills the whole array and leaves no NUL: a layer
	 * must read no byte past it (the structure's last member). */
	if (inst->knobs.name_full)
		memset(instanceProperties->runtimeName, 'R', sizeof(instanceProperties->runtimeName));
	return XR_SUCCESS;
}

/* One case of an XR_LIST_ENUM_* list: the enumerant's name. */
#define RT_CASE_STR(name, value) \
	case name: return #name;

static const char *result_name(XrResult value)
{
	switch (value) {
		XR_LIST_ENUM_XrResult(RT_CASE_STR)
	default: return NULL;
	}
}

static const char *structure_type_name(XrStructureType value)
{
	switch (value) {
		XR_LIST_ENUM_XrStructureType(RT_CASE_STR)
	default: return NULL;
	}
}

#undef RT_CASE_STR

/*
 * What xrResultToString and xrStructureTypeToString share: the checks, then
 * @p name, or @p unknown followed by @p value when the enumerant has none.
 */
static XrResult to_string(XrInstance instance, char *buffer, size_t size, const char *name,
                          const char *unknown, int value)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get(instance, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (!buffer)
		return XR_ERROR_VALIDATION_FAILURE;
	if (name)
		snprintf(buffer, size, "%s", name);
	else
		snprintf(buffer, size, "%s%d", unknown, value);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrResultToString(XrInstance instance, XrResult value,
                                        char buffer[XR_MAX_RESULT_STRING_SIZE])
{
	return to_string(instance, buffer, XR_MAX_RESULT_STRING_SIZE, result_name(value),
	                 XR_SUCCEEDED(value) ? "XR_UNKNOWN_SUCCESS_" : "XR_UNKNOWN_FAILURE_",
	                 (int)value);
}

XrResult XRAPI_CALL rt_xrStructureTypeToString(XrInstance instance, XrStructureType value,
                                               char buffer[XR_MAX_STRUCTURE_NAME_SIZE])
{
	return to_string(instance, buffer, XR_MAX_STRUCTURE_NAME_SIZE, structure_type_name(value),
	                 "XR_UNKNOWN_STRUCTURE_TYPE_", (int)value);
}
