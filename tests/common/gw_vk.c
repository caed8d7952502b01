/*
 * Resolution of the GPU work's Vulkan entry points and result checks.
 */
#include "gw_vk.h"

bool gw_vk_load(struct gw_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device, gw_log_fn log)
{
	vk->log = log;
#define GW_VK_LOAD_INSTANCE(name)                                                                  \
	vk->name = (PFN_##name)gipa(instance, #name);                                              \
	if (!vk->name) {                                                                           \
		log("Vulkan entry point %s is missing", #name);                                   \
		return false;                                                                      \
	}
	GW_VK_INSTANCE_FUNCS(GW_VK_LOAD_INSTANCE)
#define GW_VK_LOAD_DEVICE(name)                                                                    \
	vk->name = (PFN_##name)vk->vkGetDeviceProcAddr(device, #name);                            \
	if (!vk->name) {                                                                           \
		log("Vulkan entry point %s is missing", #name);                                   \
		return false;                                                                      \
	}
	GW_VK_DEVICE_FUNCS(GW_VK_LOAD_DEVICE)
	return true;
}

static const char *result_str(VkResult r)
{
	switch (r) {
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

bool gw_vk_ok(const struct gw_vk *vk, VkResult r, const char *what)
{
	if (r == VK_SUCCESS)
		return true;
	vk->log("%s failed: %s (%d)", what, result_str(r), (int)r);
	return false;
}
