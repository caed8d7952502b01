/*
 * The loader's entry into the layer: negotiation, instance creation and
 * destruction, and xrGetInstanceProcAddr. Only
 * xrNegotiateLoaderApiLayerInterface is exported (see exports.map).
 *
 * Every function this layer does not intercept is handed out as the next
 * layer's own pointer, so it costs the application nothing; an instance the
 * layer does not monitor (disabled, misordered, a second concurrent one)
 * gets nothing but the next layer's pointers.
 */
#define _GNU_SOURCE
#include "loader_abi.h"
#include "xl_files.h"
#include "xl_instance.h"
#include "xl_log.h"
#include "xl_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 32768 records (1.3 MB): 30 s of frames at 1 kHz if the writer stalls. */
#define RING_CAPACITY (1u << 15)

struct xl_instance xl_inst;

/* The next layer's xrGetInstanceProcAddr: the same function for every instance. */
static PFN_xrGetInstanceProcAddr next_gipa;

static XRAPI_ATTR XrResult XRAPI_CALL layer_get_instance_proc_addr(XrInstance instance,
                                                                   const char *name,
                                                                   PFN_xrVoidFunction *function);
static XRAPI_ATTR XrResult XRAPI_CALL layer_destroy_instance(XrInstance instance);

/*
 * Opens the output directory safely (see xl_files_open_dir) and the log in
 * it; says once, on stderr too, why it cannot be used. From then on @p dir
 * is the directory's resolved path, the one every message names.
 */
static int open_output_dir(char *dir, size_t dir_size)
{
	char why[512], resolved[XL_PATH_MAX];

	int dir_fd = xl_files_open_dir(dir, why, sizeof(why));
	xl_log_open(dir_fd, xl_side.name);
	if (dir_fd < 0) {
		xl_log_loud("output directory %s cannot be used: %s; nothing will be recorded", dir,
		            why);
		return -1;
	}
	if (xl_files_dir_path(dir_fd, resolved, sizeof(resolved)) && strcmp(resolved, dir) != 0) {
		xl_log("output directory %s resolves to %s", dir, resolved);
		snprintf(dir, dir_size, "%s", resolved);
	}
	return dir_fd;
}

/* Settings, log and side checks, before the chain below creates the instance. */
static bool begin_instance(const XrApiLayerCreateInfo *info)
{
	char *dir = xl_inst.settings.output_dir, warning[256];

	memset(&xl_inst, 0, sizeof(xl_inst));
	xl_settings_output_dir(dir, sizeof(xl_inst.settings.output_dir), warning, sizeof(warning));
	xl_inst.dir_fd = open_output_dir(dir, sizeof(xl_inst.settings.output_dir));
	if (warning[0])
		xl_log("setting ignored: %s", warning);
	xl_settings_load(&xl_inst.settings);

	pthread_mutex_init(&xl_inst.gpu.lock, NULL);
	if (xl_ring_create(&xl_inst.ring, RING_CAPACITY) != 0) {
		xl_log("out of memory for the frame ring: nothing will be recorded");
		return false;
	}
	xl_inst.ring_ready = true;
	return xl_side_before_create(&xl_inst, info);
}

static void end_instance(void)
{
	xl_session_abandon_gpu();
	if (xl_inst.ring_ready)
		xl_ring_destroy(&xl_inst.ring);
	pthread_mutex_destroy(&xl_inst.gpu.lock);
	xl_control_unref(xl_inst.ctl);
	if (xl_inst.dir_fd >= 0)
		close(xl_inst.dir_fd);
	xl_log_close();
	memset(&xl_inst, 0, sizeof(xl_inst));
}

static bool resolve(XrInstance instance, const char *name, PFN_xrVoidFunction *out)
{
	*out = NULL;
	return next_gipa(instance, name, out) == XR_SUCCESS && *out;
}

static bool resolve_dispatch(XrInstance instance)
{
	struct xl_dispatch *d = &xl_inst.next;

	d->GetInstanceProcAddr = next_gipa;
	/* Optional: present only when the application enabled XR_KHR_vulkan_enable2. */
	resolve(instance, "xrCreateVulkanInstanceKHR", (PFN_xrVoidFunction *)&d->CreateVulkanInstanceKHR);
	resolve(instance, "xrCreateVulkanDeviceKHR", (PFN_xrVoidFunction *)&d->CreateVulkanDeviceKHR);
	return resolve(instance, "xrDestroyInstance", (PFN_xrVoidFunction *)&d->DestroyInstance) &&
	       resolve(instance, "xrEndFrame", (PFN_xrVoidFunction *)&d->EndFrame) &&
	       resolve(instance, "xrGetInstanceProperties",
	               (PFN_xrVoidFunction *)&d->GetInstanceProperties) &&
	       resolve(instance, "xrCreateSession", (PFN_xrVoidFunction *)&d->CreateSession) &&
	       resolve(instance, "xrDestroySession", (PFN_xrVoidFunction *)&d->DestroySession);
}

static void log_instance(XrInstance instance, const XrInstanceCreateInfo *create)
{
	const XrApplicationInfo *app = &create->applicationInfo;
	XrInstanceProperties props = {.type = XR_TYPE_INSTANCE_PROPERTIES};
	const struct xl_settings *s = &xl_inst.settings;

	if (xl_inst.next.GetInstanceProperties(instance, &props) != XR_SUCCESS)
		snprintf(props.runtimeName, sizeof(props.runtimeName), "(unknown)");
	xl_log("instance: app \"%.128s\" %u, engine \"%.128s\" %u, API %u.%u.%u; runtime \"%.128s\" "
	       "%u.%u.%u; pid %d", app->applicationName, app->applicationVersion, app->engineName,
	       app->engineVersion, XR_VERSION_MAJOR(app->apiVersion),
	       XR_VERSION_MINOR(app->apiVersion), XR_VERSION_PATCH(app->apiVersion),
	       props.runtimeName, XR_VERSION_MAJOR(props.runtimeVersion),
	       XR_VERSION_MINOR(props.runtimeVersion), XR_VERSION_PATCH(props.runtimeVersion),
	       (int)getpid());
	xl_log("clock: CLOCK_MONOTONIC, 1 ns; output directory: %s", xl_inst.ctl->output_dir);
	xl_log("GPU mode: %s%s", xl_settings_gpu_mode_name(s->gpu_mode),
	       s->gpu_mode == XL_GPU_OFF ? " (no GPU timestamps, GPU columns stay blank)"
	       : s->gpu_mode == XL_GPU_AUTO ? " (gated where the device allows it, else sandwich)"
	                                    : "");
	if (xl_side.index != XL_SIDE_PRE)
		return;
	if (s->delay_s >= 0.0)
		xl_log("recording starts %.3f s after the first frame", s->delay_s);
	else if (s->record_at_start)
		xl_log("recording starts at the first frame (XRLM_RECORD=1)");
	if (s->frame_limit)
		xl_log("recording stops after %llu frames", (unsigned long long)s->frame_limit);
	if (s->time_limit_s > 0.0)
		xl_log("recording stops after %.3f s", s->time_limit_s);
}

/* Starts monitoring the instance the chain just created. */
static bool finish_instance(XrInstance instance, const XrInstanceCreateInfo *create)
{
	if (!resolve_dispatch(instance)) {
		xl_log("the next layer lacks xrEndFrame or xrDestroyInstance: nothing will be recorded");
		return false;
	}
	xl_inst.handle = instance;
	log_instance(instance, create);

	struct xl_writer_config cfg = {
		.side = xl_side.index,
		.meta = {xl_side.name, xl_side.layer_name, xl_inst.ctl->target_layer, -1},
		.ctl = xl_inst.ctl,
		.ring = &xl_inst.ring,
		.gpu = &xl_inst.gpu,
		.session_closed = xl_side_session_closed(),
		.ctx = xl_inst.ctl,
		.dir_fd = xl_inst.dir_fd,
	};
	if (xl_writer_start(&xl_inst.writer, &cfg) != 0)
		return false;
	if (!xl_side_after_create(&xl_inst)) {
		xl_writer_stop(&xl_inst.writer);
		return false;
	}
	return true;
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_create_instance(const XrInstanceCreateInfo *create,
                                                          const XrApiLayerCreateInfo *info,
                                                          XrInstance *instance)
{
	if (!info || info->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO ||
	    !info->nextInfo ||
	    info->nextInfo->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO ||
	    !info->nextInfo->nextCreateApiLayerInstance || !info->nextInfo->nextGetInstanceProcAddr)
		return XR_ERROR_INITIALIZATION_FAILED;

	const XrApiLayerNextInfo *next = info->nextInfo;
	bool monitor = xl_inst.handle == XR_NULL_HANDLE &&
	               !xl_settings_layer_disabled(xl_side.layer_name);
	if (monitor && !begin_instance(info)) {
		end_instance();
		monitor = false;
	}
	next_gipa = next->nextGetInstanceProcAddr;

	XrApiLayerCreateInfo down = *info;
	down.nextInfo = next->next;
	XrResult result = next->nextCreateApiLayerInstance(create, &down, instance);
	if (!monitor)
		return result;
	if (XR_FAILED(result) || !finish_instance(*instance, create)) {
		if (xl_side.index == XL_SIDE_PRE && xl_inst.ctl)
			xl_control_stop_now(xl_inst.ctl);
		end_instance();
		return result;
	}
	xl_inst.monitoring = true;
	return result;
}

/* Stops recording, finishes this side's files (post: the merge) and joins the thread. */
static void stop_monitoring(void)
{
	xl_side_before_destroy(&xl_inst);
	xl_writer_stop(&xl_inst.writer);
	xl_inst.monitoring = false;
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_destroy_instance(XrInstance instance)
{
	if (instance != xl_inst.handle || !xl_inst.monitoring) {
		PFN_xrDestroyInstance destroy = NULL;
		if (!resolve(instance, "xrDestroyInstance", (PFN_xrVoidFunction *)&destroy))
			return XR_ERROR_HANDLE_INVALID;
		return destroy(instance);
	}
	PFN_xrDestroyInstance destroy = xl_inst.next.DestroyInstance;
	stop_monitoring();
	xl_session_abandon_gpu();
	XrResult result = destroy(instance);
	xl_log("instance destroyed");
	end_instance();
	return result;
}

/*
 * The process is exiting (or the library is being unloaded) with an
 * instance still monitored: finish the session and its merge, as
 * xrDestroyInstance would, without touching the chain.
 */
__attribute__((destructor)) static void layer_at_exit(void)
{
	if (!xl_inst.monitoring)
		return;
	xl_log("process exiting with the instance alive: finishing the recording");
	stop_monitoring();
	end_instance();
}

/* The functions this layer wraps; everything else is the next layer's own. */
static const struct {
	const char *name;
	PFN_xrVoidFunction wrapper;
	bool pre_only; /* the Vulkan device hooks belong to pre alone */
} wrappers[] = {
	{"xrGetInstanceProcAddr", (PFN_xrVoidFunction)layer_get_instance_proc_addr, false},
	{"xrDestroyInstance", (PFN_xrVoidFunction)layer_destroy_instance, false},
	{"xrEndFrame", (PFN_xrVoidFunction)xl_side_end_frame, false},
	{"xrCreateSession", (PFN_xrVoidFunction)xl_session_create, false},
	{"xrDestroySession", (PFN_xrVoidFunction)xl_session_destroy, false},
	{"xrCreateVulkanInstanceKHR", (PFN_xrVoidFunction)xl_session_create_vulkan_instance, true},
	{"xrCreateVulkanDeviceKHR", (PFN_xrVoidFunction)xl_session_create_vulkan_device, true},
};

/* Our wrapper for @p name, or @p next (the next layer's function) if there is none. */
static PFN_xrVoidFunction wrapper_for(const char *name, PFN_xrVoidFunction next)
{
	for (size_t i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++) {
		if (strcmp(name, wrappers[i].name) != 0)
			continue;
		if (wrappers[i].pre_only && xl_side.index != XL_SIDE_PRE)
			return next;
		return wrappers[i].wrapper;
	}
	return next;
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_get_instance_proc_addr(XrInstance instance,
                                                                   const char *name,
                                                                   PFN_xrVoidFunction *function)
{
	if (!name || !function)
		return XR_ERROR_VALIDATION_FAILURE;
	if (xl_side_private_proc(name, function))
		return XR_SUCCESS;
	if (!next_gipa) {
		*function = NULL;
		return XR_ERROR_HANDLE_INVALID;
	}
	/* Whatever the next layer answers stands; we only swap in our wrapper. */
	XrResult result = next_gipa(instance, name, function);
	if (result != XR_SUCCESS || instance != xl_inst.handle || !xl_inst.monitoring)
		return result;
	*function = wrapper_for(name, *function);
	return result;
}

static XrVersion negotiated_api_version(const XrNegotiateLoaderInfo *info)
{
	XrVersion v = XR_CURRENT_API_VERSION;
	return v > info->maxApiVersion ? info->maxApiVersion : v;
}

/* The one exported symbol: the loader looks it up by name. */
__attribute__((visibility("default"))) XRAPI_ATTR XrResult XRAPI_CALL xrNegotiateLoaderApiLayerInterface(
	const XrNegotiateLoaderInfo *info, const char *layer_name,
	XrNegotiateApiLayerRequest *request)
{
	if (!info || !request || info->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
	    info->structVersion != XR_LOADER_INFO_STRUCT_VERSION ||
	    info->structSize != sizeof(*info) ||
	    request->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST ||
	    request->structVersion != XR_API_LAYER_INFO_STRUCT_VERSION ||
	    request->structSize != sizeof(*request))
		return XR_ERROR_INITIALIZATION_FAILED;
	if (layer_name && strcmp(layer_name, xl_side.layer_name) != 0)
		return XR_ERROR_INITIALIZATION_FAILED;
	if (info->minInterfaceVersion > XR_CURRENT_LOADER_API_LAYER_VERSION ||
	    info->maxInterfaceVersion < XR_CURRENT_LOADER_API_LAYER_VERSION ||
	    negotiated_api_version(info) < info->minApiVersion)
		return XR_ERROR_INITIALIZATION_FAILED;

	request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
	request->layerApiVersion = negotiated_api_version(info);
	request->getInstanceProcAddr = layer_get_instance_proc_addr;
	request->createApiLayerInstance = layer_create_instance;
	return XR_SUCCESS;
}
