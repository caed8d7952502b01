/*
 * Loader negotiation, instance creation and xrGetInstanceProcAddr of the
 * synthetic target layer. Everything not hooked goes to the next layer.
 */
#include "tt_layer.h"

#include "tc_negotiate.h"
#include "tt_fn.h"
#include "tt_knobs.h"
#include "tt_log.h"
#include "tt_registry.h"

#include <stdlib.h>
#include <string.h>

static struct tt_registry instances = TT_REGISTRY_INIT;

struct tt_instance *tt_instance_find(XrInstance handle)
{
	return tt_registry_find(&instances, (uint64_t)handle);
}

static XrResult XRAPI_CALL tt_xrDestroyInstance(XrInstance instance)
{
	struct tt_instance *inst = tt_instance_find(instance);
	if (!inst)
		return XR_ERROR_HANDLE_INVALID;
	tt_session_destroy_all(inst);
	tt_fn_log_summary();
	XrResult r = inst->next_destroy_instance(instance);
	tt_registry_take(&instances, (uint64_t)instance);
	free(inst);
	return r;
}

/*
 * Every function the next layer has, and every one the target hooks, is
 * handed out as its generated wrapper (tt_fn.h); a name the next layer
 * refuses is refused as it refuses it.
 */
static XrResult XRAPI_CALL tt_xrGetInstanceProcAddr(XrInstance instance, const char *name,
                                                    PFN_xrVoidFunction *function)
{
	if (strcmp(name, "xrGetInstanceProcAddr") == 0) {
		*function = (PFN_xrVoidFunction)tt_xrGetInstanceProcAddr;
		return XR_SUCCESS;
	}
	PFN_xrVoidFunction hook = tt_session_hook(name);
	if (!hook && strcmp(name, "xrDestroyInstance") == 0)
		hook = (PFN_xrVoidFunction)tt_xrDestroyInstance;
	if (hook) {
		*function = tt_fn_wrap(name, hook);
		return XR_SUCCESS;
	}
	struct tt_instance *inst = tt_instance_find(instance);
	if (!inst) {
		*function = NULL;
		return XR_ERROR_HANDLE_INVALID;
	}
	XrResult r = inst->next_gipa(instance, name, function);
	if (XR_SUCCEEDED(r))
		*function = tt_fn_wrap(name, *function);
	return r;
}

static bool lookup(struct tt_instance *inst, const char *name, PFN_xrVoidFunction *fn)
{
	if (XR_SUCCEEDED(inst->next_gipa(inst->handle, name, fn)) && *fn)
		return true;
	tt_log("the next layer has no %s", name);
	return false;
}

/* The functions the target's own calls need, only when a knob asks for them
 * (every look-up shows in the chain below). */
static bool own_calls_init(struct tt_instance *inst)
{
	struct tt_calls calls;
	if (!tt_session_own_calls(&calls))
		return true;
	for (int c = 0; c < TT_CALLEE_COUNT; c++)
		if (calls.n[c] && !lookup(inst, tt_callee_name((enum tt_callee)c), &inst->next_callee[c]))
			return false;
	return lookup(inst, "xrCreateReferenceSpace",
	              (PFN_xrVoidFunction *)&inst->next_create_reference_space) &&
	       lookup(inst, "xrDestroySpace", (PFN_xrVoidFunction *)&inst->next_destroy_space);
}

static bool instance_init(struct tt_instance *inst)
{
	return lookup(inst, "xrDestroyInstance", (PFN_xrVoidFunction *)&inst->next_destroy_instance) &&
	       lookup(inst, "xrCreateSession", (PFN_xrVoidFunction *)&inst->next_create_session) &&
	       lookup(inst, "xrDestroySession", (PFN_xrVoidFunction *)&inst->next_destroy_session) &&
	       lookup(inst, "xrEndFrame", (PFN_xrVoidFunction *)&inst->next_end_frame) &&
	       own_calls_init(inst);
}

static XrResult XRAPI_CALL tt_xrCreateApiLayerInstance(const XrInstanceCreateInfo *info,
                                                       const XrApiLayerCreateInfo *layer_info,
                                                       XrInstance *out)
{
	if (!layer_info || !layer_info->nextInfo)
		return XR_ERROR_INITIALIZATION_FAILED;
	tt_knobs_get(); /* log the settings once, at the first instance */
	tt_fn_knobs_init();

	struct tt_instance *inst = calloc(1, sizeof(*inst));
	if (!inst)
		return XR_ERROR_OUT_OF_MEMORY;
	/* The layer below gets the chain minus us. */
	XrApiLayerCreateInfo next_info = *layer_info;
	next_info.nextInfo = layer_info->nextInfo->next;
	XrResult r = layer_info->nextInfo->nextCreateApiLayerInstance(info, &next_info, out);
	if (XR_FAILED(r)) {
		free(inst);
		return r;
	}
	inst->handle = *out;
	inst->next_gipa = layer_info->nextInfo->nextGetInstanceProcAddr;
	if (!instance_init(inst) || !tt_registry_add(&instances, (uint64_t)*out, inst)) {
		if (inst->next_destroy_instance)
			inst->next_destroy_instance(*out);
		free(inst);
		return XR_ERROR_INITIALIZATION_FAILED;
	}
	return XR_SUCCESS;
}

/* The layer's only exported symbol (see tt_exports.map). */
__attribute__((visibility("default"))) XRAPI_ATTR XrResult XRAPI_CALL
xrNegotiateLoaderApiLayerInterface(const XrNegotiateLoaderInfo *loader_info,
                                   const char *layer_name, XrNegotiateApiLayerRequest *request)
{
	if (!layer_name || !tc_negotiate_layer_ok(loader_info, request)) {
		tt_log("loader negotiation failed: unsupported loader interface");
		return XR_ERROR_INITIALIZATION_FAILED;
	}
	if (strcmp(layer_name, TT_LAYER_NAME) != 0) {
		tt_log("loader negotiation failed: asked for layer \"%s\"", layer_name);
		return XR_ERROR_INITIALIZATION_FAILED;
	}
	request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
	request->layerApiVersion = XR_CURRENT_API_VERSION;
	request->getInstanceProcAddr = tt_xrGetInstanceProcAddr;
	request->createApiLayerInstance = tt_xrCreateApiLayerInstance;
	return XR_SUCCESS;
}
