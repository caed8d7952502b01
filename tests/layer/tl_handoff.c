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
#include "tl_negotiate.h"

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
	XrNegotiateApiLayerRequest request;
	return tl_negotiate(lib, &request) ? request.getInstanceProcAddr : NULL;
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
