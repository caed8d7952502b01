/*
 * Pre side, XR_KHR_vulkan_enable2 only: what the layer learns and adds when
 * the application creates its Vulkan instance and device through the
 * runtime. The gated GPU mode needs timeline semaphores, and clock
 * correlation needs VK_EXT_calibrated_timestamps (and, on a Vulkan 1.0
 * instance, VK_KHR_get_physical_device_properties2); where the physical
 * device supports them and the application did not enable them, pre adds
 * the feature and the extensions to xrCreateVulkanDeviceKHR's device (and
 * that one instance extension to xrCreateVulkanInstanceKHR's instance), and
 * changes nothing else. If the instance or the device cannot be created
 * that way, it is created exactly as the application asked.
 */
#ifndef XL_GPU_DEVICE_H
#define XL_GPU_DEVICE_H

#include "xl_vk.h"

#include <stdbool.h>
#include <stdint.h>

#include "xl_openxr.h"

/* What pre noted about the application's Vulkan instance and device. */
struct xl_gpu_device_note {
	VkInstance instance;            /* from xrCreateVulkanInstanceKHR */
	uint32_t instance_api;          /* its VkApplicationInfo::apiVersion */
	/* VK_KHR_get_physical_device_properties2 enabled on a 1.0 instance (by
	 * the application or by pre): VK_EXT_calibrated_timestamps may be. */
	bool props2;
	PFN_vkGetInstanceProcAddr gipa; /* the application's */
	VkDevice device;                /* from xrCreateVulkanDeviceKHR */
	bool timeline;                  /* timeline semaphores usable on device */
	bool timeline_khr;              /* ...through VK_KHR_timeline_semaphore */
	bool calibrated;                /* VK_EXT_calibrated_timestamps enabled */
	/* Why timeline is false, as XRLM_GPU_GATE=timeline's fallback says it
	 * (a static string; NULL while no device was noted). */
	const char *no_timeline_why;
};

/*
 * xrCreateVulkanInstanceKHR: notes the instance. On a Vulkan 1.0 instance
 * (when @p want_props2: GPU timestamps are on), adds
 * VK_KHR_get_physical_device_properties2, which VK_EXT_calibrated_timestamps
 * needs there, where the loader has it and the application did not ask for
 * it; if the instance cannot be created that way, it is created exactly as
 * the application asked.
 */
XrResult xl_gpu_device_create_instance(PFN_xrCreateVulkanInstanceKHR next, XrInstance instance,
                                       const XrVulkanInstanceCreateInfoKHR *info,
                                       VkInstance *vk_instance, VkResult *vk_result,
                                       bool want_props2, struct xl_gpu_device_note *note);

/*
 * xrCreateVulkanDeviceKHR: adds timeline semaphores (when @p want_timeline)
 * and calibrated timestamps where possible, and notes what the device has.
 */
XrResult xl_gpu_device_create_device(PFN_xrCreateVulkanDeviceKHR next, XrInstance instance,
                                     const XrVulkanDeviceCreateInfoKHR *info,
                                     VkDevice *vk_device, VkResult *vk_result,
                                     bool want_timeline, struct xl_gpu_device_note *note);

#endif /* XL_GPU_DEVICE_H */
