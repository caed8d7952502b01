/*
 * The target's access to Vulkan: vkGetInstanceProcAddr of the libvulkan the
 * application already loaded. The layer never links libvulkan, so headless
 * processes never load it because of us; everything else is resolved
 * through this pointer (tests/common/gw_vk.h).
 */
#ifndef TT_VK_H
#define TT_VK_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

struct tt_vk {
	void *lib; /* dlopen handle of the already-loaded libvulkan */
	PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
};

/*
 * Finds vkGetInstanceProcAddr. Fails (with a log line) if libvulkan.so.1 is
 * not already loaded in the process. On failure nothing needs releasing.
 */
bool tt_vk_load(struct tt_vk *vk);

/* Drops the reference on libvulkan taken by tt_vk_load(). */
void tt_vk_unload(struct tt_vk *vk);

#endif /* TT_VK_H */
