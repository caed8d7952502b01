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

/* Required instance-level functions: X(name) for vk<name>. */
#define XL_VK_INSTANCE_FUNCTIONS(X) \
	X(GetDeviceProcAddr)        \
	X(GetPhysicalDeviceProperties) \
	X(GetPhysicalDeviceQueueFamilyProperties) \
	X(GetPhysicalDeviceMemoryProperties)

/* Required device-level functions: X(name) for vk<name>. */
#define XL_VK_DEVICE_FUNCTIONS(X) \
	X(GetDeviceQueue)         \
	X(CreateQueryPool)        \
	X(DestroyQueryPool)       \
	X(GetQueryPoolResults)    \
	X(CreateCommandPool)      \
	X(DestroyCommandPool)     \
	X(AllocateCommandBuffers) \
	X(BeginCommandBuffer)     \
	X(EndCommandBuffer)       \
	X(CmdResetQueryPool)      \
	X(CmdWriteTimestamp)      \
	X(CreateFence)            \
	X(DestroyFence)           \
	X(GetFenceStatus)         \
	X(ResetFences)            \
	X(WaitForFences)          \
	X(QueueSubmit)            \
	X(CreateSemaphore)        \
	X(DestroySemaphore)       \
	X(CreateEvent)            \
	X(DestroyEvent)           \
	X(SetEvent)               \
	X(ResetEvent)             \
	X(CmdWaitEvents)          \
	X(CreateBuffer)           \
	X(DestroyBuffer)          \
	X(GetBufferMemoryRequirements) \
	X(AllocateMemory)         \
	X(FreeMemory)             \
	X(BindBufferMemory)       \
	X(CmdFillBuffer)          \
	X(CmdPipelineBarrier)

/*
 * Optional device-level functions, NULL where the device lacks them:
 * X(member, type, name). Calibrated timestamps: VK_EXT_calibrated_timestamps,
 * the extension pre enables (xl_gpu_device.c), never the KHR one's name: a
 * driver may answer for an extension the device was not created with. (The
 * timeline gate looks up vkSignalSemaphore, or its KHR name, by what the
 * device was created with: xl_gate.c.)
 */
#define XL_VK_OPTIONAL_FUNCTIONS(X) \
	X(GetCalibratedTimestamps, PFN_vkGetCalibratedTimestampsEXT, "vkGetCalibratedTimestampsEXT")

struct xl_vk {
	void *loader; /* our reference to libvulkan when the app gave no gipa; NULL else */
	PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
#define XL_VK_MEMBER(name) PFN_vk##name name;
	XL_VK_INSTANCE_FUNCTIONS(XL_VK_MEMBER)
	XL_VK_DEVICE_FUNCTIONS(XL_VK_MEMBER)
#undef XL_VK_MEMBER
#define XL_VK_MEMBER(member, type, name) type member;
	XL_VK_OPTIONAL_FUNCTIONS(XL_VK_MEMBER)
#undef XL_VK_MEMBER
};


/*
 * Finds the application's vkGetInstanceProcAddr: @p app_gipa when given,
 * else the loader already in the process, then holding a reference to it
 * in @p vk until xl_vk_release(). NULL if Vulkan is not loaded.
 */
PFN_vkGetInstanceProcAddr xl_vk_find_loader(struct xl_vk *vk, PFN_vkGetInstanceProcAddr app_gipa);

/* Drops the reference xl_vk_find_loader() took, if any. */
void xl_vk_release(struct xl_vk *vk);

/*
 * Loads every entry point above for @p device of @p instance. Returns false
 * if a required one is missing (the optional ones may stay NULL).
 */
bool xl_vk_load(struct xl_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device);

#endif /* XL_VK_H */
