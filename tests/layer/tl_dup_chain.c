/*
 * The monitor's library twice in one chain (a loader from 1.0.30 on
 * enables every manifest of a name it finds: a manifest directory listed
 * twice): the outer copy leaves the inner one out of the chain it passes
 * down, and xrGetInstanceProcAddr answers with the layer below them.
 * Before, both copies kept the next layer's entry per instance, the outer
 * one's its own function, and a lookup recursed until the stack overflowed.
 *
 * The real library, loaded and negotiated as the loader does, twice above
 * a stand-in for the rest of the chain.
 * Usage: tl_dup_chain LAYER_LIBRARY LAYER_NAME
 */
#include "tl_negotiate.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FAKE_INSTANCE ((XrInstance)(uintptr_t)0x5ca1ab1e)

static int failed(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	return 1;
}

static int bottom_creates, bottom_destroys;

static XRAPI_ATTR XrResult XRAPI_CALL bottom_destroy(XrInstance instance)
{
	bottom_destroys += instance == FAKE_INSTANCE;
	return XR_SUCCESS;
}

/* The rest of the chain: answers xrDestroyInstance, nothing else. */
static XRAPI_ATTR XrResult XRAPI_CALL bottom_gipa(XrInstance instance, const char *name,
                                                  PFN_xrVoidFunction *function)
{
	(void)instance;
	*function = strcmp(name, "xrDestroyInstance") == 0 ? (PFN_xrVoidFunction)bottom_destroy : NULL;
	return *function ? XR_SUCCESS : XR_ERROR_FUNCTION_UNSUPPORTED;
}

static XRAPI_ATTR XrResult XRAPI_CALL bottom_create(const XrInstanceCreateInfo *create,
                                                    const struct XrApiLayerCreateInfo *info,
                                                    XrInstance *instance)
{
	(void)create, (void)info;
	bottom_creates++;
	*instance = FAKE_INSTANCE;
	return XR_SUCCESS;
}

int main(int argc, char **argv)
{
	XrNegotiateApiLayerRequest layer;

	if (argc != 3)
		return failed("usage: tl_dup_chain LAYER_LIBRARY LAYER_NAME");
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib || !tl_negotiate(lib, &layer))
		return failed("cannot load and negotiate with the layer");
	/* The loader's chain: the layer, the layer again, the rest. */
	XrApiLayerNextInfo rest = tl_next_info("XR_APILAYER_rest", bottom_gipa, bottom_create, NULL);
	XrApiLayerNextInfo inner = tl_next_info(argv[2], layer.getInstanceProcAddr,
	                                        layer.createApiLayerInstance, &rest);
	XrApiLayerCreateInfo info = tl_create_info(&inner);
	XrInstanceCreateInfo create = {.type = XR_TYPE_INSTANCE_CREATE_INFO};
	snprintf(create.applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE, "tl_dup_chain");
	create.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
	XrInstance instance = XR_NULL_HANDLE;

	if (layer.createApiLayerInstance(&create, &info, &instance) != XR_SUCCESS ||
	    instance != FAKE_INSTANCE)
		return failed("the instance was not created through the chain");
	if (bottom_creates != 1)
		return failed("the rest of the chain was not created once");
	PFN_xrVoidFunction destroy = NULL;
	/* Before, this lookup recursed until the stack overflowed. */
	if (layer.getInstanceProcAddr(instance, "xrDestroyInstance", &destroy) != XR_SUCCESS || !destroy)
		return failed("no xrDestroyInstance through the layer");
	if (((PFN_xrDestroyInstance)destroy)(instance) != XR_SUCCESS || bottom_destroys != 1)
		return failed("xrDestroyInstance did not reach the rest of the chain once");
	printf("the layer's second copy was left out of the chain\n");
	return 0;
}
