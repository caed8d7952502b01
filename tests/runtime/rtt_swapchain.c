/*
 * Swapchains on a real VkDevice (lavapipe), set up the XR_KHR_vulkan_enable2
 * way: acquire/wait/release order and index cycling, xrEndFrame refusing a
 * swapchain with no released image or a rect outside it, formats the
 * runtime does not offer.
 */
#include "rtt_common.h"

#include <vulkan/vulkan.h>
#define XR_USE_GRAPHICS_API_VULKAN 1
#include <openxr/openxr_platform.h>

#include <stdio.h>
#include <string.h>

struct vk {
	VkInstance instance;
	VkPhysicalDevice physical;
	VkDevice device;
	uint32_t family;
};

#define GET(xr, name) \
	PFN_##name name = NULL; \
	xrGetInstanceProcAddr((xr)->instance, #name, (PFN_xrVoidFunction *)&name)

static bool create_instance(struct rtt_xr *xr)
{
	const char *ext = XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME;
	XrInstanceCreateInfo ici = {.type = XR_TYPE_INSTANCE_CREATE_INFO,
	                            .enabledExtensionCount = 1, .enabledExtensionNames = &ext};
	snprintf(ici.applicationInfo.applicationName, sizeof(ici.applicationInfo.applicationName),
	         "xrlm-runtime-swapchain-test");
	ici.applicationInfo.apiVersion = XR_CURRENT_API_VERSION;
	XrSystemGetInfo sgi = {.type = XR_TYPE_SYSTEM_GET_INFO,
	                       .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
	return rtt_expect("xrCreateInstance", xrCreateInstance(&ici, &xr->instance), XR_SUCCESS) &&
	       rtt_expect("xrGetSystem", xrGetSystem(xr->instance, &sgi, &xr->system), XR_SUCCESS);
}

static bool create_vulkan(struct rtt_xr *xr, struct vk *vk)
{
	GET(xr, xrGetVulkanGraphicsRequirements2KHR);
	GET(xr, xrCreateVulkanInstanceKHR);
	GET(xr, xrGetVulkanGraphicsDevice2KHR);
	GET(xr, xrCreateVulkanDeviceKHR);
	XrGraphicsRequirementsVulkan2KHR req = {.type = XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR};
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
	                         .apiVersion = VK_API_VERSION_1_0};
	VkInstanceCreateInfo vici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
	                             .pApplicationInfo = &app};
	XrVulkanInstanceCreateInfoKHR xici = {.type = XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR,
	                                      .systemId = xr->system,
	                                      .pfnGetInstanceProcAddr = vkGetInstanceProcAddr,
	                                      .vulkanCreateInfo = &vici};
	VkResult vr = VK_ERROR_UNKNOWN;
	if (!rtt_expect("xrGetVulkanGraphicsRequirements2KHR",
	                xrGetVulkanGraphicsRequirements2KHR(xr->instance, xr->system, &req), XR_SUCCESS) ||
	    !rtt_expect("xrCreateVulkanInstanceKHR",
	                xrCreateVulkanInstanceKHR(xr->instance, &xici, &vk->instance, &vr), XR_SUCCESS) ||
	    vr != VK_SUCCESS)
		return rtt_fail("no Vulkan instance (VkResult %d)", vr);
	XrVulkanGraphicsDeviceGetInfoKHR gi = {.type = XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR,
	                                       .systemId = xr->system, .vulkanInstance = vk->instance};
	if (!rtt_expect("xrGetVulkanGraphicsDevice2KHR",
	                xrGetVulkanGraphicsDevice2KHR(xr->instance, &gi, &vk->physical), XR_SUCCESS))
		return false;
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
	                               .queueFamilyIndex = 0, .queueCount = 1, .pQueuePriorities = &prio};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
	                          .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
	XrVulkanDeviceCreateInfoKHR xdci = {.type = XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR,
	                                    .systemId = xr->system,
	                                    .pfnGetInstanceProcAddr = vkGetInstanceProcAddr,
	                                    .vulkanPhysicalDevice = vk->physical,
	                                    .vulkanCreateInfo = &dci};
	vk->family = 0; /* lavapipe's only family does graphics */
	if (!rtt_expect("xrCreateVulkanDeviceKHR",
	                xrCreateVulkanDeviceKHR(xr->instance, &xdci, &vk->device, &vr), XR_SUCCESS) ||
	    vr != VK_SUCCESS)
		return rtt_fail("no Vulkan device (VkResult %d)", vr);
	return true;
}

static bool create_session(struct rtt_xr *xr, struct vk *vk)
{
	XrGraphicsBindingVulkan2KHR b = {.type = XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR,
	                                 .instance = vk->instance, .physicalDevice = vk->physical,
	                                 .device = vk->device, .queueFamilyIndex = vk->family};
	XrSessionCreateInfo sci = {.type = XR_TYPE_SESSION_CREATE_INFO, .next = &b,
	                           .systemId = xr->system};
	XrReferenceSpaceCreateInfo rci = {.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
	                                  .referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL,
	                                  .poseInReferenceSpace = {.orientation = {0, 0, 0, 1}}};
	return rtt_expect("xrCreateSession", xrCreateSession(xr->instance, &sci, &xr->session), XR_SUCCESS) &&
	       rtt_expect("xrCreateReferenceSpace", xrCreateReferenceSpace(xr->session, &rci, &xr->local),
	                  XR_SUCCESS);
}

static XrSwapchainCreateInfo color_info(int64_t format)
{
	return (XrSwapchainCreateInfo){
		.type = XR_TYPE_SWAPCHAIN_CREATE_INFO, .format = format, .width = 64, .height = 64,
		.usageFlags = XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_SAMPLED_BIT,
		.sampleCount = 1, .faceCount = 1, .arraySize = 1, .mipCount = 1};
}

static bool acquire(XrSwapchain sc, uint32_t want)
{
	uint32_t index = 99;
	if (!rtt_expect("xrAcquireSwapchainImage", xrAcquireSwapchainImage(sc, NULL, &index), XR_SUCCESS))
		return false;
	return index == want || rtt_fail("acquired image %u, expected %u", index, want);
}

static bool wait_release(XrSwapchain sc)
{
	XrSwapchainImageWaitInfo wi = {.type = XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO,
	                               .timeout = XR_INFINITE_DURATION};
	return rtt_expect("xrWaitSwapchainImage", xrWaitSwapchainImage(sc, &wi), XR_SUCCESS) &&
	       rtt_expect("xrReleaseSwapchainImage", xrReleaseSwapchainImage(sc, NULL), XR_SUCCESS);
}

static bool test_order(XrSwapchain sc)
{
	XrSwapchainImageWaitInfo wi = {.type = XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO, .timeout = 0};
	uint32_t index;
	return rtt_expect("wait before acquire", xrWaitSwapchainImage(sc, &wi), XR_ERROR_CALL_ORDER_INVALID) &&
	       rtt_expect("release before acquire", xrReleaseSwapchainImage(sc, NULL),
	                  XR_ERROR_CALL_ORDER_INVALID) &&
	       acquire(sc, 0) && acquire(sc, 1) && acquire(sc, 2) &&
	       rtt_expect("a 4th acquire of 3 images", xrAcquireSwapchainImage(sc, NULL, &index),
	                  XR_ERROR_CALL_ORDER_INVALID) &&
	       rtt_expect("release before wait", xrReleaseSwapchainImage(sc, NULL),
	                  XR_ERROR_CALL_ORDER_INVALID) &&
	       wait_release(sc) && wait_release(sc) && wait_release(sc) && acquire(sc, 0) &&
	       wait_release(sc);
}

/* xrEndFrame with a projection layer of both views on @p sc, @p width wide. */
static XrResult end_projection(struct rtt_xr *xr, XrSwapchain sc, int32_t width)
{
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	XrResult r = xrWaitFrame(xr->session, NULL, &fs);
	if (r == XR_SUCCESS)
		r = xrBeginFrame(xr->session, NULL);
	if (r != XR_SUCCESS)
		return r;
	XrCompositionLayerProjectionView views[2];
	for (int i = 0; i < 2; i++)
		views[i] = (XrCompositionLayerProjectionView){
			.type = XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW,
			.pose = {.orientation = {0, 0, 0, 1}},
			.subImage = {.swapchain = sc, .imageRect = {.extent = {width, 64}}}};
	XrCompositionLayerProjection proj = {.type = XR_TYPE_COMPOSITION_LAYER_PROJECTION,
	                                     .space = xr->local, .viewCount = 2, .views = views};
	const XrCompositionLayerBaseHeader *layers[] = {(const void *)&proj};
	XrFrameEndInfo fei = {.type = XR_TYPE_FRAME_END_INFO, .displayTime = fs.predictedDisplayTime,
	                      .environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE,
	                      .layerCount = 1, .layers = layers};
	r = xrEndFrame(xr->session, &fei);
	if (r != XR_SUCCESS) {
		fei.layerCount = 0; /* end the frame anyway, so the next one starts clean */
		xrEndFrame(xr->session, &fei);
	}
	return r;
}

static bool test_swapchain(struct rtt_xr *xr)
{
	XrSwapchainCreateInfo bad = color_info(VK_FORMAT_R16G16B16A16_SNORM);
	XrSwapchainCreateInfo info = color_info(VK_FORMAT_R8G8B8A8_SRGB);
	XrSwapchain sc;
	uint32_t n = 0;
	XrSwapchainImageVulkan2KHR images[3];
	for (int i = 0; i < 3; i++)
		images[i] = (XrSwapchainImageVulkan2KHR){.type = XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR};
	bool ok = rtt_expect("xrCreateSwapchain(format not offered)", xrCreateSwapchain(xr->session, &bad, &sc),
	                     XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED) &&
	          rtt_expect("xrCreateSwapchain", xrCreateSwapchain(xr->session, &info, &sc), XR_SUCCESS) &&
	          rtt_expect("xrEnumerateSwapchainImages",
	                     xrEnumerateSwapchainImages(sc, 3, &n, (XrSwapchainImageBaseHeader *)images),
	                     XR_SUCCESS);
	if (!ok)
		return false;
	if (n != 3 || !images[0].image || !images[1].image || !images[2].image)
		return rtt_fail("%u swapchain images, or a null VkImage", n);
	ok = rtt_expect("xrEndFrame on a swapchain never released", end_projection(xr, sc, 64),
	                XR_ERROR_LAYER_INVALID) &&
	     test_order(sc) &&
	     rtt_expect("xrEndFrame with a rect wider than the image", end_projection(xr, sc, 65),
	                XR_ERROR_SWAPCHAIN_RECT_INVALID) &&
	     rtt_expect("xrEndFrame with a released image", end_projection(xr, sc, 64), XR_SUCCESS);
	return rtt_expect("xrDestroySwapchain", xrDestroySwapchain(sc), XR_SUCCESS) && ok;
}

int main(void)
{
	struct rtt_xr xr;
	struct vk vk = {0};
	memset(&xr, 0, sizeof(xr));
	bool ok = create_instance(&xr) && create_vulkan(&xr, &vk) && create_session(&xr, &vk) &&
	          rtt_begin(&xr) && test_swapchain(&xr) && rtt_finish(&xr);
	/* The runtime must have destroyed all it made on the device by now. */
	if (vk.device)
		vkDestroyDevice(vk.device, NULL);
	if (vk.instance)
		vkDestroyInstance(vk.instance, NULL);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
