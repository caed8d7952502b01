/*
 * Loader negotiation checks shared by the test runtime and the target layer.
 */
#include "tc_negotiate.h"

/* The three header members every negotiation structure starts with. */
#define TC_HEADER_OK(s, type, version) \
	((s) && (s)->structType == (type) && (s)->structVersion == (version) && \
	 (s)->structSize == sizeof(*(s)))

/* @p info is well formed and offers @p interface_version. */
static bool loader_info_ok(const XrNegotiateLoaderInfo *info, uint32_t interface_version)
{
	return TC_HEADER_OK(info, XR_LOADER_INTERFACE_STRUCT_LOADER_INFO,
	                    XR_LOADER_INFO_STRUCT_VERSION) &&
	       info->minInterfaceVersion <= interface_version &&
	       info->maxInterfaceVersion >= interface_version;
}

bool tc_negotiate_runtime_ok(const XrNegotiateLoaderInfo *info,
                             const XrNegotiateRuntimeRequest *request)
{
	return loader_info_ok(info, XR_CURRENT_LOADER_RUNTIME_VERSION) &&
	       TC_HEADER_OK(request, XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST,
	                    XR_RUNTIME_INFO_STRUCT_VERSION);
}

bool tc_negotiate_layer_ok(const XrNegotiateLoaderInfo *info,
                           const XrNegotiateApiLayerRequest *request)
{
	return loader_info_ok(info, XR_CURRENT_LOADER_API_LAYER_VERSION) &&
	       TC_HEADER_OK(request, XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST,
	                    XR_API_LAYER_INFO_STRUCT_VERSION);
}
