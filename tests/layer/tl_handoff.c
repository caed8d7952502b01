/*
 * Post lets go of the control block pre handed it when post's instance
 * creation never took it (the layer between them failed xrCreateInstance
 * without calling down): pre asks for that through post's private
 * xrlmPrivateDetachControl once its creation is over. Before, post's
 * reference stayed in the thread's handoff for ever: the block leaked.
 *
 * The real post library, loaded as the loader does; the block is made by
 * this build's xl_control.c (the same layout as the library's).
 * Usage: tl_handoff POST_LIBRARY
 */
#include "loader_abi.h"
#include "xl_control.h"
#include "xl_instance.h"

#include <dlfcn.h>
#include <stdio.h>

static int failed(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	return 1;
}

/* Post's xrGetInstanceProcAddr, negotiated as the loader does; NULL on failure. */
static PFN_xrGetInstanceProcAddr negotiate(void *lib)
{
	PFN_xrNegotiateLoaderApiLayerInterface negotiate_fn =
		(PFN_xrNegotiateLoaderApiLayerInterface)dlsym(lib, "xrNegotiateLoaderApiLayerInterface");
	XrNegotiateLoaderInfo info = {
		.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO,
		.structVersion = XR_LOADER_INFO_STRUCT_VERSION,
		.structSize = sizeof(info),
		.minInterfaceVersion = 1,
		.maxInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION,
		.minApiVersion = XR_MAKE_VERSION(1, 0, 0),
		.maxApiVersion = XR_CURRENT_API_VERSION,
	};
	XrNegotiateApiLayerRequest request = {
		.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST,
		.structVersion = XR_API_LAYER_INFO_STRUCT_VERSION,
		.structSize = sizeof(request),
	};
	if (!negotiate_fn || negotiate_fn(&info, NULL, &request) != XR_SUCCESS)
		return NULL;
	return request.getInstanceProcAddr;
}

int main(int argc, char **argv)
{
	struct xl_settings settings = {.delay_s = -1.0};
	PFN_xrVoidFunction attach = NULL, detach = NULL;

	if (argc != 2)
		return failed("usage: tl_handoff POST_LIBRARY");
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	PFN_xrGetInstanceProcAddr gipa = lib ? negotiate(lib) : NULL;
	if (!gipa)
		return failed("cannot load and negotiate with the post library");
	if (gipa(XR_NULL_HANDLE, ATTACH_PROC_NAME, &attach) != XR_SUCCESS || !attach)
		return failed("post has no " ATTACH_PROC_NAME);
	struct xl_control *ctl = xl_control_create(&settings);
	if (!ctl)
		return failed("out of memory");

	/* Pre's creation hands the block over; the target fails before post's runs. */
	((xl_attach_fn)attach)(ctl);
	if (atomic_load(&ctl->refs) != 2)
		return failed("the attach did not take post's reference");
	if (gipa(XR_NULL_HANDLE, DETACH_PROC_NAME, &detach) != XR_SUCCESS || !detach)
		return failed("post has no " DETACH_PROC_NAME ": its reference to the block leaks");
	((xl_detach_fn)detach)();
	if (atomic_load(&ctl->refs) != 1)
		return failed("post kept its reference to a block its creation never took");
	/* Again, with nothing handed over: nothing to let go. */
	((xl_detach_fn)detach)();
	if (atomic_load(&ctl->refs) != 1)
		return failed("a detach with nothing handed over dropped a reference");
	xl_control_unref(ctl);
	dlclose(lib);
	printf("post let go of the block its creation never took\n");
	return 0;
}
