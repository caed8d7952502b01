/*
 * The test app's Vulkan instance and device, created the way the runtime
 * asks: through XR_KHR_vulkan_enable2's xrCreateVulkan*KHR, or with the
 * extension strings of XR_KHR_vulkan_enable.
 */
#ifndef APP_VK_H
#define APP_VK_H

#include "app_args.h"

#include <vulkan/vulkan.h>
#define XR_USE_GRAPHICS_API_VULKAN
/* And OpenGL's types (no GL header needed), for --graphics egl's swapchain. */
#define XR_USE_GRAPHICS_API_OPENGL
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

/* The device and the one queue the app renders and times on. */
struct app_vk {
	VkInstance instance;
	VkPhysicalDevice physical_device;
	VkDevice device;
	uint32_t queue_family;
	VkQueue queue;
	double ts_period_ns; /* timestampPeriod */
	uint64_t ts_mask;    /* from timestampValidBits; 0: no timestamps on this queue */
};

/*
 * Creates the Vulkan instance and device for @p system with the method of
 * @p graphics (vulkan or vulkan2), for Vulkan API 1.0 when @p vk_1_0 (else
 * 1.1). On failure prints why, leaves @p vk
 * ready for app_vk_destroy() and returns false.
 */
bool app_vk_create(struct app_vk *vk, XrInstance xr, XrSystemId system, enum app_graphics graphics,
                   bool vk_1_0);

/* Destroys the device and instance (safe on a partly created @p vk). */
void app_vk_destroy(struct app_vk *vk);

/* The XrGraphicsBindingVulkanKHR for xrCreateSession (same struct for enable2). */
XrGraphicsBindingVulkanKHR app_vk_binding(const struct app_vk *vk);

/* Looks up an OpenXR extension function; prints and returns false if missing. */
bool app_xr_proc(XrInstance xr, const char *name, PFN_xrVoidFunction *fn);

#endif /* APP_VK_H */
