/*
 * Swapchains: VkImages with bound memory on the app's VkDevice, handed out
 * in order by acquire/wait/release.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <stdlib.h>
#include <string.h>

RT_DEFINE_HANDLE_GET(static, swapchain_get, XrSwapchain, struct rt_swapchain, RT_HANDLE_SWAPCHAIN)

static bool is_depth(VkFormat f)
{
	return f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D16_UNORM;
}

XrResult XRAPI_CALL rt_xrEnumerateSwapchainFormats(XrSession session, uint32_t capacity,
                                                   uint32_t *countOutput, int64_t *formats)
{
	struct rt_session *sess;
	XrResult r = rt_session_get(session, &sess);
	if (r != XR_SUCCESS)
		return r;
	/* Headless sessions have no swapchains, hence no formats. */
	int64_t list[RT_MAX_FORMATS];
	uint32_t n = sess->headless ? 0 : sess->vk.format_count;
	for (uint32_t i = 0; i < n; i++)
		list[i] = sess->vk.formats[i];
	return rt_two_call(capacity, countOutput, formats, list, n, sizeof(list[0]));
}

static VkImageUsageFlags vk_usage(XrSwapchainUsageFlags u)
{
	static const struct { XrSwapchainUsageFlags xr; VkImageUsageFlags vk; } map[] = {
		{XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT},
		{XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT},
		{XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT, VK_IMAGE_USAGE_STORAGE_BIT},
		{XR_SWAPCHAIN_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_USAGE_TRANSFER_SRC_BIT},
		{XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT, VK_IMAGE_USAGE_TRANSFER_DST_BIT},
		{XR_SWAPCHAIN_USAGE_SAMPLED_BIT, VK_IMAGE_USAGE_SAMPLED_BIT},
		{XR_SWAPCHAIN_USAGE_INPUT_ATTACHMENT_BIT_MND, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT},
	};
	VkImageUsageFlags vk = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (u & map[i].xr)
			vk |= map[i].vk;
	return vk;
}

static VkImageCreateInfo image_info(const XrSwapchainCreateInfo *info)
{
	return (VkImageCreateInfo){
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.flags = (info->usageFlags & XR_SWAPCHAIN_USAGE_MUTABLE_FORMAT_BIT)
		                 ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = (VkFormat)info->format,
		.extent = {info->width, info->height, 1},
		.mipLevels = info->mipCount,
		.arrayLayers = info->arraySize,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = vk_usage(info->usageFlags),
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
}

static bool format_offered(const struct rt_session *sess, int64_t format)
{
	for (uint32_t i = 0; i < sess->vk.format_count; i++)
		if (sess->vk.formats[i] == format)
			return true;
	return false;
}

/* The create info (its type checked) against the session and the device's image limits. */
static XrResult check_create_info(struct rt_session *sess, const XrSwapchainCreateInfo *info)
{
	if (sess->headless || !format_offered(sess, info->format))
		return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
	if (info->createFlags & ~(XrSwapchainCreateFlags)XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT)
		return XR_ERROR_FEATURE_UNSUPPORTED; /* protected content */
	if (info->width == 0 || info->height == 0 || info->arraySize == 0 || info->mipCount == 0 ||
	    info->faceCount == 0 || info->sampleCount == 0)
		return XR_ERROR_VALIDATION_FAILURE;
	if (info->faceCount != 1 || info->sampleCount != 1)
		return XR_ERROR_FEATURE_UNSUPPORTED;
	VkImageCreateInfo ici = image_info(info);
	if (ici.usage == 0)
		return XR_ERROR_VALIDATION_FAILURE;
	VkImageFormatProperties ifp;
	VkResult vr = vkGetPhysicalDeviceImageFormatProperties(sess->vk.physical, ici.format, ici.imageType,
	                                                       ici.tiling, ici.usage, ici.flags, &ifp);
	if (vr != VK_SUCCESS || ici.extent.width > ifp.maxExtent.width ||
	    ici.extent.height > ifp.maxExtent.height || ici.mipLevels > ifp.maxMipLevels ||
	    ici.arrayLayers > ifp.maxArrayLayers)
		return XR_ERROR_FEATURE_UNSUPPORTED;
	return XR_SUCCESS;
}

static void swapchain_destroy(void *obj)
{
	struct rt_swapchain *sc = obj;
	VkDevice dev = sc->sess->vk.device;
	for (uint32_t i = 0; i < RT_SWAPCHAIN_IMAGES; i++) {
		if (sc->images[i])
			vkDestroyImage(dev, sc->images[i], NULL);
		if (sc->memory[i])
			vkFreeMemory(dev, sc->memory[i], NULL);
	}
	pthread_mutex_destroy(&sc->lock);
	free(sc);
}

/* One image with its own memory; the handles land in @p sc either way. */
static VkResult create_image(struct rt_swapchain *sc, uint32_t i)
{
	struct rt_vk_session *vk = &sc->sess->vk;
	VkImageCreateInfo ici = image_info(&sc->info);
	VkResult vr = vkCreateImage(vk->device, &ici, NULL, &sc->images[i]);
	if (vr != VK_SUCCESS)
		return vr;
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(vk->device, sc->images[i], &req);
	uint32_t type = rt_vk_memory_type(vk, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (type == UINT32_MAX)
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = type,
	};
	vr = vkAllocateMemory(vk->device, &mai, NULL, &sc->memory[i]);
	if (vr != VK_SUCCESS)
		return vr;
	return vkBindImageMemory(vk->device, sc->images[i], sc->memory[i], 0);
}

XrResult XRAPI_CALL rt_xrCreateSwapchain(XrSession session, const XrSwapchainCreateInfo *createInfo,
                                         XrSwapchain *swapchain)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_create(session, createInfo, XR_TYPE_SWAPCHAIN_CREATE_INFO, swapchain,
	                                   &sess);
	if (r != XR_SUCCESS)
		return r;
	r = check_create_info(sess, createInfo);
	if (r != XR_SUCCESS)
		return r;

	struct rt_swapchain *sc = calloc(1, sizeof(*sc));
	if (!sc)
		return XR_ERROR_OUT_OF_MEMORY;
	sc->sess = sess;
	sc->info = *createInfo;
	sc->info.next = NULL;
	sc->image_count = RT_SWAPCHAIN_IMAGES;
	pthread_mutex_init(&sc->lock, NULL);
	VkResult vr = VK_SUCCESS;
	for (uint32_t i = 0; i < sc->image_count && vr == VK_SUCCESS; i++)
		vr = create_image(sc, i);
	uint64_t h = vr == VK_SUCCESS ? rt_handle_add(RT_HANDLE_SWAPCHAIN, sc, RT_H(session),
	                                              swapchain_destroy) : 0;
	if (!h) {
		if (vr != VK_SUCCESS)
			rt_log("warning: creating swapchain images failed (VkResult %d)", vr);
		swapchain_destroy(sc);
		return vr != VK_SUCCESS ? XR_ERROR_RUNTIME_FAILURE : XR_ERROR_LIMIT_REACHED;
	}
	sc->handle = (XrSwapchain)(uintptr_t)h;
	*swapchain = sc->handle;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrDestroySwapchain(XrSwapchain swapchain)
{
	return rt_handle_destroy_as(RT_H(swapchain), RT_HANDLE_SWAPCHAIN);
}

XrResult XRAPI_CALL rt_xrEnumerateSwapchainImages(XrSwapchain swapchain, uint32_t capacity,
                                                  uint32_t *countOutput,
                                                  XrSwapchainImageBaseHeader *images)
{
	struct rt_swapchain *sc;
	XrResult r = swapchain_get(swapchain, &sc);
	if (r != XR_SUCCESS)
		return r;
	bool fill;
	r = rt_two_call_begin(capacity, countOutput, images, sc->image_count, &fill);
	if (r != XR_SUCCESS || !fill)
		return r;
	XrSwapchainImageVulkanKHR *vk_images = (XrSwapchainImageVulkanKHR *)images;
	for (uint32_t i = 0; i < sc->image_count; i++) {
		if (vk_images[i].type != XR_TYPE_SWAPCHAIN_IMAGE_VULKAN_KHR)
			return XR_ERROR_VALIDATION_FAILURE;
		vk_images[i].image = sc->images[i];
	}
	return XR_SUCCESS;
}

/*
 * The layout the XR_KHR_vulkan_enable spec promises for an acquired image
 * of this usage.
 */
static VkImageLayout acquired_layout(const XrSwapchainCreateInfo *info)
{
	if (info->usageFlags & XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT)
		return VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	if (info->usageFlags & XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
		return VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
	if (info->usageFlags & XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT)
		return VK_IMAGE_LAYOUT_GENERAL;
	return VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
}

static void record_initial_layouts(VkCommandBuffer cmd, void *ctx)
{
	struct rt_swapchain *sc = ctx;
	VkImageMemoryBarrier b[RT_SWAPCHAIN_IMAGES];
	for (uint32_t i = 0; i < sc->image_count; i++) {
		b[i] = (VkImageMemoryBarrier){
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
			.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
			.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.newLayout = acquired_layout(&sc->info),
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = sc->images[i],
			.subresourceRange = {
				.aspectMask = is_depth((VkFormat)sc->info.format) ? VK_IMAGE_ASPECT_DEPTH_BIT
				                                                   : VK_IMAGE_ASPECT_COLOR_BIT,
				.levelCount = sc->info.mipCount,
				.layerCount = sc->info.arraySize,
			},
		};
	}
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	                     0, 0, NULL, 0, NULL, sc->image_count, b);
}

/* One image call's work on a swapchain, lock held; @p ctx is the call's own. */
typedef XrResult (*image_op)(struct rt_swapchain *sc, void *ctx);

/*
 * What the acquire, wait and release calls share: the handle, then the
 * call's info (@p check: rt_check_struct or rt_check_struct_opt, for
 * @p type), then @p op with the swapchain's lock held.
 */
static XrResult image_call(XrSwapchain handle, XrResult (*check)(const void *, XrStructureType),
                           const void *info, XrStructureType type, image_op op, void *ctx)
{
	struct rt_swapchain *sc;
	XrResult r = swapchain_get(handle, &sc);
	if (r == XR_SUCCESS)
		r = check(info, type);
	if (r != XR_SUCCESS)
		return r;
	pthread_mutex_lock(&sc->lock);
	r = op(sc, ctx);
	pthread_mutex_unlock(&sc->lock);
	return r;
}

static XrResult acquire_locked(struct rt_swapchain *sc, void *ctx)
{
	uint32_t *index = ctx;
	if (!index)
		return XR_ERROR_VALIDATION_FAILURE;
	if (sc->acquired_count == sc->image_count)
		return XR_ERROR_CALL_ORDER_INVALID;
	if (!sc->layouts_done) {
		/* Here, not in xrCreateSwapchain: acquire may use the app's queue. */
		XrResult r = rt_vk_submit_and_wait(&sc->sess->vk, record_initial_layouts, sc);
		if (r != XR_SUCCESS)
			return r;
		sc->layouts_done = true;
	}
	*index = sc->next_acquire;
	sc->acquired[sc->acquired_count++] = sc->next_acquire;
	sc->next_acquire = (sc->next_acquire + 1) % sc->image_count;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrAcquireSwapchainImage(XrSwapchain swapchain,
                                               const XrSwapchainImageAcquireInfo *acquireInfo,
                                               uint32_t *index)
{
	return image_call(swapchain, rt_check_struct_opt, acquireInfo,
	                  XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO, acquire_locked, index);
}

static XrResult wait_locked(struct rt_swapchain *sc, void *ctx)
{
	(void)ctx;
	/* Our compositor never reads the images, so a wait never blocks. */
	if (sc->acquired_count == 0 || sc->waited)
		return XR_ERROR_CALL_ORDER_INVALID;
	sc->waited = true;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrWaitSwapchainImage(XrSwapchain swapchain,
                                            const XrSwapchainImageWaitInfo *waitInfo)
{
	return image_call(swapchain, rt_check_struct, waitInfo, XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO,
	                  wait_locked, NULL);
}

static XrResult release_locked(struct rt_swapchain *sc, void *ctx)
{
	(void)ctx;
	if (!sc->waited)
		return XR_ERROR_CALL_ORDER_INVALID;
	sc->acquired_count--;
	memmove(sc->acquired, sc->acquired + 1, sc->acquired_count * sizeof(sc->acquired[0]));
	sc->waited = false;
	sc->ever_released = true;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrReleaseSwapchainImage(XrSwapchain swapchain,
                                               const XrSwapchainImageReleaseInfo *releaseInfo)
{
	return image_call(swapchain, rt_check_struct_opt, releaseInfo,
	                  XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO, release_locked, NULL);
}

XrResult rt_swapchain_check_for_layer(struct rt_session *sess, XrSwapchain handle,
                                      struct rt_swapchain **out)
{
	XrResult r = swapchain_get(handle, out);
	if (r != XR_SUCCESS)
		return r;
	if ((*out)->sess != sess)
		return XR_ERROR_VALIDATION_FAILURE;
	pthread_mutex_lock(&(*out)->lock);
	bool released = (*out)->ever_released;
	pthread_mutex_unlock(&(*out)->lock);
	return released ? XR_SUCCESS : XR_ERROR_LAYER_INVALID;
}
