/*
 * The layers' reference to the application's Vulkan loader
 * (xl_vk_find_loader / xl_vk_release, layer/xl_vk.h): taken only where the
 * application has loaded libvulkan itself, and given back, so that an
 * application that closes its own handle unloads the library. This program
 * is not linked against libvulkan: it loads it as such an application does.
 */
#include "xl_vk.h"

#include <dlfcn.h>
#include <stdio.h>

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

static int loaded(void)
{
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (lib)
		dlclose(lib);
	return lib != NULL;
}

int main(void)
{
	struct xl_vk vk = {0};

	check(!xl_vk_find_loader(&vk, NULL) && !vk.loader, "found a loader nobody loaded");
	void *app = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!app) {
		fprintf(stderr, "FAIL: cannot load libvulkan.so.1: %s\n", dlerror());
		return 1;
	}
	/* Twice, as two sessions do. */
	for (int session = 0; session < 2; session++) {
		check(xl_vk_find_loader(&vk, NULL) != NULL && vk.loader, "the loaded loader not found");
		xl_vk_release(&vk);
		check(!vk.loader, "the reference kept after its release");
	}
	PFN_vkGetInstanceProcAddr app_gipa = (PFN_vkGetInstanceProcAddr)dlsym(app, "vkGetInstanceProcAddr");
	check(xl_vk_find_loader(&vk, app_gipa) == app_gipa && !vk.loader,
	      "the app's own vkGetInstanceProcAddr not used as it is");
	xl_vk_release(&vk);
	dlclose(app);
	check(!loaded(), "libvulkan still loaded after the application closed it");
	if (!failures)
		printf("-- the loader's reference taken only when loaded, and given back\n");
	return failures != 0;
}
