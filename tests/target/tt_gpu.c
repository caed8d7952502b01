/*
 * Creation, per-frame submission and destruction of the target's GPU work.
 */
#include "tt_gpu.h"

#include "tt_log.h"

#include <stdlib.h>

/* Big enough that one fill is far longer than a submission's overhead. */
#define TT_GPU_BUFFER_SIZE (16u << 20)
/* Destruction waits this long for our own work before giving up. */
#define TT_GPU_DESTROY_TIMEOUT_NS 5000000000ull

static int32_t find_memory_type(struct tt_gpu *gpu, VkPhysicalDevice pd, uint32_t type_bits)
{
	VkPhysicalDeviceMemoryProperties props;
	gpu->vk.vkGetPhysicalDeviceMemoryProperties(pd, &props);
	int32_t any = -1;
	for (uint32_t i = 0; i < props.memoryTypeCount; i++) {
		if (!(type_bits & (1u << i)))
			continue;
		if (props.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
			return (int32_t)i;
		if (any < 0)
			any = (int32_t)i;
	}
	return any;
}

static bool create_buffer(struct tt_gpu *gpu, VkPhysicalDevice pd)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = TT_GPU_BUFFER_SIZE,
		.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	if (!tt_vk_ok(gpu->vk.vkCreateBuffer(gpu->device, &bci, NULL, &gpu->buffer), "vkCreateBuffer"))
		return false;
	gpu->buffer_size = bci.size;

	VkMemoryRequirements req;
	gpu->vk.vkGetBufferMemoryRequirements(gpu->device, gpu->buffer, &req);
	int32_t type = find_memory_type(gpu, pd, req.memoryTypeBits);
	if (type < 0) {
		tt_log("no memory type for the work buffer");
		return false;
	}
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)type,
	};
	if (!tt_vk_ok(gpu->vk.vkAllocateMemory(gpu->device, &mai, NULL, &gpu->memory),
	           "vkAllocateMemory"))
		return false;
	return tt_vk_ok(gpu->vk.vkBindBufferMemory(gpu->device, gpu->buffer, gpu->memory, 0),
	             "vkBindBufferMemory");
}

static bool create_timestamps(struct tt_gpu *gpu, const struct tt_gpu_binding *b)
{
	uint32_t count = 0;
	gpu->vk.vkGetPhysicalDeviceQueueFamilyProperties(b->physical_device, &count, NULL);
	VkQueueFamilyProperties *families = calloc(count, sizeof(*families));
	if (!families)
		return false;
	gpu->vk.vkGetPhysicalDeviceQueueFamilyProperties(b->physical_device, &count, families);
	uint32_t bits = b->queue_family < count ? families[b->queue_family].timestampValidBits : 0;
	free(families);
	if (bits == 0)
		return true; /* calibration falls back to a guess */

	VkPhysicalDeviceProperties props;
	gpu->vk.vkGetPhysicalDeviceProperties(b->physical_device, &props);
	gpu->ts_period_ns = props.limits.timestampPeriod;
	gpu->ts_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = 2,
	};
	return tt_vk_ok(gpu->vk.vkCreateQueryPool(gpu->device, &qci, NULL, &gpu->queries),
	             "vkCreateQueryPool");
}

static bool create_ring(struct tt_gpu *gpu, uint32_t family)
{
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = family,
	};
	if (!tt_vk_ok(gpu->vk.vkCreateCommandPool(gpu->device, &pci, NULL, &gpu->pool),
	           "vkCreateCommandPool"))
		return false;
	VkCommandBufferAllocateInfo cai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = gpu->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = TT_GPU_RING,
	};
	if (!tt_vk_ok(gpu->vk.vkAllocateCommandBuffers(gpu->device, &cai, gpu->cmd),
	           "vkAllocateCommandBuffers"))
		return false;
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	for (uint32_t i = 0; i < TT_GPU_RING; i++)
		if (!tt_vk_ok(gpu->vk.vkCreateFence(gpu->device, &fci, NULL, &gpu->fence[i]),
		           "vkCreateFence"))
			return false;
	return true;
}

static bool record_ring(struct tt_gpu *gpu)
{
	for (uint32_t i = 0; i < TT_GPU_RING; i++)
		if (!tt_gpu_record(gpu, gpu->cmd[i], gpu->fill_bytes, false))
			return false;
	return true;
}

bool tt_gpu_create(const struct tt_gpu_binding *b, uint64_t gpu_us, struct tt_gpu **out)
{
	struct tt_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return false;
	gpu->last = -1;
	gpu->device = b->device;
	if (!tt_vk_load(&gpu->vk, b->instance, b->device)) {
		free(gpu);
		return false;
	}
	gpu->vk.vkGetDeviceQueue(b->device, b->queue_family, b->queue_index, &gpu->queue);
	if (!create_buffer(gpu, b->physical_device) || !create_timestamps(gpu, b) ||
	    !create_ring(gpu, b->queue_family) || !tt_gpu_calibrate(gpu, gpu_us) ||
	    !record_ring(gpu)) {
		tt_gpu_destroy(&gpu);
		return false;
	}
	*out = gpu;
	return true;
}

static void wait_all(struct tt_gpu *gpu)
{
	for (uint32_t i = 0; i < TT_GPU_RING; i++) {
		if (!gpu->pending[i])
			continue;
		tt_vk_ok(gpu->vk.vkWaitForFences(gpu->device, 1, &gpu->fence[i], VK_TRUE,
		                              TT_GPU_DESTROY_TIMEOUT_NS),
		      "vkWaitForFences (destroy)");
		gpu->pending[i] = false;
	}
}

void tt_gpu_destroy(struct tt_gpu **gpu_ptr)
{
	struct tt_gpu *gpu = *gpu_ptr;
	if (!gpu)
		return;
	*gpu_ptr = NULL;
	wait_all(gpu);
	if (gpu->submitted || gpu->skipped)
		tt_log("session end: %llu GPU submissions, %llu skipped (ring full)",
		       (unsigned long long)gpu->submitted, (unsigned long long)gpu->skipped);
	for (uint32_t i = 0; i < TT_GPU_RING; i++)
		if (gpu->fence[i])
			gpu->vk.vkDestroyFence(gpu->device, gpu->fence[i], NULL);
	/* Destroying the pool frees its command buffers. */
	if (gpu->pool)
		gpu->vk.vkDestroyCommandPool(gpu->device, gpu->pool, NULL);
	if (gpu->queries)
		gpu->vk.vkDestroyQueryPool(gpu->device, gpu->queries, NULL);
	if (gpu->buffer)
		gpu->vk.vkDestroyBuffer(gpu->device, gpu->buffer, NULL);
	if (gpu->memory)
		gpu->vk.vkFreeMemory(gpu->device, gpu->memory, NULL);
	tt_vk_unload(&gpu->vk);
	free(gpu);
}

/* Makes ring slot @p i reusable. Returns VK_NOT_READY if it is still in flight. */
static VkResult reclaim(struct tt_gpu *gpu, uint32_t i)
{
	if (!gpu->pending[i])
		return VK_SUCCESS;
	VkResult r = gpu->vk.vkGetFenceStatus(gpu->device, gpu->fence[i]);
	if (r != VK_SUCCESS)
		return r;
	gpu->pending[i] = false;
	return gpu->vk.vkResetFences(gpu->device, 1, &gpu->fence[i]);
}

bool tt_gpu_submit(struct tt_gpu *gpu)
{
	uint32_t i = gpu->next;
	VkResult r = reclaim(gpu, i);
	if (r == VK_NOT_READY) {
		if (gpu->skipped++ == 0)
			tt_log("all %d submissions still in flight: skipping this frame's GPU work "
			       "(xrEndFrame does not block); counted at session end",
			       TT_GPU_RING);
		return true;
	}
	if (!tt_vk_ok(r, "vkGetFenceStatus/vkResetFences"))
		return false;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &gpu->cmd[i],
	};
	if (!tt_vk_ok(gpu->vk.vkQueueSubmit(gpu->queue, 1, &si, gpu->fence[i]), "vkQueueSubmit"))
		return false;
	gpu->pending[i] = true;
	gpu->last = (int32_t)i;
	gpu->next = (i + 1) % TT_GPU_RING;
	gpu->submitted++;
	return true;
}

bool tt_gpu_wait(struct tt_gpu *gpu)
{
	if (gpu->last < 0 || !gpu->pending[gpu->last])
		return true;
	return tt_vk_ok(gpu->vk.vkWaitForFences(gpu->device, 1, &gpu->fence[gpu->last], VK_TRUE,
	                                     UINT64_MAX),
	             "vkWaitForFences");
}

bool tt_gpu_record(struct tt_gpu *gpu, VkCommandBuffer cmd, uint64_t bytes, bool timestamps)
{
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	if (!tt_vk_ok(gpu->vk.vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer"))
		return false;
	if (timestamps) {
		gpu->vk.vkCmdResetQueryPool(cmd, gpu->queries, 0, 2);
		gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, gpu->queries, 0);
	}
	/* Fill sizes must be multiples of 4. A barrier between fills keeps a
	 * real GPU from running them in parallel, so time adds up linearly. */
	VkMemoryBarrier barrier = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	};
	uint64_t left = bytes & ~(uint64_t)3;
	for (bool first = true; left > 0; first = false) {
		VkDeviceSize chunk = left < gpu->buffer_size ? left : gpu->buffer_size;
		if (!first)
			gpu->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
			                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier,
			                             0, NULL, 0, NULL);
		gpu->vk.vkCmdFillBuffer(cmd, gpu->buffer, 0, chunk, 0x5a5a5a5a);
		left -= chunk;
	}
	if (timestamps)
		gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, gpu->queries, 1);
	return tt_vk_ok(gpu->vk.vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
}
