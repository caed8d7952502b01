/*
 * The OpenXR loader <-> API layer / runtime negotiation ABI.
 *
 * Newer OpenXR SDKs ship this as <openxr/openxr_loader_negotiation.h>;
 * Debian 12's OpenXR 1.0.20 headers do not, so we declare the same ABI here
 * (see the OpenXR loader specification, "Loader/API layer interface
 * negotiation" and "Loader/runtime interface negotiation"). Where the system
 * header exists it is used instead, so the two can never disagree.
 *
 * Used by the monitor layers, the synthetic target layer and the test runtime.
 */
#ifndef XRLM_LOADER_ABI_H
#define XRLM_LOADER_ABI_H

#include <openxr/openxr.h>

#if defined(__has_include) && __has_include(<openxr/openxr_loader_negotiation.h>)
#include <openxr/openxr_loader_negotiation.h>
#else

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XR_CURRENT_LOADER_API_LAYER_VERSION 1
#define XR_CURRENT_LOADER_RUNTIME_VERSION 1
#define XR_LOADER_INFO_STRUCT_VERSION 1
#define XR_API_LAYER_INFO_STRUCT_VERSION 1
#define XR_RUNTIME_INFO_STRUCT_VERSION 1
#define XR_API_LAYER_NEXT_INFO_STRUCT_VERSION 1
#define XR_API_LAYER_CREATE_INFO_STRUCT_VERSION 1
#define XR_API_LAYER_MAX_SETTINGS_PATH_SIZE 512

typedef enum XrLoaderInterfaceStructs {
	XR_LOADER_INTERFACE_STRUCT_UNINTIALIZED = 0,
	XR_LOADER_INTERFACE_STRUCT_LOADER_INFO = 1,
	XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST = 2,
	XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST = 3,
	XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO = 4,
	XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO = 5,
	XR_LOADER_INTERFACE_STRUCTS_MAX_ENUM = 0x7FFFFFFF
} XrLoaderInterfaceStructs;

/* What the loader offers, passed to both negotiation functions. */
typedef struct XrNegotiateLoaderInfo {
	XrLoaderInterfaceStructs structType; /* ..._LOADER_INFO */
	uint32_t structVersion;              /* XR_LOADER_INFO_STRUCT_VERSION */
	size_t structSize;                   /* sizeof(XrNegotiateLoaderInfo) */
	uint32_t minInterfaceVersion;
	uint32_t maxInterfaceVersion;
	XrVersion minApiVersion;
	XrVersion maxApiVersion;
} XrNegotiateLoaderInfo;

struct XrApiLayerCreateInfo;

typedef XrResult(XRAPI_PTR *PFN_xrCreateApiLayerInstance)(
	const XrInstanceCreateInfo *info,
	const struct XrApiLayerCreateInfo *apiLayerInfo,
	XrInstance *instance);

/* What an API layer answers from xrNegotiateLoaderApiLayerInterface. */
typedef struct XrNegotiateApiLayerRequest {
	XrLoaderInterfaceStructs structType; /* ..._API_LAYER_REQUEST */
	uint32_t structVersion;              /* XR_API_LAYER_INFO_STRUCT_VERSION */
	size_t structSize;                   /* sizeof(XrNegotiateApiLayerRequest) */
	uint32_t layerInterfaceVersion;
	XrVersion layerApiVersion;
	PFN_xrGetInstanceProcAddr getInstanceProcAddr;
	PFN_xrCreateApiLayerInstance createApiLayerInstance;
} XrNegotiateApiLayerRequest;

/* What a runtime answers from xrNegotiateLoaderRuntimeInterface. */
typedef struct XrNegotiateRuntimeRequest {
	XrLoaderInterfaceStructs structType; /* ..._RUNTIME_REQUEST */
	uint32_t structVersion;              /* XR_RUNTIME_INFO_STRUCT_VERSION */
	size_t structSize;                   /* sizeof(XrNegotiateRuntimeRequest) */
	uint32_t runtimeInterfaceVersion;
	XrVersion runtimeApiVersion;
	PFN_xrGetInstanceProcAddr getInstanceProcAddr;
} XrNegotiateRuntimeRequest;

typedef XrResult(XRAPI_PTR *PFN_xrNegotiateLoaderApiLayerInterface)(
	const XrNegotiateLoaderInfo *loaderInfo, const char *layerName,
	XrNegotiateApiLayerRequest *apiLayerRequest);

typedef XrResult(XRAPI_PTR *PFN_xrNegotiateLoaderRuntimeInterface)(
	const XrNegotiateLoaderInfo *loaderInfo,
	XrNegotiateRuntimeRequest *runtimeRequest);

/* One element of the list of layers below the one being created. */
typedef struct XrApiLayerNextInfo {
	XrLoaderInterfaceStructs structType; /* ..._API_LAYER_NEXT_INFO */
	uint32_t structVersion;
	size_t structSize;
	char layerName[XR_MAX_API_LAYER_NAME_SIZE];
	PFN_xrGetInstanceProcAddr nextGetInstanceProcAddr;
	PFN_xrCreateApiLayerInstance nextCreateApiLayerInstance;
	struct XrApiLayerNextInfo *next;
} XrApiLayerNextInfo;

/* Handed to xrCreateApiLayerInstance; nextInfo is the layer directly below. */
typedef struct XrApiLayerCreateInfo {
	XrLoaderInterfaceStructs structType; /* ..._API_LAYER_CREATE_INFO */
	uint32_t structVersion;
	size_t structSize;
	void *loaderInstance;
	char settings_file_location[XR_API_LAYER_MAX_SETTINGS_PATH_SIZE];
	XrApiLayerNextInfo *nextInfo;
} XrApiLayerCreateInfo;

#ifdef __cplusplus
}
#endif

#endif /* system header */
#endif /* XRLM_LOADER_ABI_H */
