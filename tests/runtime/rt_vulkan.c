/*
 * XR_KHR_vulkan_enable and XR_KHR_vulkan_enable2, the session's Vulkan
 * binding, and the compositor's GPU work on the app's queue.
 *
 * Calls on the app's VkInstance/VkDevice go through libvulkan's
 * trampolines; vkCreateInstance/vkCreateDevice go through the
 * pfnGetInstanceProcAddr the app hands to xrCreateVulkan*KHR.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <string.h>

/* What a real runtime asks for to share images; lavapipe has them all. */
static const char *const g_instance_exts[] = {
	"VK_KHR_external_memory_capabilities",
	"VK_KHR_get_physical_device_properties2",
};
static const char *const g_device_exts[] = {
	"VK_KHR_external_memory",
	"VK_KHR_external_memory_fd",
	"VK_KHR_dedicated_allocation",
	"VK_KHR_get_memory_requirements2",
};
#define RT_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define RT_MAX_EXTS 128

/* Candidates, in order of preference; filtered by what the device renders to. */
static const VkFormat g_formats[] = {
	VK_FORMAT_R8G8B8A8_SRGB,  VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_D32_SFLOAT,    VK_FORMAT_D16_UNORM,
};

#define RT_WORK_BUFFER_SIZE (8u << 20)
#define RT_CALIBRATION_FILLS 4

/*
 * xrGetVulkan*ExtensionsKHR: after the instance and system checks, "a b c"
 * with a NUL at the end, via the two-call idiom.
 */
static XrResult ext_string(XrInstance instance, XrSystemId system, const char *const *exts,
                           size_t n, uint32_t capacity, uint32_t *count_out, char *buffer)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_system(instance, system, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (inst->knobs.vk_minimal)
		n = 0;
	char s[512] = "";
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, exts[i]);
	}
	return rt_two_call_string(capacity, count_out, buffer, s);
}

XrResult XRAPI_CALL rt_xrGetVulkanInstanceExtensionsKHR(XrInstance instance, XrSystemId systemId,
                                                        uint32_t capacity, uint32_t *countOutput,
                                                        char *buffer)
{
	return ext_string(instance, systemId, g_instance_exts, RT_COUNT(g_instance_exts), capacity, countOutput,
	                  buffer);
}

XrResult XRAPI_CALL rt_xrGetVulkanDeviceExtensionsKHR(XrInstance instance, XrSystemId systemId,
                                                      uint32_t capacity, uint32_t *countOutput,
                                                      char *buffer)
{
	return ext_string(instance, systemId, g_device_exts, RT_COUNT(g_device_exts), capacity, countOutput,
	                  buffer);
}

XrResult XRAPI_CALL rt_xrGetVulkanGraphicsRequirementsKHR(XrInstance instance, XrSystemId systemId,
                                                          XrGraphicsRequirementsVulkanKHR *req)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_system(instance, systemId, &inst);
	/* XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR is the same value. */
	if (r == XR_SUCCESS)
		r = rt_check_struct(req, XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN_KHR);
	if (r != XR_SUCCESS)
		return r;
	req->minApiVersionSupported = XR_MAKE_VERSION(1, 0, 0);
	req->maxApiVersionSupported = XR_MAKE_VERSION(1, 3, 0);
	inst->vk_requirements_queried = true;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrGetVulkanGraphicsRequirements2KHR(XrInstance instance, XrSystemId systemId,
                                                           XrGraphicsRequirementsVulkanKHR *req)
{
	return rt_xrGetVulkanGraphicsRequirementsKHR(instance, systemId, req);
}

XrResult XRAPI_CALL rt_xrGetVulkanGraphicsDeviceKHR(XrInstance instance, XrSystemId systemId,
                                                    VkInstance vkInstance, VkPhysicalDevice *vkPhysicalDevice)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_system(instance, systemId, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (vkInstance == VK_NULL_HANDLE || !vkPhysicalDevice)
		return XR_ERROR_VALIDATION_FAILURE;
	/* The first device: on the test machines that is lavapipe. */
	uint32_t n = 1;
	VkPhysicalDevice dev = VK_NULL_HANDLE;
	VkResult vr = vkEnumeratePhysicalDevices(vkInstance, &n, &dev);
	if ((vr != VK_SUCCESS && vr != VK_INCOMPLETE) || n == 0 || dev == VK_NULL_HANDLE) {
		rt_log("warning: no Vulkan physical device (VkResult %d)", vr);
		return XR_ERROR_RUNTIME_FAILURE;
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(dev, &props);
	rt_log("Vulkan physical device: %s", props.deviceName);
	inst->vk_instance = vkInstance;
	inst->vk_physical = dev;
	*vkPhysicalDevice = dev;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrGetVulkanGraphicsDevice2KHR(XrInstance instance,
                                                     const XrVulkanGraphicsDeviceGetInfoKHR *getInfo,
                                                     VkPhysicalDevice *vkPhysicalDevice)
{
	XrResult r = rt_check_struct(getInfo, XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR);
	if (r != XR_SUCCESS)
		return r;
	return rt_xrGetVulkanGraphicsDeviceKHR(instance, getInfo->systemId, getInfo->vulkanInstance,
	                                       vkPhysicalDevice);
}

/*
 * Points a Vk*CreateInfo's @p names and @p count at @p out, filled with the
 * app's extensions plus ours without duplicates; false if too many.
 */
static bool merge_exts(const char *const **names, uint32_t *count, const char *const *ours,
                       size_t ours_n, const char **out)
{
	const char *const *app = *names;
	uint32_t app_n = *count;
	if (app_n + ours_n > RT_MAX_EXTS)
		return false;
	uint32_t n = 0;
	for (uint32_t i = 0; i < app_n; i++)
		out[n++] = app[i];
	for (size_t i = 0; i < ours_n; i++) {
		bool dup = false;
		for (uint32_t j = 0; j < app_n && !dup; j++)
			dup = strcmp(app[j], ours[i]) == 0;
		if (!dup)
			out[n++] = ours[i];
	}
	*names = out;
	*count = n;
	return true;
}

/* Whether the request's @p names[0..count) hold the extension XRTEST_VK_REFUSE_EXT names. */
static bool refused(const struct rt_knobs *knobs, const char *const *names, uint32_t count)
{
	for (uint32_t i = 0; knobs->vk_refuse_ext[0] && i < count; i++)
		if (strcmp(names[i], knobs->vk_refuse_ext) == 0)
			return true;
	return false;
}

/*
 * The checks xrCreateVulkanInstanceKHR and xrCreateVulkanDeviceKHR share
 * once their own create info type and outputs are checked: the create
 * info's common members, then the instance and system.
 */
static XrResult check_vk_create(XrInstance instance, XrSystemId system, const void *vk_create_info,
                                PFN_vkGetInstanceProcAddr gipa, XrFlags64 flags,
                                struct rt_instance **inst)
{
	if (!vk_create_info || !gipa || flags != 0)
		return XR_ERROR_VALIDATION_FAILURE;
	return rt_instance_get_system(instance, system, inst);
}

XrResult XRAPI_CALL rt_xrCreateVulkanInstanceKHR(XrInstance instance,
                                                 const XrVulkanInstanceCreateInfoKHR *createInfo,
                                                 VkInstance *vulkanInstance, VkResult *vulkanResult)
{
	if (!createInfo || createInfo->type != XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR ||
	    !vulkanInstance || !vulkanResult)
		return XR_ERROR_VALIDATION_FAILURE;
	struct rt_instance *inst;
	XrResult r = check_vk_create(instance, createInfo->systemId, createInfo->vulkanCreateInfo,
	                             createInfo->pfnGetInstanceProcAddr, createInfo->createFlags, &inst);
	if (r != XR_SUCCESS)
		return r;
	PFN_vkCreateInstance create =
		(PFN_vkCreateInstance)createInfo->pfnGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance");
	if (!create)
		return XR_ERROR_RUNTIME_FAILURE;

	VkInstanceCreateInfo ci = *createInfo->vulkanCreateInfo;
	if (refused(&inst->knobs, ci.ppEnabledExtensionNames, ci.enabledExtensionCount)) {
		*vulkanResult = VK_ERROR_EXTENSION_NOT_PRESENT;
		return XR_SUCCESS;
	}
	const char *exts[RT_MAX_EXTS];
	if (!merge_exts(&ci.ppEnabledExtensionNames, &ci.enabledExtensionCount, g_instance_exts,
	                inst->knobs.vk_minimal ? 0 : RT_COUNT(g_instance_exts), exts))
		return XR_ERROR_LIMIT_REACHED;
	*vulkanResult = create(&ci, createInfo->vulkanAllocator, vulkanInstance);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrCreateVulkanDeviceKHR(XrInstance instance,
                                               const XrVulkanDeviceCreateInfoKHR *createInfo,
                                               VkDevice *vulkanDevice, VkResult *vulkanResult)
{
	if (!createInfo || createInfo->type != XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR ||
	    !vulkanDevice || !vulkanResult)
		return XR_ERROR_VALIDATION_FAILURE;
	struct rt_instance *inst;
	XrResult r = check_vk_create(instance, createInfo->systemId, createInfo->vulkanCreateInfo,
	                             createInfo->pfnGetInstanceProcAddr, createInfo->createFlags, &inst);
	if (r != XR_SUCCESS)
		return r;
	/* The spec: the device must be the one xrGetVulkanGraphicsDevice2KHR gave. */
	if (!inst->vk_physical || createInfo->vulkanPhysicalDevice != inst->vk_physical)
		return XR_ERROR_VALIDATION_FAILURE;
	PFN_vkCreateDevice create =
		(PFN_vkCreateDevice)createInfo->pfnGetInstanceProcAddr(inst->vk_instance, "vkCreateDevice");
	if (!create)
		return XR_ERROR_RUNTIME_FAILURE;

	VkDeviceCreateInfo ci = *createInfo->vulkanCreateInfo;
	if (refused(&inst->knobs, ci.ppEnabledExtensionNames, ci.enabledExtensionCount)) {
		*vulkanResult = VK_ERROR_EXTENSION_NOT_PRESENT;
		return XR_SUCCESS;
	}
	const char *exts[RT_MAX_EXTS];
	if (!merge_exts(&ci.ppEnabledExtensionNames, &ci.enabledExtensionCount, g_device_exts,
	                inst->knobs.vk_minimal ? 0 : RT_COUNT(g_device_exts), exts))
		return XR_ERROR_LIMIT_REACHED;
	*vulkanResult = create(createInfo->vulkanPhysicalDevice, &ci, createInfo->vulkanAllocator,
	                       vulkanDevice);
	return XR_SUCCESS;
}

/* Session side. */

static bool format_renderable(VkPhysicalDevice phys, VkFormat format)
{
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(phys, format, &fp);
	VkFormatFeatureFlags need = (format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM)
	                                    ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT
	                                    : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
	return (fp.optimalTilingFeatures & need) == need;
}

/* Checks the binding's handles and queue against what we told the app. */
static XrResult check_binding(struct rt_vk_session *vk, struct rt_instance *inst,
                              const XrGraphicsBindingVulkanKHR *b)
{
	if (!b->instance || !b->physicalDevice || !b->device)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	if (b->physicalDevice != inst->vk_physical) {
		rt_log("warning: the binding's VkPhysicalDevice is not the one "
		       "xrGetVulkanGraphicsDevice*KHR returned");
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	}
	VkQueueFamilyProperties fams[16];
	uint32_t n = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(b->physicalDevice, &n, fams);
	if (b->queueFamilyIndex >= n || b->queueIndex >= fams[b->queueFamilyIndex].queueCount)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	vk->timestamp_valid_bits = fams[b->queueFamilyIndex].timestampValidBits;
	return XR_SUCCESS;
}

/* The command pool, buffers and fences our submissions cycle through. */
static VkResult create_commands(struct rt_vk_session *vk)
{
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = vk->queue_family,
	};
	VkResult vr = vkCreateCommandPool(vk->device, &pci, NULL, &vk->pool);
	if (vr != VK_SUCCESS)
		return vr;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = vk->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = RT_COUNT(vk->cmd),
	};
	vr = vkAllocateCommandBuffers(vk->device, &ai, vk->cmd);
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	for (size_t i = 0; vr == VK_SUCCESS && i < RT_COUNT(vk->fence); i++)
		vr = vkCreateFence(vk->device, &fci, NULL, &vk->fence[i]);
	return vr;
}

XrResult rt_vk_session_init(struct rt_vk_session *vk, struct rt_instance *inst,
                            const XrGraphicsBindingVulkanKHR *binding)
{
	memset(vk, 0, sizeof(*vk));
	XrResult r = check_binding(vk, inst, binding);
	if (r != XR_SUCCESS)
		return r;
	vk->instance = binding->instance;
	vk->physical = binding->physicalDevice;
	vk->device = binding->device;
	vk->queue_family = binding->queueFamilyIndex;
	vkGetDeviceQueue(vk->device, binding->queueFamilyIndex, binding->queueIndex, &vk->queue);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(vk->physical, &props);
	vk->timestamp_period_ns = props.limits.timestampPeriod;
	for (size_t i = 0; i < RT_COUNT(g_formats); i++)
		if (format_renderable(vk->physical, g_formats[i]))
			vk->formats[vk->format_count++] = g_formats[i];
	pthread_mutex_init(&vk->lock, NULL);
	VkResult vr = create_commands(vk);
	if (vr != VK_SUCCESS) {
		rt_log("warning: creating command buffers failed (VkResult %d)", vr);
		rt_vk_session_fini(vk);
		return XR_ERROR_RUNTIME_FAILURE;
	}
	rt_log("Vulkan session on %s: queue family %u index %u, %u swapchain formats, "
	       "timestamps %u bits at %g ns", props.deviceName, binding->queueFamilyIndex,
	       binding->queueIndex, vk->format_count, vk->timestamp_valid_bits, vk->timestamp_period_ns);
	return XR_SUCCESS;
}

void rt_vk_session_fini(struct rt_vk_session *vk)
{
	if (!vk->device)
		return;
	/* Our own work must be done before its buffers go. */
	for (size_t i = 0; i < RT_COUNT(vk->fence); i++) {
		if (vk->fence_pending[i])
			vkWaitForFences(vk->device, 1, &vk->fence[i], VK_TRUE, UINT64_MAX);
		if (vk->fence[i])
			vkDestroyFence(vk->device, vk->fence[i], NULL);
	}
	if (vk->pool)
		vkDestroyCommandPool(vk->device, vk->pool, NULL); /* frees the buffers */
	if (vk->work_buffer)
		vkDestroyBuffer(vk->device, vk->work_buffer, NULL);
	if (vk->work_memory)
		vkFreeMemory(vk->device, vk->work_memory, NULL);
	pthread_mutex_destroy(&vk->lock);
	memset(vk, 0, sizeof(*vk));
}

uint32_t rt_vk_memory_type(struct rt_vk_session *vk, uint32_t type_bits, VkMemoryPropertyFlags props)
{
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(vk->physical, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
		if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & props) == props)
			return i;
	return UINT32_MAX;
}

/* The next command buffer, once the GPU is done with it; vk->lock held. */
static VkResult next_slot(struct rt_vk_session *vk, uint32_t *slot)
{
	uint32_t i = vk->next_cmd;
	vk->next_cmd = (i + 1) % RT_COUNT(vk->cmd);
	if (vk->fence_pending[i]) {
		VkResult vr = vkWaitForFences(vk->device, 1, &vk->fence[i], VK_TRUE, UINT64_MAX);
		if (vr != VK_SUCCESS)
			return vr;
		vk->fence_pending[i] = false;
	}
	VkResult vr = vkResetFences(vk->device, 1, &vk->fence[i]);
	if (vr == VK_SUCCESS)
		vr = vkResetCommandBuffer(vk->cmd[i], 0);
	*slot = i;
	return vr;
}

/* Records with @p record and submits on the app's queue; vk->lock held. */
static VkResult submit(struct rt_vk_session *vk, void (*record)(VkCommandBuffer, void *), void *ctx,
                       bool wait)
{
	uint32_t i;
	VkResult vr = next_slot(vk, &i);
	if (vr != VK_SUCCESS)
		return vr;
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	vr = vkBeginCommandBuffer(vk->cmd[i], &bi);
	if (vr != VK_SUCCESS)
		return vr;
	record(vk->cmd[i], ctx);
	vr = vkEndCommandBuffer(vk->cmd[i]);
	if (vr != VK_SUCCESS)
		return vr;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &vk->cmd[i],
	};
	vr = vkQueueSubmit(vk->queue, 1, &si, vk->fence[i]);
	if (vr != VK_SUCCESS)
		return vr;
	vk->fence_pending[i] = true;
	if (!wait)
		return VK_SUCCESS;
	vr = vkWaitForFences(vk->device, 1, &vk->fence[i], VK_TRUE, UINT64_MAX);
	vk->fence_pending[i] = vr != VK_SUCCESS;
	return vr;
}

XrResult rt_vk_submit_and_wait(struct rt_vk_session *vk,
                               void (*record)(VkCommandBuffer cmd, void *ctx), void *ctx)
{
	pthread_mutex_lock(&vk->lock);
	VkResult vr = submit(vk, record, ctx, true);
	pthread_mutex_unlock(&vk->lock);
	if (vr != VK_SUCCESS) {
		rt_log("warning: a submission on the app's queue failed (VkResult %d)", vr);
		return XR_ERROR_RUNTIME_FAILURE;
	}
	return XR_SUCCESS;
}

/* GPU work: fills of a private buffer, serialised by barriers. */

struct fill_work {
	struct rt_vk_session *vk;
	uint64_t bytes;
	VkQueryPool queries; /* calibration only */
};

static void record_fills(VkCommandBuffer cmd, void *ctx)
{
	struct fill_work *w = ctx;
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	};
	if (w->queries) {
		vkCmdResetQueryPool(cmd, w->queries, 0, 2);
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, w->queries, 0);
	}
	for (uint64_t left = w->bytes; left >= 4;) {
		VkDeviceSize n = left < w->vk->work_buffer_size ? left & ~3ull : w->vk->work_buffer_size;
		vkCmdFillBuffer(cmd, w->vk->work_buffer, 0, n, 0x58524c4d);
		left -= n;
		if (left >= 4)
			vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
			                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	}
	if (w->queries)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w->queries, 1);
}

static VkResult create_work_buffer(struct rt_vk_session *vk)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = RT_WORK_BUFFER_SIZE,
		.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkResult vr = vkCreateBuffer(vk->device, &bci, NULL, &vk->work_buffer);
	if (vr != VK_SUCCESS)
		return vr;
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(vk->device, vk->work_buffer, &req);
	uint32_t type = rt_vk_memory_type(vk, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (type == UINT32_MAX)
		type = rt_vk_memory_type(vk, req.memoryTypeBits, 0);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = type,
	};
	vr = vkAllocateMemory(vk->device, &mai, NULL, &vk->work_memory);
	if (vr == VK_SUCCESS)
		vr = vkBindBufferMemory(vk->device, vk->work_buffer, vk->work_memory, 0);
	vk->work_buffer_size = RT_WORK_BUFFER_SIZE;
	return vr;
}

/* GPU nanoseconds of one calibration run; vk->lock held. */
static VkResult time_fills(struct rt_vk_session *vk, VkQueryPool qp, uint64_t bytes, double *ns)
{
	struct fill_work w = {.vk = vk, .bytes = bytes, .queries = qp};
	int64_t t0 = rt_now_ns();
	VkResult vr = submit(vk, record_fills, &w, true);
	int64_t t1 = rt_now_ns();
	if (vr != VK_SUCCESS)
		return vr;
	if (!qp) {
		*ns = (double)(t1 - t0); /* no timestamps: an upper bound from the CPU side */
		return VK_SUCCESS;
	}
	uint64_t ts[2];
	vr = vkGetQueryPoolResults(vk->device, qp, 0, 2, sizeof(ts), ts, sizeof(ts[0]),
	                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	*ns = (double)(ts[1] - ts[0]) * vk->timestamp_period_ns;
	return vr;
}

/*
 * Measures what a byte of vkCmdFillBuffer costs on this queue (best of
 * three runs, so one preempted run does not skew it); vk->lock held.
 */
static VkResult calibrate(struct rt_vk_session *vk, uint64_t gpu_us)
{
	VkResult vr = create_work_buffer(vk);
	if (vr != VK_SUCCESS)
		return vr;
	VkQueryPool qp = VK_NULL_HANDLE;
	if (vk->timestamp_valid_bits) {
		VkQueryPoolCreateInfo qci = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 2,
		};
		vr = vkCreateQueryPool(vk->device, &qci, NULL, &qp);
		if (vr != VK_SUCCESS)
			return vr;
	}
	uint64_t bytes = (uint64_t)RT_CALIBRATION_FILLS * RT_WORK_BUFFER_SIZE;
	double best = 0;
	for (int i = 0; i < 3 && vr == VK_SUCCESS; i++) {
		double ns = 0;
		vr = time_fills(vk, qp, bytes, &ns);
		if (vr == VK_SUCCESS && ns > 0 && (best == 0 || ns < best))
			best = ns;
	}
	if (qp)
		vkDestroyQueryPool(vk->device, qp, NULL);
	if (vr != VK_SUCCESS)
		return vr;
	vk->ns_per_byte = best > 0 ? best / (double)bytes : 1e-3;
	vk->work_bytes = (uint64_t)((double)gpu_us * 1000.0 / vk->ns_per_byte);
	vk->calibrated = true;
	rt_log("GPU calibration (%s): vkCmdFillBuffer of %llu MiB took %.1f us, %.0f MB/s; "
	       "XRTEST_COMPOSITOR_GPU_US=%llu -> %llu bytes filled per frame",
	       qp ? "timestamp queries" : "CPU clock, no timestamps on this queue",
	       (unsigned long long)(bytes >> 20), best / 1000.0, 1e3 / vk->ns_per_byte,
	       (unsigned long long)gpu_us, (unsigned long long)vk->work_bytes);
	return VK_SUCCESS;
}

XrResult rt_vk_compositor_work(struct rt_vk_session *vk, uint64_t gpu_us, bool wait)
{
	pthread_mutex_lock(&vk->lock);
	/*
	 * Calibrated here rather than in xrCreateSession: xrEndFrame is one of
	 * the calls in which the spec lets a runtime use the app's queue.
	 */
	VkResult vr = VK_SUCCESS;
	if (!vk->calibrated) {
		vr = calibrate(vk, gpu_us);
		vk->calibrated = true; /* a failed calibration leaves work_bytes 0: no work */
	}
	if (vr == VK_SUCCESS && vk->work_bytes >= 4) {
		struct fill_work w = {.vk = vk, .bytes = vk->work_bytes};
		vr = submit(vk, record_fills, &w, wait);
	}
	pthread_mutex_unlock(&vk->lock);
	if (vr != VK_SUCCESS) {
		rt_log("warning: compositor GPU work failed (VkResult %d)", vr);
		return XR_ERROR_RUNTIME_FAILURE;
	}
	return XR_SUCCESS;
}
