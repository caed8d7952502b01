/*
 * Run-time access to the application's libvulkan.
 */
#include "tt_vk.h"

#include "tt_log.h"

#include <dlfcn.h>

bool tt_vk_load(struct tt_vk *vk)
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
	if (vk->vkGetInstanceProcAddr)
		return true;
	tt_log("libvulkan.so.1 has no vkGetInstanceProcAddr");
	tt_vk_unload(vk);
	return false;
}

void tt_vk_unload(struct tt_vk *vk)
{
	if (vk->lib)
		dlclose(vk->lib);
	vk->lib = NULL;
}
