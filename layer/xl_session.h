/*
 * The XrSession hooks: where each side sets up and tears down its GPU
 * timestamps for a session with a Vulkan binding, and (pre side, under
 * XR_KHR_vulkan_enable2) the Vulkan instance and device hooks that make the
 * gated mode possible.
 */
#ifndef XL_SESSION_H
#define XL_SESSION_H

#include "xl_gpu.h"

XRAPI_ATTR XrResult XRAPI_CALL xl_session_create(XrInstance instance,
                                                 const XrSessionCreateInfo *info,
                                                 XrSession *session);

XRAPI_ATTR XrResult XRAPI_CALL xl_session_destroy(XrSession session);

XRAPI_ATTR XrResult XRAPI_CALL xl_session_create_vulkan_instance(
	XrInstance instance, const XrVulkanInstanceCreateInfoKHR *info, VkInstance *vk_instance,
	VkResult *vk_result);

XRAPI_ATTR XrResult XRAPI_CALL xl_session_create_vulkan_device(
	XrInstance instance, const XrVulkanDeviceCreateInfoKHR *info, VkDevice *vk_device,
	VkResult *vk_result);

/* xrDestroyInstance with a session still alive: let go of its GPU state. */
void xl_session_abandon_gpu(void);

#endif /* XL_SESSION_H */
