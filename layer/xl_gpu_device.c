/*
 * Pre side: noting and extending the application's Vulkan device under
 * XR_KHR_vulkan_enable2; see xl_gpu_device.h.
 */
#include "xl_gpu_device.h"

#include "xl_log.h"

#include <stdlib.h>
#include <string.h>

#define TIMELINE_EXT "VK_KHR_timeline_semaphore"
#define CALIBRATED_EXT "VK_EXT_calibrated_timestamps"
#define PROPS2_EXT "VK_KHR_get_physical_device_properties2"

/* Whether extension @p ext is among a request's @p count enabled @p names. */
static bool requested(const char *const *names, uint32_t count, const char *ext)
{
	for (uint32_t i = 0; i < count; i++)
		if (strcmp(names[i], ext) == 0)
			return true;
	return false;
}

/* Whether the Vulkan loader behind @p gipa offers instance extension @p ext. */
static bool instance_offers(PFN_vkGetInstanceProcAddr gipa, const char *ext)
{
	PFN_vkEnumerateInstanceExtensionProperties fn =
		gipa ? (PFN_vkEnumerateInstanceExtensionProperties)gipa(
			       NULL, "vkEnumerateInstanceExtensionProperties")
		     : NULL;
	uint32_t count = 0;
	bool found = false;

	if (!fn || fn(NULL, &count, NULL) != VK_SUCCESS || count == 0)
		return false;
	VkExtensionProperties *exts = calloc(count, sizeof(*exts));
	if (!exts)
		return false;
	fn(NULL, &count, exts); /* VK_INCOMPLETE still fills count of them */
	for (uint32_t i = 0; i < count && !found; i++)
		found = strcmp(exts[i].extensionName, ext) == 0;
	free(exts);
	return found;
}

/*
 * Creates the instance with @p ext added to the application's request;
 * false (and a log line) if that failed, with nothing created.
 */
static bool create_with(PFN_xrCreateVulkanInstanceKHR next, XrInstance instance,
                        const XrVulkanInstanceCreateInfoKHR *info, const char *ext,
                        VkInstance *vk_instance, VkResult *vk_result, XrResult *r)
{
	const VkInstanceCreateInfo *app = info->vulkanCreateInfo;
	const char **exts = calloc(app->enabledExtensionCount + 1, sizeof(*exts));

	if (!exts)
		return false;
	if (app->enabledExtensionCount) /* the array may be NULL when empty */
		memcpy(exts, app->ppEnabledExtensionNames, app->enabledExtensionCount * sizeof(*exts));
	exts[app->enabledExtensionCount] = ext;
	VkInstanceCreateInfo ci = *app;
	ci.enabledExtensionCount = app->enabledExtensionCount + 1;
	ci.ppEnabledExtensionNames = exts;
	XrVulkanInstanceCreateInfoKHR changed = *info;
	changed.vulkanCreateInfo = &ci;
	/* Into our own variables: a failed try must leave the application's
	 * as they were, for the try with its exact request. */
	VkInstance inst = VK_NULL_HANDLE;
	VkResult vr = VK_ERROR_INITIALIZATION_FAILED;
	*r = next(instance, &changed, &inst, &vr);
	free(exts);
	if (XR_SUCCEEDED(*r) && vr == VK_SUCCESS) {
		*vk_instance = inst;
		*vk_result = vr;
		return true;
	}
	if (XR_SUCCEEDED(*r))
		xl_log("creating the Vulkan instance with %s failed (VkResult %d); creating it "
		       "exactly as the application asked", ext, vr);
	return false;
}

XrResult xl_gpu_device_create_instance(PFN_xrCreateVulkanInstanceKHR next, XrInstance instance,
                                       const XrVulkanInstanceCreateInfoKHR *info,
                                       VkInstance *vk_instance, VkResult *vk_result,
                                       bool want_props2, struct xl_gpu_device_note *note)
{
	const VkInstanceCreateInfo *ci = info ? info->vulkanCreateInfo : NULL;
	uint32_t api = ci && ci->pApplicationInfo && ci->pApplicationInfo->apiVersion
	                       ? ci->pApplicationInfo->apiVersion
	                       : VK_API_VERSION_1_0;
	bool props2 = ci && api < VK_API_VERSION_1_1 &&
	              requested(ci->ppEnabledExtensionNames, ci->enabledExtensionCount, PROPS2_EXT);
	XrResult r;

	/* Below Vulkan 1.1, VK_EXT_calibrated_timestamps (the GPU clock's
	 * correlation with CLOCK_MONOTONIC: the timeline's GPU track) needs
	 * VK_KHR_get_physical_device_properties2 on the instance: added where
	 * the loader has it (the runtime may add it too, unseen by pre). */
	if (want_props2 && ci && vk_instance && vk_result && api < VK_API_VERSION_1_1 && !props2 &&
	    instance_offers(info->pfnGetInstanceProcAddr, PROPS2_EXT) &&
	    create_with(next, instance, info, PROPS2_EXT, vk_instance, vk_result, &r))
		props2 = true;
	else
		r = next(instance, info, vk_instance, vk_result);
	if (XR_FAILED(r) || !info || !vk_instance || !vk_result || *vk_result != VK_SUCCESS)
		return r;
	memset(note, 0, sizeof(*note));
	note->instance = *vk_instance;
	note->gipa = info->pfnGetInstanceProcAddr;
	note->instance_api = api;
	note->props2 = props2;
	return r;
}

/* What the physical device offers and the application's request already has. */
struct device_survey {
	uint32_t api;             /* effective: min(instance, physical device) */
	uint32_t instance_api;    /* the application's instance's */
	bool props2;              /* VK_KHR_get_physical_device_properties2 on a 1.0 instance */
	bool timeline_supported;
	bool has_khr_ext, has_calibrated_ext;        /* offered by the device */
	bool app_khr_ext, app_calibrated_ext;        /* requested by the app */
	const VkBaseOutStructure *app_timeline_feature; /* in the app's pNext chain */
	bool app_timeline_on;
};

static void survey_chain(const VkDeviceCreateInfo *ci, struct device_survey *s)
{
	for (const VkBaseOutStructure *p = ci->pNext; p; p = p->pNext) {
		if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
			s->app_timeline_feature = p;
			s->app_timeline_on = ((const VkPhysicalDeviceVulkan12Features *)p)->timelineSemaphore;
		} else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES) {
			s->app_timeline_feature = p;
			s->app_timeline_on =
				((const VkPhysicalDeviceTimelineSemaphoreFeatures *)p)->timelineSemaphore;
		}
	}
}

static bool survey_device(const struct xl_gpu_device_note *note,
                          const XrVulkanDeviceCreateInfoKHR *info, struct device_survey *s)
{
	PFN_vkGetInstanceProcAddr gipa = info->pfnGetInstanceProcAddr;
	VkPhysicalDevice phys = info->vulkanPhysicalDevice;
	const VkDeviceCreateInfo *ci = info->vulkanCreateInfo;

	memset(s, 0, sizeof(*s));
	PFN_vkGetPhysicalDeviceProperties props_fn =
		(PFN_vkGetPhysicalDeviceProperties)gipa(note->instance, "vkGetPhysicalDeviceProperties");
	PFN_vkGetPhysicalDeviceFeatures2 features_fn =
		(PFN_vkGetPhysicalDeviceFeatures2)gipa(note->instance, "vkGetPhysicalDeviceFeatures2");
	PFN_vkEnumerateDeviceExtensionProperties ext_fn = (PFN_vkEnumerateDeviceExtensionProperties)gipa(
		note->instance, "vkEnumerateDeviceExtensionProperties");
	if (!props_fn || !ext_fn)
		return false;

	VkPhysicalDeviceProperties props;
	props_fn(phys, &props);
	s->api = props.apiVersion < note->instance_api ? props.apiVersion : note->instance_api;
	s->props2 = note->props2;
	s->instance_api = note->instance_api;
	/* vkGetPhysicalDeviceFeatures2 is core in 1.1: below that, no timeline. */
	if (s->api >= VK_API_VERSION_1_1 && features_fn) {
		VkPhysicalDeviceTimelineSemaphoreFeatures tl = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
		VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		                                .pNext = &tl};
		features_fn(phys, &f2);
		s->timeline_supported = tl.timelineSemaphore;
	}

	uint32_t count = 0;
	ext_fn(phys, NULL, &count, NULL);
	VkExtensionProperties *exts = calloc(count ? count : 1, sizeof(*exts));
	if (!exts)
		return false;
	ext_fn(phys, NULL, &count, exts);
	for (uint32_t i = 0; i < count; i++) {
		s->has_khr_ext |= strcmp(exts[i].extensionName, TIMELINE_EXT) == 0;
		s->has_calibrated_ext |= strcmp(exts[i].extensionName, CALIBRATED_EXT) == 0;
	}
	free(exts);
	s->app_khr_ext = requested(ci->ppEnabledExtensionNames, ci->enabledExtensionCount, TIMELINE_EXT);
	s->app_calibrated_ext =
		requested(ci->ppEnabledExtensionNames, ci->enabledExtensionCount, CALIBRATED_EXT);
	survey_chain(ci, s);
	return true;
}

/* The changed request: the application's, plus what pre adds. */
struct device_request {
	VkDeviceCreateInfo ci;
	VkPhysicalDeviceTimelineSemaphoreFeatures timeline_feature;
	const char **exts;
	bool timeline, timeline_khr, calibrated; /* what the device will have */
	bool changed;
	const char *no_timeline_why; /* when !timeline */
};

/*
 * Why pre does not add timeline semaphores to a request without the
 * application's own feature structure. A runtime may still enable them
 * itself (Monado does, beside its own VK_KHR_get_physical_device_properties2
 * on the instance), unseen by pre: so "not enabled by pre", not "absent".
 */
static const char *no_timeline_reason(const struct device_survey *s, bool want_timeline)
{
	if (!want_timeline)
		return "XRLM_GPU_GATE is not timeline";
	if (s->instance_api < VK_API_VERSION_1_1)
		return "the application's Vulkan instance is 1.0, and pre enables timeline semaphores "
		       "from Vulkan 1.1 only (the runtime may have enabled them for itself, which pre "
		       "cannot see)";
	if (s->api < VK_API_VERSION_1_1)
		return "the physical device is Vulkan 1.0, and pre enables timeline semaphores from "
		       "Vulkan 1.1 only";
	if (!s->timeline_supported)
		return "the physical device does not support timeline semaphores";
	return "the device offers no VK_KHR_timeline_semaphore below Vulkan 1.2";
}

static bool plan_request(const VkDeviceCreateInfo *app, const struct device_survey *s,
                         bool want_timeline, struct device_request *req)
{
	memset(req, 0, sizeof(*req));
	req->ci = *app;
	req->exts = calloc(app->enabledExtensionCount + 2, sizeof(*req->exts));
	if (!req->exts)
		return false;
	if (app->enabledExtensionCount) /* the array may be NULL when empty */
		memcpy(req->exts, app->ppEnabledExtensionNames,
		       app->enabledExtensionCount * sizeof(*req->exts));
	req->ci.ppEnabledExtensionNames = req->exts;

	/* Timeline semaphores: core from 1.2, else the KHR extension. */
	bool core = s->api >= VK_API_VERSION_1_2;
	if (s->app_timeline_feature) {
		/* The application decided; its structure is not ours to edit. */
		req->timeline = s->app_timeline_on && (core || s->app_khr_ext);
		req->no_timeline_why = "the application's device request has them off";
	} else if (want_timeline && s->timeline_supported && (core || s->has_khr_ext)) {
		req->timeline = true;
		req->timeline_feature.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
		req->timeline_feature.pNext = (void *)app->pNext;
		req->timeline_feature.timelineSemaphore = VK_TRUE;
		req->ci.pNext = &req->timeline_feature;
		req->changed = true;
		if (!core && !s->app_khr_ext)
			req->exts[req->ci.enabledExtensionCount++] = TIMELINE_EXT;
	} else {
		req->no_timeline_why = no_timeline_reason(s, want_timeline);
	}
	req->timeline_khr = req->timeline && !core;

	/* The extension needs VK_KHR_get_physical_device_properties2 below
	 * Vulkan 1.1: on a 1.0 instance only where pre knows it is there (the
	 * application's request, or pre's addition to it). */
	req->calibrated = s->app_calibrated_ext;
	if (!req->calibrated && s->has_calibrated_ext &&
	    (s->api >= VK_API_VERSION_1_1 || s->props2)) {
		req->exts[req->ci.enabledExtensionCount++] = CALIBRATED_EXT;
		req->calibrated = true;
		req->changed = true;
	}
	return true;
}

/* Creates the device with pre's additions; false (and a log line) if that failed. */
static bool create_changed(PFN_xrCreateVulkanDeviceKHR next, XrInstance instance,
                           const XrVulkanDeviceCreateInfoKHR *info, const struct device_request *req,
                           VkDevice *vk_device, VkResult *vk_result, XrResult *r)
{
	XrVulkanDeviceCreateInfoKHR changed = *info;
	changed.vulkanCreateInfo = &req->ci;
	/* Into our own variables, as create_with()'s instance. */
	VkDevice dev = VK_NULL_HANDLE;
	VkResult vr = VK_ERROR_INITIALIZATION_FAILED;
	*r = next(instance, &changed, &dev, &vr);
	if (XR_SUCCEEDED(*r) && vr == VK_SUCCESS) {
		*vk_device = dev;
		*vk_result = vr;
		return true;
	}
	xl_log("creating the Vulkan device with timeline semaphores / calibrated timestamps "
	       "failed (XrResult %d, VkResult %d); creating it exactly as the application asked",
	       *r, XR_SUCCEEDED(*r) ? vr : VK_SUCCESS);
	return false;
}

XrResult xl_gpu_device_create_device(PFN_xrCreateVulkanDeviceKHR next, XrInstance instance,
                                     const XrVulkanDeviceCreateInfoKHR *info,
                                     VkDevice *vk_device, VkResult *vk_result,
                                     bool want_timeline, struct xl_gpu_device_note *note)
{
	struct device_survey survey;
	struct device_request req;
	XrResult r;

	if (!info || !info->vulkanCreateInfo || !info->pfnGetInstanceProcAddr || !vk_device ||
	    !vk_result || !note->instance || !survey_device(note, info, &survey) ||
	    !plan_request(info->vulkanCreateInfo, &survey, want_timeline, &req))
		return next(instance, info, vk_device, vk_result);

	if (!req.changed || !create_changed(next, instance, info, &req, vk_device, vk_result, &r)) {
		const char *why = req.changed && req.timeline ? "creating the device with them failed"
		                                              : req.no_timeline_why;
		/* Exactly the application's request: nothing of ours can fail it. */
		req.timeline = survey.app_timeline_on && (survey.api >= VK_API_VERSION_1_2 ||
		                                          survey.app_khr_ext);
		req.timeline_khr = req.timeline && survey.api < VK_API_VERSION_1_2;
		req.calibrated = survey.app_calibrated_ext;
		req.no_timeline_why = why;
		r = next(instance, info, vk_device, vk_result);
	}
	free(req.exts);
	if (XR_FAILED(r) || *vk_result != VK_SUCCESS)
		return r;

	note->device = *vk_device;
	note->timeline = req.timeline;
	note->timeline_khr = req.timeline_khr;
	note->calibrated = req.calibrated;
	note->no_timeline_why = req.no_timeline_why ? req.no_timeline_why
	                                            : "the device has no timeline semaphores";
	xl_log("Vulkan device (API %u.%u): timeline semaphores %s%s, calibrated timestamps %s",
	       VK_API_VERSION_MAJOR(survey.api), VK_API_VERSION_MINOR(survey.api),
	       req.timeline ? "on" : "off", req.timeline_khr ? " (KHR extension)" : "",
	       req.calibrated ? "on" : "off");
	return r;
}
