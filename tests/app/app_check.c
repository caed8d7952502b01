/*
 * Reporting of failed OpenXR and Vulkan calls.
 */
#include "app_check.h"
#include "tc_log.h"

#include <openxr/openxr_reflection.h>
#include <stdarg.h>
#include <string.h>

static const char *xr_result_str(XrResult r)
{
	/* No instance is needed (xrResultToString needs one, and the failing
	 * call may be the one that creates it). */
	switch (r) {
#define APP_XR_RESULT_CASE(name, value)                                                            \
	case name: return #name;
		XR_LIST_ENUM_XrResult(APP_XR_RESULT_CASE)
	default: return "XrResult (unknown)";
	}
}

static const char *vk_result_str(VkResult r)
{
	switch (r) {
	case VK_NOT_READY: return "VK_NOT_READY";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_INCOMPLETE: return "VK_INCOMPLETE";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
	case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
	default: return "VkResult (other)";
	}
}

void app_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_log_v("xrlm-test-app: ", 512, fmt, ap);
	va_end(ap);
}

/* The function name of a stringified call: "xrFoo(a, b)" -> "xrFoo". */
static int call_name_len(const char *call)
{
	const char *paren = strchr(call, '(');
	return paren ? (int)(paren - call) : (int)strlen(call);
}

bool app_xr_ok(XrResult r, const char *call)
{
	if (XR_SUCCEEDED(r))
		return true;
	app_error("%.*s failed: %s (%d)", call_name_len(call), call, xr_result_str(r), (int)r);
	return false;
}

bool app_vk_ok(VkResult r, const char *call)
{
	if (r == VK_SUCCESS)
		return true;
	app_error("%.*s failed: %s (%d)", call_name_len(call), call, vk_result_str(r), (int)r);
	return false;
}
