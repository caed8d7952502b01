/*
 * Loader negotiation and xrGetInstanceProcAddr: the only symbol this
 * library exports is xrNegotiateLoaderRuntimeInterface.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include "rt_calls.h"
#include "tc_negotiate.h"

#include <string.h>

struct rt_function {
	const char *name;
	PFN_xrVoidFunction fn;
	enum rt_ext ext;
};

#define RT_ENTRY(name, ext) {#name, (PFN_xrVoidFunction)rt_##name, ext},
static const struct rt_function g_functions[] = {RT_FUNCTIONS(RT_ENTRY)};
#undef RT_ENTRY

/* The only functions that may be looked up without an instance. */
static bool allowed_without_instance(const char *name)
{
	return strcmp(name, "xrEnumerateInstanceExtensionProperties") == 0 ||
	       strcmp(name, "xrEnumerateApiLayerProperties") == 0 ||
	       strcmp(name, "xrCreateInstance") == 0;
}

static bool ext_enabled(const struct rt_instance *inst, enum rt_ext ext)
{
	switch (ext) {
	case RT_EXT_NONE: return true;
	case RT_EXT_VULKAN1: return inst->ext_vulkan_enable;
	case RT_EXT_VULKAN2: return inst->ext_vulkan_enable2;
	case RT_EXT_OPENGL: return inst->ext_opengl_enable;
	}
	return false;
}

XrResult XRAPI_CALL rt_xrGetInstanceProcAddr(XrInstance instance, const char *name,
                                             PFN_xrVoidFunction *function)
{
	if (!name || !function)
		return XR_ERROR_VALIDATION_FAILURE;
	*function = NULL;
	struct rt_instance *inst = NULL;
	if (instance == XR_NULL_HANDLE) {
		if (!allowed_without_instance(name))
			return XR_ERROR_HANDLE_INVALID;
	} else if (rt_instance_get(instance, &inst) != XR_SUCCESS) {
		return XR_ERROR_HANDLE_INVALID;
	}
	for (size_t i = 0; i < sizeof(g_functions) / sizeof(g_functions[0]); i++) {
		if (strcmp(g_functions[i].name, name) != 0)
			continue;
		/* Extension functions exist only where the extension is enabled. */
		if (inst && !ext_enabled(inst, g_functions[i].ext))
			return XR_ERROR_FUNCTION_UNSUPPORTED;
		*function = rt_calls_wrap(name, g_functions[i].fn);
		return XR_SUCCESS;
	}
	return XR_ERROR_FUNCTION_UNSUPPORTED;
}

/* Called by the loader after dlopen(); see the loader specification. */
__attribute__((visibility("default"))) XrResult XRAPI_CALL
xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo *loaderInfo,
                                  XrNegotiateRuntimeRequest *runtimeRequest);

XrResult XRAPI_CALL xrNegotiateLoaderRuntimeInterface(const XrNegotiateLoaderInfo *loaderInfo,
                                                      XrNegotiateRuntimeRequest *runtimeRequest)
{
	if (!tc_negotiate_runtime_ok(loaderInfo, runtimeRequest))
		return XR_ERROR_INITIALIZATION_FAILED;
	if (XR_VERSION_MAJOR(loaderInfo->minApiVersion) > 1 ||
	    XR_VERSION_MAJOR(loaderInfo->maxApiVersion) < 1)
		return XR_ERROR_INITIALIZATION_FAILED;

	runtimeRequest->runtimeInterfaceVersion = XR_CURRENT_LOADER_RUNTIME_VERSION;
	runtimeRequest->runtimeApiVersion = XR_CURRENT_API_VERSION;
	runtimeRequest->getInstanceProcAddr = rt_xrGetInstanceProcAddr;
	return XR_SUCCESS;
}
