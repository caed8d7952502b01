/*
 * LD_PRELOAD shim (test fixture only): counts the references to the Vulkan
 * loader the monitor's layers take with dlopen() and give back with
 * dlclose() (calls from other libraries, the test runtime's and the
 * target's, are not counted), and prints both at exit
 * ("[dl-count] libvulkan opened=N closed=M"). The layers take
 * one (RTLD_NOLOAD) per Vulkan session and must give each back, however
 * the session ends: a reference kept leaves the loader mapped after an
 * application that loaded it itself closed it.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static atomic_uint opened, closed;

/* Whether the code at @p caller is one of the monitor's layers. */
static int from_monitor(const void *caller)
{
	Dl_info info;
	return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "xrlm_monitor");
}
static void *_Atomic vulkan; /* the handle: the same for every dlopen of it */

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
	void *(*next)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	void *handle = next ? next(file, mode) : NULL;

	if (handle && file && strstr(file, "libvulkan") && from_monitor(__builtin_return_address(0))) {
		atomic_store(&vulkan, handle);
		atomic_fetch_add(&opened, 1);
	}
	return handle;
}

__attribute__((visibility("default"))) int dlclose(void *handle)
{
	int (*next)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");

	if (handle == atomic_load(&vulkan) && atomic_load(&opened) &&
	    from_monitor(__builtin_return_address(0)))
		atomic_fetch_add(&closed, 1);
	return next ? next(handle) : -1;
}

__attribute__((destructor)) static void report(void)
{
	fprintf(stderr, "[dl-count] libvulkan opened=%u closed=%u\n", atomic_load(&opened),
	        atomic_load(&closed));
}
