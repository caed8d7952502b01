/*
 * Vulkan entry points; see xl_vk.h.
 */
#define _GNU_SOURCE
#include "xl_vk.h"

#include <dlfcn.h>
#include <stddef.h>

PFN_vkGetInstanceProcAddr xl_vk_find_loader(PFN_vkGetInstanceProcAddr app_gipa)
{
	if (app_gipa)
		return app_gipa;
	/* RTLD_NOLOAD: only if the application has loaded Vulkan already. The
	 * handle is not closed: closing would only drop our extra reference,
	 * and the library stays loaded for the application anyway. */
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		return NULL;
	return (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
}

/* A device function under its core name or, failing that, its KHR/EXT alias. */
static PFN_vkVoidFunction device_proc(const struct xl_vk *vk, VkDevice device, const char *core,
                                      const char *alias)
{
	PFN_vkVoidFunction fn = core ? vk->GetDeviceProcAddr(device, core) : NULL;
	if (!fn && alias)
		fn = vk->GetDeviceProcAddr(device, alias);
	return fn;
}

bool xl_vk_load(struct xl_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device)
{
	vk->GetInstanceProcAddr = gipa;
#define INSTANCE(name) vk->name = (PFN_vk##name)gipa(instance, "vk" #name)
	INSTANCE(GetDeviceProcAddr);
	INSTANCE(GetPhysicalDeviceProperties);
	INSTANCE(GetPhysicalDeviceQueueFamilyProperties);
#undef INSTANCE
	if (!vk->GetDeviceProcAddr || !vk->GetPhysicalDeviceProperties ||
	    !vk->GetPhysicalDeviceQueueFamilyProperties)
		return false;

#define DEVICE(name) vk->name = (PFN_vk##name)device_proc(vk, device, "vk" #name, NULL)
	DEVICE(GetDeviceQueue);
	DEVICE(CreateQueryPool);
	DEVICE(DestroyQueryPool);
	DEVICE(GetQueryPoolResults);
	DEVICE(CreateCommandPool);
	DEVICE(DestroyCommandPool);
	DEVICE(AllocateCommandBuffers);
	DEVICE(BeginCommandBuffer);
	DEVICE(EndCommandBuffer);
	DEVICE(CmdResetQueryPool);
	DEVICE(CmdWriteTimestamp);
	DEVICE(CreateFence);
	DEVICE(DestroyFence);
	DEVICE(GetFenceStatus);
	DEVICE(ResetFences);
	DEVICE(WaitForFences);
	DEVICE(QueueSubmit);
	DEVICE(CreateSemaphore);
	DEVICE(DestroySemaphore);
#undef DEVICE
	vk->SignalSemaphore = (PFN_vkSignalSemaphore)device_proc(vk, device, "vkSignalSemaphore",
	                                                         "vkSignalSemaphoreKHR");
	vk->GetCalibratedTimestamps = (PFN_vkGetCalibratedTimestampsEXT)device_proc(
		vk, device, "vkGetCalibratedTimestampsKHR", "vkGetCalibratedTimestampsEXT");

	return vk->GetDeviceQueue && vk->CreateQueryPool && vk->DestroyQueryPool &&
	       vk->GetQueryPoolResults && vk->CreateCommandPool && vk->DestroyCommandPool &&
	       vk->AllocateCommandBuffers && vk->BeginCommandBuffer && vk->EndCommandBuffer &&
	       vk->CmdResetQueryPool && vk->CmdWriteTimestamp && vk->CreateFence &&
	       vk->DestroyFence && vk->GetFenceStatus && vk->ResetFences && vk->WaitForFences &&
	       vk->QueueSubmit && vk->CreateSemaphore && vk->DestroySemaphore;
}
