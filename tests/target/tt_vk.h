/*
 * The Vulkan entry points the synthetic target uses, resolved at run time
 * from the libvulkan the application already loaded: the layer never links
 * libvulkan, so headless processes never load it because of us.
 */
#ifndef TT_VK_H
#define TT_VK_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

#define TT_VK_INSTANCE_FUNCS(X)                                                                    \
	X(vkGetDeviceProcAddr)                                                                     \
	X(vkGetPhysicalDeviceProperties)                                                           \
	X(vkGetPhysicalDeviceMemoryProperties)                                                     \
	X(vkGetPhysicalDeviceQueueFamilyProperties)

#define TT_VK_DEVICE_FUNCS(X)                                                                      \
	X(vkGetDeviceQueue)                                                                        \
	X(vkCreateBuffer)                                                                          \
	X(vkDestroyBuffer)                                                                         \
	X(vkGetBufferMemoryRequirements)                                                           \
	X(vkAllocateMemory)                                                                        \
	X(vkFreeMemory)                                                                            \
	X(vkBindBufferMemory)                                                                      \
	X(vkCreateCommandPool)                                                                     \
	X(vkDestroyCommandPool)                                                                    \
	X(vkAllocateCommandBuffers)                                                                \
	X(vkResetCommandBuffer)                                                                    \
	X(vkBeginCommandBuffer)                                                                    \
	X(vkEndCommandBuffer)                                                                      \
	X(vkCmdFillBuffer)                                                                         \
	X(vkCmdPipelineBarrier)                                                                    \
	X(vkCmdResetQueryPool)                                                                     \
	X(vkCmdWriteTimestamp)                                                                     \
	X(vkCreateQueryPool)                                                                       \
	X(vkDestroyQueryPool)                                                                      \
	X(vkGetQueryPoolResults)                                                                   \
	X(vkCreateFence)                                                                           \
	X(vkDestroyFence)                                                                          \
	X(vkWaitForFences)                                                                         \
	X(vkResetFences)                                                                           \
	X(vkGetFenceStatus)                                                                        \
	X(vkQueueSubmit)

#define TT_VK_DECLARE(name) PFN_##name name;

/* Dispatch table for one VkInstance/VkDevice pair. */
struct tt_vk {
	void *lib; /* dlopen handle of the already-loaded libvulkan */
	PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
	TT_VK_INSTANCE_FUNCS(TT_VK_DECLARE)
	TT_VK_DEVICE_FUNCS(TT_VK_DECLARE)
};

/*
 * Fills @p vk for @p instance and @p device. Fails (with a log line) if
 * libvulkan.so.1 is not already loaded in the process or an entry point is
 * missing. On failure nothing needs to be released.
 */
bool tt_vk_load(struct tt_vk *vk, VkInstance instance, VkDevice device);

/* Drops the reference on libvulkan taken by tt_vk_load(). */
void tt_vk_unload(struct tt_vk *vk);

/* True if @p r is VK_SUCCESS; else logs "WHAT failed: RESULT". */
bool tt_vk_ok(VkResult r, const char *what);

/* A short name for @p r, e.g. "VK_ERROR_DEVICE_LOST". */
const char *tt_vk_result_str(VkResult r);

#endif /* TT_VK_H */
