/*
 * Vulkan entry points; see xl_vk.h.
 */
#include "xl_vk.h"

#include <dlfcn.h>
#include <stddef.h>

PFN_vkGetInstanceProcAddr xl_vk_find_loader(struct xl_vk *vk, PFN_vkGetInstanceProcAddr app_gipa)
{
	vk->loader = NULL;
	if (app_gipa)
		return app_gipa;
	/* RTLD_NOLOAD: only if the application has loaded Vulkan already. The
	 * reference is held while we call into it: the app may close its own. */
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		return NULL;
	PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
	if (!gipa) {
		dlclose(lib);
		return NULL;
	}
	vk->loader = lib;
	return gipa;
}

void xl_vk_release(struct xl_vk *vk)
{
	if (vk->loader)
		dlclose(vk->loader);
	vk->loader = NULL;
}

bool xl_vk_load(struct xl_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                VkDevice device)
{
	bool ok = true;

	vk->GetInstanceProcAddr = gipa;
#define LOAD(name) ok = (vk->name = (PFN_vk##name)gipa(instance, "vk" #name)) && ok;
	XL_VK_INSTANCE_FUNCTIONS(LOAD)
#undef LOAD
	if (!ok)
		return false;
#define LOAD(name) ok = (vk->name = (PFN_vk##name)vk->GetDeviceProcAddr(device, "vk" #name)) && ok;
	XL_VK_DEVICE_FUNCTIONS(LOAD)
#undef LOAD
#define LOAD(member, type, name) vk->member = (type)vk->GetDeviceProcAddr(device, name);
	XL_VK_OPTIONAL_FUNCTIONS(LOAD)
#undef LOAD
	return ok;
}
