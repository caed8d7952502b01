/*
 * The app's render and timestamp submissions, in a ring of frame slots.
 */
#include "app_gpu.h"

#include "app_check.h"

#define APP_GPU_TIMEOUT_NS 10000000000ull

static bool record_mark(struct app_gpu *g, VkCommandBuffer cmd, uint32_t query, bool reset)
{
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	if (!APP_VK(vkBeginCommandBuffer(cmd, &bi)))
		return false;
	if (g->queries && reset)
		vkCmdResetQueryPool(cmd, g->queries, query, 2);
	/* Bottom of pipe: written once everything submitted before it is done. */
	if (g->queries)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, query);
	return APP_VK(vkEndCommandBuffer(cmd));
}

/* The mark command buffers never change: record them once. */
static bool create_slot(struct app_gpu *g, uint32_t i)
{
	struct app_gpu_slot *s = &g->slot[i];
	VkCommandBuffer cmds[3];
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = g->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 3,
	};
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	if (!APP_VK(vkAllocateCommandBuffers(g->vk->device, &ai, cmds)))
		return false;
	s->render = cmds[0];
	s->mark_before = cmds[1];
	s->mark_after = cmds[2];
	return APP_VK(vkCreateFence(g->vk->device, &fi, NULL, &s->fence)) &&
	       record_mark(g, s->mark_before, 2 * i, true) &&
	       record_mark(g, s->mark_after, 2 * i + 1, false);
}

bool app_gpu_create(struct app_gpu *g, const struct app_vk *vk)
{
	*g = (struct app_gpu){.vk = vk};
	VkCommandPoolCreateInfo pi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = vk->queue_family,
	};
	if (!APP_VK(vkCreateCommandPool(vk->device, &pi, NULL, &g->pool)))
		return false;
	if (vk->ts_mask) {
		VkQueryPoolCreateInfo qi = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 2 * APP_GPU_SLOTS,
		};
		if (!APP_VK(vkCreateQueryPool(vk->device, &qi, NULL, &g->queries)))
			return false;
	}
	for (uint32_t i = 0; i < APP_GPU_SLOTS; i++)
		if (!create_slot(g, i))
			return false;
	return true;
}

/* Waits for slot @p i, reads its bracket into @p stats and frees it. */
static bool retire(struct app_gpu *g, uint32_t i, struct app_stats *stats)
{
	struct app_gpu_slot *s = &g->slot[i];
	if (!s->pending)
		return true;
	VkDevice dev = g->vk->device;
	if (!APP_VK(vkWaitForFences(dev, 1, &s->fence, VK_TRUE, APP_GPU_TIMEOUT_NS)) ||
	    !APP_VK(vkResetFences(dev, 1, &s->fence)))
		return false;
	s->pending = false;
	if (!g->queries)
		return true;
	/* {A, availability, B, availability}; no WAIT: the fence says done. */
	uint64_t r[4];
	if (!APP_VK(vkGetQueryPoolResults(dev, g->queries, 2 * i, 2, sizeof(r), r,
	                                  2 * sizeof(uint64_t),
	                                  VK_QUERY_RESULT_64_BIT |
	                                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)))
		return false;
	if (!r[1] || !r[3]) {
		app_error("timestamps of frame %llu unavailable after its fence",
		          (unsigned long long)s->frame);
		return false;
	}
	uint64_t ticks = (r[2] - r[0]) & g->vk->ts_mask;
	app_stats_gpu(stats, s->frame, (uint64_t)((double)ticks * g->vk->ts_period_ns + 0.5));
	return true;
}

bool app_gpu_begin_frame(struct app_gpu *g, uint64_t frame, struct app_stats *stats)
{
	if (!retire(g, g->cur, stats))
		return false;
	g->slot[g->cur].frame = frame;
	return true;
}

static VkImageMemoryBarrier layout_barrier(VkImage image, uint32_t layers, VkImageLayout from,
                                           VkImageLayout to, VkAccessFlags src, VkAccessFlags dst)
{
	return (VkImageMemoryBarrier){
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src,
		.dstAccessMask = dst,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = image,
		.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers},
	};
}

static void record_clear(VkCommandBuffer cmd, VkImage image, uint32_t layers, uint64_t frame)
{
	/* From UNDEFINED: the clear overwrites everything, so the old content
	 * (and the layout the runtime left it in) does not matter. */
	VkImageMemoryBarrier to_dst = layout_barrier(image, layers, VK_IMAGE_LAYOUT_UNDEFINED,
	                                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
	                                             VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     0, 0, NULL, 0, NULL, 1, &to_dst);
	float shade = (float)(frame % 60) / 60.0f;
	VkClearColorValue color = {.float32 = {shade, 0.2f, 1.0f - shade, 1.0f}};
	VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
	vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
	/* OpenXR wants the image back in COLOR_ATTACHMENT_OPTIMAL at release. */
	VkImageMemoryBarrier to_color = layout_barrier(
		image, layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
		VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
	vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, NULL, 0, NULL, 1,
	                     &to_color);
}

static bool submit(struct app_gpu *g, VkCommandBuffer cmd, VkFence fence)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	return APP_VK(vkQueueSubmit(g->vk->queue, 1, &si, fence));
}

bool app_gpu_render(struct app_gpu *g, VkImage image, uint32_t layers, uint64_t frame)
{
	VkCommandBuffer cmd = g->slot[g->cur].render;
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	if (!APP_VK(vkBeginCommandBuffer(cmd, &bi)))
		return false;
	record_clear(cmd, image, layers, frame);
	return APP_VK(vkEndCommandBuffer(cmd)) && submit(g, cmd, VK_NULL_HANDLE);
}

bool app_gpu_mark_before(struct app_gpu *g)
{
	return submit(g, g->slot[g->cur].mark_before, VK_NULL_HANDLE);
}

bool app_gpu_mark_after(struct app_gpu *g)
{
	struct app_gpu_slot *s = &g->slot[g->cur];
	if (!submit(g, s->mark_after, s->fence))
		return false;
	s->pending = true;
	g->cur = (g->cur + 1) % APP_GPU_SLOTS;
	return true;
}

bool app_gpu_drain(struct app_gpu *g, struct app_stats *stats)
{
	bool ok = true;
	/* Oldest first, so samples stay in frame order. */
	for (uint32_t n = 0; n < APP_GPU_SLOTS; n++)
		ok = retire(g, (g->cur + n) % APP_GPU_SLOTS, stats) && ok;
	return ok;
}

void app_gpu_destroy(struct app_gpu *g)
{
	if (!g->vk)
		return;
	VkDevice dev = g->vk->device;
	for (uint32_t i = 0; i < APP_GPU_SLOTS; i++) {
		struct app_gpu_slot *s = &g->slot[i];
		if (s->pending)
			vkWaitForFences(dev, 1, &s->fence, VK_TRUE, APP_GPU_TIMEOUT_NS);
		if (s->fence)
			vkDestroyFence(dev, s->fence, NULL);
	}
	if (g->queries)
		vkDestroyQueryPool(dev, g->queries, NULL);
	if (g->pool)
		vkDestroyCommandPool(dev, g->pool, NULL);
	*g = (struct app_gpu){0};
}
