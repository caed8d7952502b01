/*
 * Run-time resolution of the target's Vulkan entry points.
 */
#define _GNU_SOURCE
#include "tt_vk.h"

#include "tt_log.h"

#include <dlfcn.h>

bool tt_vk_load(struct tt_vk *vk, VkInstance instance, VkDevice device)
{
	/* RTLD_NOLOAD: use the loader the application loaded, never pull one
	 * in ourselves (a process without it has no Vulkan device anyway). */
	vk->lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!vk->lib) {
		tt_log("libvulkan.so.1 is not loaded in this process; no GPU work possible");
		return false;
	}
	vk->vkGetInstanceProcAddr =
		(PFN_vkGetInstanceProcAddr)dlsym(vk->lib, "vkGetInstanceProcAddr");
	if (!vk->vkGetInstanceProcAddr) {
		tt_log("libvulkan.so.1 has no vkGetInstanceProcAddr");
		goto fail;
	}
#define TT_VK_LOAD_INSTANCE(name)                                                                  \
	vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(instance, #name);                        \
	if (!vk->name) {                                                                           \
		tt_log("Vulkan entry point %s is missing", #name);                                \
		goto fail;                                                                         \
	}
	TT_VK_INSTANCE_FUNCS(TT_VK_LOAD_INSTANCE)
#define TT_VK_LOAD_DEVICE(name)                                                                    \
	vk->name = (PFN_##name)vk->vkGetDeviceProcAddr(device, #name);                            \
	if (!vk->name) {                                                                           \
		tt_log("Vulkan entry point %s is missing", #name);                                \
		goto fail;                                                                         \
	}
	TT_VK_DEVICE_FUNCS(TT_VK_LOAD_DEVICE)
	return true;
fail:
	tt_vk_unload(vk);
	return false;
}

void tt_vk_unload(struct tt_vk *vk)
{
	if (vk->lib)
		dlclose(vk->lib);
	vk->lib = NULL;
}

bool tt_vk_ok(VkResult r, const char *what)
{
	if (r == VK_SUCCESS)
		return true;
	tt_log("%s failed: %s (%d)", what, tt_vk_result_str(r), (int)r);
	return false;
}

const char *tt_vk_result_str(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_NOT_READY: return "VK_NOT_READY";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
	default: return "VkResult (other)";
	}
}
