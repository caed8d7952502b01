/*
 * A layer library's entry points, negotiated as the loader does; see tl_negotiate.h.
 */
#include "tl_negotiate.h"

#include <dlfcn.h>
#include <stdio.h>

XrNegotiateLoaderInfo tl_loader_info(void)
{
	return (XrNegotiateLoaderInfo){
		.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO,
		.structVersion = XR_LOADER_INFO_STRUCT_VERSION,
		.structSize = sizeof(XrNegotiateLoaderInfo),
		.minInterfaceVersion = 1,
		.maxInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION,
		.minApiVersion = XR_MAKE_VERSION(1, 0, 0),
		.maxApiVersion = XR_MAKE_VERSION(1, 0x3ff, 0xfff), /* the loader's */
	};
}

XrNegotiateApiLayerRequest tl_layer_request(void)
{
	return (XrNegotiateApiLayerRequest){
		.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST,
		.structVersion = XR_API_LAYER_INFO_STRUCT_VERSION,
		.structSize = sizeof(XrNegotiateApiLayerRequest),
	};
}

XrApiLayerNextInfo tl_next_info(const char *name, PFN_xrGetInstanceProcAddr gipa,
                                PFN_xrCreateApiLayerInstance create, XrApiLayerNextInfo *next)
{
	XrApiLayerNextInfo n = {
		.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO,
		.structVersion = XR_API_LAYER_NEXT_INFO_STRUCT_VERSION,
		.structSize = sizeof(n),
		.nextGetInstanceProcAddr = gipa,
		.nextCreateApiLayerInstance = create,
		.next = next,
	};
	snprintf(n.layerName, sizeof(n.layerName), "%s", name);
	return n;
}

XrApiLayerCreateInfo tl_create_info(XrApiLayerNextInfo *next)
{
	return (XrApiLayerCreateInfo){
		.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO,
		.structVersion = XR_API_LAYER_CREATE_INFO_STRUCT_VERSION,
		.structSize = sizeof(XrApiLayerCreateInfo),
		.nextInfo = next,
	};
}

bool tl_negotiate(void *lib, XrNegotiateApiLayerRequest *request)
{
	PFN_xrNegotiateLoaderApiLayerInterface negotiate_fn =
		(PFN_xrNegotiateLoaderApiLayerInterface)dlsym(lib, "xrNegotiateLoaderApiLayerInterface");
	XrNegotiateLoaderInfo info = tl_loader_info();
	*request = tl_layer_request();
	return negotiate_fn && negotiate_fn(&info, NULL, request) == XR_SUCCESS &&
	       request->getInstanceProcAddr && request->createApiLayerInstance;
}
