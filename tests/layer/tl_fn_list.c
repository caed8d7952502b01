/*
 * tl_fn_list (program fn_list_check): the generated OpenXR function list (layer/gen/
 * xl_gen_functions.py over the installed 1.0.20 headers) against what those
 * headers are known to hold: the number of functions, and the platform
 * guard of a few. The list is included three times, with more guards
 * defined each time, so every "#if" the generator wrote is exercised.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define XL_FN(ret, name, params, args) #name,

static const char *const bare[] = {
#include "xl_fn_list.h"
};

#define XR_USE_GRAPHICS_API_VULKAN
static const char *const with_vulkan[] = {
#include "xl_fn_list.h"
};

#define XR_USE_TIMESPEC
static const char *const with_timespec[] = {
#include "xl_fn_list.h"
};

#define COUNT(list) (sizeof(list) / sizeof((list)[0]))

static bool has(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static int failures;

static void expect(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

int main(void)
{
	/* OpenXR 1.0.20: 141 functions outside any guard, 163 in all. */
	expect(XL_FN_TOTAL == 163, "163 functions in the 1.0.20 headers");
	expect(COUNT(bare) == 141, "141 functions without a platform guard");
	expect(COUNT(with_vulkan) == 149, "8 more under XR_USE_GRAPHICS_API_VULKAN");
	expect(COUNT(with_timespec) == 151, "2 more under XR_USE_TIMESPEC");

	expect(has(bare, COUNT(bare), "xrEndFrame"), "xrEndFrame unguarded");
	expect(has(bare, COUNT(bare), "xrGetInstanceProcAddr"), "xrGetInstanceProcAddr unguarded");
	expect(has(bare, COUNT(bare), "xrResultToString"), "xrResultToString (array parameter)");
	expect(!has(bare, COUNT(bare), "xrGetVulkanDeviceExtensionsKHR"),
	       "xrGetVulkanDeviceExtensionsKHR only under XR_USE_GRAPHICS_API_VULKAN");
	expect(has(with_vulkan, COUNT(with_vulkan), "xrGetVulkanDeviceExtensionsKHR"),
	       "xrGetVulkanDeviceExtensionsKHR under XR_USE_GRAPHICS_API_VULKAN");
	expect(has(with_vulkan, COUNT(with_vulkan), "xrCreateVulkanDeviceKHR"),
	       "xrCreateVulkanDeviceKHR under XR_USE_GRAPHICS_API_VULKAN");
	expect(!has(with_vulkan, COUNT(with_vulkan), "xrConvertTimespecTimeToTimeKHR"),
	       "xrConvertTimespecTimeToTimeKHR only under XR_USE_TIMESPEC");
	expect(has(with_timespec, COUNT(with_timespec), "xrConvertTimespecTimeToTimeKHR"),
	       "xrConvertTimespecTimeToTimeKHR under XR_USE_TIMESPEC");
	expect(!has(with_timespec, COUNT(with_timespec), "xrGetOpenGLGraphicsRequirementsKHR"),
	       "xrGetOpenGLGraphicsRequirementsKHR only under XR_USE_GRAPHICS_API_OPENGL");
	expect(!has(with_timespec, COUNT(with_timespec), "xrGetD3D11GraphicsRequirementsKHR"),
	       "xrGetD3D11GraphicsRequirementsKHR only under XR_USE_GRAPHICS_API_D3D11");
	if (failures)
		return 1;
	printf("PASS: %zu functions (%zu with Vulkan and timespec)\n", COUNT(bare),
	       COUNT(with_timespec));
	return 0;
}
