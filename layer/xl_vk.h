/*
 * The Vulkan entry points the layer uses on the application's device.
 *
 * The layer never loads Vulkan itself: it finds the loader the application
 * already has (dlopen with RTLD_NOLOAD), or uses the vkGetInstanceProcAddr
 * the application handed to XR_KHR_vulkan_enable2. A headless process never
 * sees a Vulkan call from us.
 */
#ifndef XL_VK_H
#define XL_VK_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

struct xl_vk {
	PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
	/* instance level */
	PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
	PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
	PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
	/* device level */
	PFN_vkGetDeviceQueue GetDeviceQueue;
	PFN_vkCreateQueryPool CreateQueryPool;
	PFN_vkDestroyQueryPool DestroyQueryPool;
	PFN_vkGetQueryPoolResults GetQueryPoolResults;
	PFN_vkCreateCommandPool CreateCommandPool;
	PFN_vkDestroyCommandPool DestroyCommandPool;
	PFN_vkAllocateCommandBuffers AllocateCommandBuffers;
	PFN_vkBeginCommandBuffer BeginCommandBuffer;
	PFN_vkEndCommandBuffer EndCommandBuffer;
	PFN_vkCmdResetQueryPool CmdResetQueryPool;
	PFN_vkCmdWriteTimestamp CmdWriteTimestamp;
	PFN_vkCreateFence CreateFence;
	PFN_vkDestroyFence DestroyFence;
	PFN_vkGetFenceStatus GetFenceStatus;
	PFN_vkResetFences ResetFences;
	PFN_vkWaitForFences WaitForFences;
	PFN_vkQueueSubmit QueueSubmit;
	/* timeline semaphores: core 1.2 or VK_KHR_timeline_semaphore; may be NULL */
	PFN_vkCreateSemaphore CreateSemaphore;
	PFN_vkDestroySemaphore DestroySemaphore;
	PFN_vkSignalSemaphore SignalSemaphore;
	/* VK_EXT_calibrated_timestamps; may be NULL */
	PFN_vkGetCalibratedTimestampsEXT GetCalibratedTimestamps;
};

/*
 * Finds the application's vkGetInstanceProcAddr: @p app_gipa when given,
 * else the loader already in the process. NULL if Vulkan is not loaded.
 */
PFN_vkGetInstanceProcAddr xl_vk_find_loader(PFN_vkGetInstanceProcAddr app_gipa);

/*
 * Loads every entry point above for @p device of @p instance. Returns false
 * if a required one is missing (the optional ones may stay NULL).
 */
bool xl_vk_load(struct xl_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device);

#endif /* XL_VK_H */
