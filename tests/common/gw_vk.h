/*
 * The Vulkan entry points of the test bed's GPU work, resolved through a
 * caller-supplied vkGetInstanceProcAddr: the synthetic target gets it from
 * the libvulkan the application already loaded (it must not link one), the
 * test app from the loader it links.
 */
#ifndef GW_VK_H
#define GW_VK_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

/* Log sink: one line, no trailing newline (tt_log, app_error). */
typedef void (*gw_log_fn)(const char *fmt, ...);

#define GW_VK_INSTANCE_FUNCS(X)                                                                    \
	X(vkGetDeviceProcAddr)                                                                     \
	X(vkGetPhysicalDeviceProperties)                                                           \
	X(vkGetPhysicalDeviceMemoryProperties)                                                     \
	X(vkGetPhysicalDeviceQueueFamilyProperties)

#define GW_VK_DEVICE_FUNCS(X)                                                                      \
	X(vkGetDeviceQueue)                                                                        \
	X(vkCreateBuffer)                                                                          \
	X(vkDestroyBuffer)                                                                         \
	X(vkGetBufferMemoryRequirements)                                                           \
	X(vkAllocateMemory)                                                                        \
	X(vkFreeMemory)                                                                            \
	X(vkMapMemory)                                                                             \
	X(vkBindBufferMemory)                                                                      \
	X(vkCreateCommandPool)                                                                     \
	X(vkDestroyCommandPool)                                                                    \
	X(vkAllocateCommandBuffers)                                                                \
	X(vkBeginCommandBuffer)                                                                    \
	X(vkEndCommandBuffer)                                                                      \
	X(vkCmdFillBuffer)                                                                         \
	X(vkCmdPipelineBarrier)                                                                    \
	X(vkCmdResetQueryPool)                                                                     \
	X(vkCmdWriteTimestamp)                                                                     \
	X(vkCreateQueryPool)                                                                       \
	X(vkDestroyQueryPool)                                                                      \
	X(vkCmdCopyQueryPoolResults)                                                               \
	X(vkCreateFence)                                                                           \
	X(vkDestroyFence)                                                                          \
	X(vkWaitForFences)                                                                         \
	X(vkResetFences)                                                                           \
	X(vkGetFenceStatus)                                                                        \
	X(vkQueueSubmit)

#define GW_VK_DECLARE(name) PFN_##name name;

/* Dispatch table for one VkInstance/VkDevice pair. */
struct gw_vk {
	gw_log_fn log;
	GW_VK_INSTANCE_FUNCS(GW_VK_DECLARE)
	GW_VK_DEVICE_FUNCS(GW_VK_DECLARE)
};

/*
 * Fills @p vk for @p instance and @p device through @p gipa. Logs the first
 * missing entry point and returns false.
 */
bool gw_vk_load(struct gw_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device, gw_log_fn log);

/* True if @p r is VK_SUCCESS; else logs "WHAT failed: RESULT". */
bool gw_vk_ok(const struct gw_vk *vk, VkResult r, const char *what);

#endif /* GW_VK_H */
