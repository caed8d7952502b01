/*
 * Vulkan instance/device creation through XR_KHR_vulkan_enable(2).
 */
#include "app_vk.h"

#include "app_check.h"

#include <stdlib.h>
#include <string.h>

/* Enough for timestamps and query resets in command buffers; 1.0 with --vk-1.0. */
static VkApplicationInfo app_info = {
	.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
	.pApplicationName = "xrlm-test-app",
	.pEngineName = "xrlm",
	.apiVersion = VK_API_VERSION_1_1,
};

bool app_xr_proc(XrInstance xr, const char *name, PFN_xrVoidFunction *fn)
{
	XrResult r = xrGetInstanceProcAddr(xr, name, fn);
	if (XR_SUCCEEDED(r) && *fn)
		return true;
	app_error("xrGetInstanceProcAddr(%s) failed", name);
	return false;
}

#define APP_XR_PROC(xr, name, var) app_xr_proc((xr), #name, (PFN_xrVoidFunction *)&(var))

/* The runtime's minimum must not be above the version we ask for. */
static bool check_requirements(const XrGraphicsRequirementsVulkanKHR *req)
{
	XrVersion ours = XR_MAKE_VERSION(1, 1, 0);
	if (XR_VERSION_MAJOR(req->minApiVersionSupported) > 1 ||
	    req->minApiVersionSupported > ours) {
		app_error("runtime needs Vulkan %u.%u, the app uses 1.1",
		          (unsigned)XR_VERSION_MAJOR(req->minApiVersionSupported),
		          (unsigned)XR_VERSION_MINOR(req->minApiVersionSupported));
		return false;
	}
	return true;
}

/* Picks a graphics queue family and notes its timestamp properties. */
static bool pick_queue(struct app_vk *vk)
{
	uint32_t count = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(vk->physical_device, &count, NULL);
	VkQueueFamilyProperties *fam = calloc(count ? count : 1, sizeof(*fam));
	if (!fam)
		return false;
	vkGetPhysicalDeviceQueueFamilyProperties(vk->physical_device, &count, fam);
	uint32_t i = 0;
	while (i < count && !(fam[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
		i++;
	uint32_t bits = i < count ? fam[i].timestampValidBits : 0;
	free(fam);
	if (i == count) {
		app_error("the XR runtime's Vulkan device has no graphics queue");
		return false;
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(vk->physical_device, &props);
	vk->queue_family = i;
	vk->ts_period_ns = props.limits.timestampPeriod;
	vk->ts_mask = bits == 0 ? 0 : bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	return true;
}

static const float queue_priority = 1.0f;

static VkDeviceQueueCreateInfo queue_info(const struct app_vk *vk)
{
	return (VkDeviceQueueCreateInfo){
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = vk->queue_family,
		.queueCount = 1,
		.pQueuePriorities = &queue_priority,
	};
}

static bool create_vulkan2(struct app_vk *vk, XrInstance xr, XrSystemId system)
{
	PFN_xrGetVulkanGraphicsRequirements2KHR get_req;
	PFN_xrCreateVulkanInstanceKHR create_instance;
	PFN_xrGetVulkanGraphicsDevice2KHR get_device;
	PFN_xrCreateVulkanDeviceKHR create_device;
	if (!APP_XR_PROC(xr, xrGetVulkanGraphicsRequirements2KHR, get_req) ||
	    !APP_XR_PROC(xr, xrCreateVulkanInstanceKHR, create_instance) ||
	    !APP_XR_PROC(xr, xrGetVulkanGraphicsDevice2KHR, get_device) ||
	    !APP_XR_PROC(xr, xrCreateVulkanDeviceKHR, create_device))
		return false;

	XrGraphicsRequirementsVulkan2KHR req = {.type = XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR};
	if (!APP_XR(get_req(xr, system, &req)) || !check_requirements(&req))
		return false;

	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app_info,
	};
	XrVulkanInstanceCreateInfoKHR xici = {
		.type = XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR,
		.systemId = system,
		.pfnGetInstanceProcAddr = vkGetInstanceProcAddr,
		.vulkanCreateInfo = &ici,
	};
	VkResult vr = VK_SUCCESS;
	if (!APP_XR(create_instance(xr, &xici, &vk->instance, &vr)) ||
	    !app_vk_ok(vr, "vkCreateInstance (in xrCreateVulkanInstanceKHR)"))
		return false;

	XrVulkanGraphicsDeviceGetInfoKHR gi = {
		.type = XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR,
		.systemId = system,
		.vulkanInstance = vk->instance,
	};
	if (!APP_XR(get_device(xr, &gi, &vk->physical_device)) || !pick_queue(vk))
		return false;

	VkDeviceQueueCreateInfo qci = queue_info(vk);
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
	};
	XrVulkanDeviceCreateInfoKHR xdci = {
		.type = XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR,
		.systemId = system,
		.pfnGetInstanceProcAddr = vkGetInstanceProcAddr,
		.vulkanPhysicalDevice = vk->physical_device,
		.vulkanCreateInfo = &dci,
	};
	return APP_XR(create_device(xr, &xdci, &vk->device, &vr)) &&
	       app_vk_ok(vr, "vkCreateDevice (in xrCreateVulkanDeviceKHR)");
}

/* A space-separated extension list, split in place into @p names. */
struct ext_list {
	char *buf;
	const char *names[64];
	uint32_t count;
};

typedef XrResult(XRAPI_PTR *app_get_ext_fn)(XrInstance, XrSystemId, uint32_t, uint32_t *, char *);

static bool get_extensions(XrInstance xr, XrSystemId system, app_get_ext_fn fn, struct ext_list *l)
{
	uint32_t len = 0;
	if (!APP_XR(fn(xr, system, 0, &len, NULL)))
		return false;
	l->buf = calloc(len + 1, 1);
	if (!l->buf || !APP_XR(fn(xr, system, len, &len, l->buf)))
		return false;
	for (char *save = NULL, *tok = strtok_r(l->buf, " ", &save); tok && l->count < 64;
	     tok = strtok_r(NULL, " ", &save))
		l->names[l->count++] = tok;
	return true;
}

static bool create_vulkan1(struct app_vk *vk, XrInstance xr, XrSystemId system)
{
	PFN_xrGetVulkanGraphicsRequirementsKHR get_req;
	PFN_xrGetVulkanInstanceExtensionsKHR get_inst_ext;
	PFN_xrGetVulkanGraphicsDeviceKHR get_device;
	PFN_xrGetVulkanDeviceExtensionsKHR get_dev_ext;
	if (!APP_XR_PROC(xr, xrGetVulkanGraphicsRequirementsKHR, get_req) ||
	    !APP_XR_PROC(xr, xrGetVulkanInstanceExtensionsKHR, get_inst_ext) ||
	    !APP_XR_PROC(xr, xrGetVulkanGraphicsDeviceKHR, get_device) ||
	    !APP_XR_PROC(xr, xrGetVulkanDeviceExtensionsKHR, get_dev_ext))
		return false;

	XrGraphicsRequirementsVulkanKHR req = {.type = XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN_KHR};
	if (!APP_XR(get_req(xr, system, &req)) || !check_requirements(&req))
		return false;

	struct ext_list inst_ext = {0}, dev_ext = {0};
	bool ok = get_extensions(xr, system, get_inst_ext, &inst_ext);
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app_info,
		.enabledExtensionCount = inst_ext.count,
		.ppEnabledExtensionNames = inst_ext.names,
	};
	ok = ok && APP_VK(vkCreateInstance(&ici, NULL, &vk->instance)) &&
	     APP_XR(get_device(xr, system, vk->instance, &vk->physical_device)) &&
	     pick_queue(vk) && get_extensions(xr, system, get_dev_ext, &dev_ext);
	if (ok) {
		VkDeviceQueueCreateInfo qci = queue_info(vk);
		VkDeviceCreateInfo dci = {
			.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
			.queueCreateInfoCount = 1,
			.pQueueCreateInfos = &qci,
			.enabledExtensionCount = dev_ext.count,
			.ppEnabledExtensionNames = dev_ext.names,
		};
		ok = APP_VK(vkCreateDevice(vk->physical_device, &dci, NULL, &vk->device));
	}
	free(inst_ext.buf);
	free(dev_ext.buf);
	return ok;
}

bool app_vk_create(struct app_vk *vk, XrInstance xr, XrSystemId system, enum app_graphics graphics,
                   bool vk_1_0)
{
	*vk = (struct app_vk){0};
	app_info.apiVersion = vk_1_0 ? VK_API_VERSION_1_0 : VK_API_VERSION_1_1;
	bool ok = graphics == APP_GRAPHICS_VULKAN2 ? create_vulkan2(vk, xr, system)
	                                           : create_vulkan1(vk, xr, system);
	if (ok)
		vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
	return ok;
}

void app_vk_destroy(struct app_vk *vk)
{
	if (vk->device)
		vkDestroyDevice(vk->device, NULL);
	if (vk->instance)
		vkDestroyInstance(vk->instance, NULL);
	*vk = (struct app_vk){0};
}

XrGraphicsBindingVulkanKHR app_vk_binding(const struct app_vk *vk)
{
	return (XrGraphicsBindingVulkanKHR){
		.type = XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR,
		.instance = vk->instance,
		.physicalDevice = vk->physical_device,
		.device = vk->device,
		.queueFamilyIndex = vk->queue_family,
		.queueIndex = 0,
	};
}
