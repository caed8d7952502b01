/*
 * Creation, per-frame submission, non-blocking readback and destruction of
 * the closed-loop GPU work (see gw_work.h).
 */
#include "gw_work.h"

#include <stdlib.h>
#include <string.h>

/* Big enough that one fill is far longer than a command's overhead. */
#define GW_BUFFER_SIZE (16u << 20)
/* A frame's work in at most this many fills (see fit_fill_buffer)... */
#define GW_MAX_FILLS 16
/* ... unless that needs a buffer larger than this. */
#define GW_MAX_BUFFER_SIZE (1ull << 30)
/* Destruction waits this long for our own work before giving up. */
#define GW_DESTROY_TIMEOUT_NS 5000000000ull
/* The synchronous submissions of creation and destruction, likewise. */
#define GW_RUN_NOW_TIMEOUT_NS 10000000000ull

/*
 * A memory type allowed by @p type_bits that has all of @p required, one
 * that also has @p preferred if there is one; -1 if none.
 */
static int32_t find_memory_type(struct gw_work *w, VkPhysicalDevice pd, uint32_t type_bits,
                                VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred)
{
	VkPhysicalDeviceMemoryProperties props;
	w->vk.vkGetPhysicalDeviceMemoryProperties(pd, &props);
	int32_t any = -1;
	for (uint32_t i = 0; i < props.memoryTypeCount; i++) {
		VkMemoryPropertyFlags flags = props.memoryTypes[i].propertyFlags;
		if (!(type_bits & (1u << i)) || (flags & required) != required)
			continue;
		if ((flags & preferred) == preferred)
			return (int32_t)i;
		if (any < 0)
			any = (int32_t)i;
	}
	return any;
}

/* A TRANSFER_DST buffer of @p size bound to memory of its own. */
static bool create_buffer(struct gw_work *w, VkPhysicalDevice pd, VkDeviceSize size,
                          VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                          VkBuffer *buffer, VkDeviceMemory *memory)
{
	const struct gw_vk *vk = &w->vk;
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	if (!gw_vk_ok(vk, vk->vkCreateBuffer(w->device, &bci, NULL, buffer), "vkCreateBuffer"))
		return false;

	VkMemoryRequirements req;
	vk->vkGetBufferMemoryRequirements(w->device, *buffer, &req);
	int32_t type = find_memory_type(w, pd, req.memoryTypeBits, required, preferred);
	if (type < 0) {
		w->log("no memory type for a buffer of %llu bytes (property flags 0x%x)",
		       (unsigned long long)size, (unsigned)required);
		return false;
	}
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)type,
	};
	return gw_vk_ok(vk, vk->vkAllocateMemory(w->device, &mai, NULL, memory),
	                "vkAllocateMemory") &&
	       gw_vk_ok(vk, vk->vkBindBufferMemory(w->device, *buffer, *memory, 0),
	                "vkBindBufferMemory");
}

/* The fills' target: device-local where there is such memory. */
static bool create_fill_buffer(struct gw_work *w, VkPhysicalDevice pd, VkDeviceSize size)
{
	w->buffer_size = size;
	return create_buffer(w, pd, size, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &w->buffer,
	                     &w->memory);
}

static void destroy_fill_buffer(struct gw_work *w)
{
	if (w->buffer)
		w->vk.vkDestroyBuffer(w->device, w->buffer, NULL);
	if (w->memory)
		w->vk.vkFreeMemory(w->device, w->memory, NULL);
	w->buffer = VK_NULL_HANDLE;
	w->memory = VK_NULL_HANDLE;
}

/*
 * Grows the fill buffer after calibration so that @p bytes (and the
 * controller's headroom above it) take at most GW_MAX_FILLS fills. A fast
 * GPU needs gigabytes of fills for a few milliseconds: at 16 MiB a fill,
 * recording them (hundreds of fills and barriers, re-recorded whenever the
 * controller changes the size) costs the CPU hundreds of µs before the
 * submission, which a plain sandwich rightly reads as GPU time while the
 * GPU waits for it. The work must be GPU work, not CPU time. The queue is
 * idle here: calibration waited for each of its runs.
 */
static bool fit_fill_buffer(struct gw_work *w, VkPhysicalDevice pd, uint64_t bytes)
{
	uint64_t want = bytes / (GW_MAX_FILLS / 2);
	if (want <= w->buffer_size)
		return true;
	want = want > GW_MAX_BUFFER_SIZE ? GW_MAX_BUFFER_SIZE : (want + 0xfffff) & ~(uint64_t)0xfffff;
	destroy_fill_buffer(w);
	if (create_fill_buffer(w, pd, want))
		return true;
	/* Not that much device memory: the small one, more fills. */
	destroy_fill_buffer(w);
	return create_fill_buffer(w, pd, GW_BUFFER_SIZE);
}

/*
 * The slots' timestamp copies. Coherent, so the host never flushes or
 * invalidates; cached preferred, as the host reads it every frame.
 */
static bool create_ts_buffer(struct gw_work *w, VkPhysicalDevice pd)
{
	const VkDeviceSize size = GW_RING * sizeof(struct gw_ts);
	void *map;
	if (!create_buffer(w, pd, size,
	                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                   VK_MEMORY_PROPERTY_HOST_CACHED_BIT, &w->ts_buffer, &w->ts_memory) ||
	    !gw_vk_ok(&w->vk, w->vk.vkMapMemory(w->device, w->ts_memory, 0, size, 0, &map),
	              "vkMapMemory"))
		return false;
	w->ts = map;
	/* Allocations start undefined: all unavailable until a copy lands. */
	memset(w->ts, 0, size);
	return true;
}

static bool create_timestamps(struct gw_work *w, const struct gw_work_info *info)
{
	const struct gw_vk *vk = &w->vk;
	uint32_t count = 0;
	vk->vkGetPhysicalDeviceQueueFamilyProperties(info->physical_device, &count, NULL);
	VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof(*families));
	if (!families)
		return false;
	vk->vkGetPhysicalDeviceQueueFamilyProperties(info->physical_device, &count, families);
	uint32_t bits = info->queue_family < count ? families[info->queue_family].timestampValidBits : 0;
	free(families);
	if (bits == 0)
		return true; /* open loop: calibration falls back to a guess */

	VkPhysicalDeviceProperties props;
	vk->vkGetPhysicalDeviceProperties(info->physical_device, &props);
	w->ts_period_ns = props.limits.timestampPeriod;
	w->ts_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = 2 * GW_RING,
	};
	return gw_vk_ok(vk, vk->vkCreateQueryPool(w->device, &qci, NULL, &w->queries),
	                "vkCreateQueryPool") &&
	       create_ts_buffer(w, info->physical_device);
}

static bool create_ring(struct gw_work *w, uint32_t family)
{
	const struct gw_vk *vk = &w->vk;
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = family,
	};
	if (!gw_vk_ok(vk, vk->vkCreateCommandPool(w->device, &pci, NULL, &w->pool),
	              "vkCreateCommandPool"))
		return false;
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	for (uint32_t i = 0; i < GW_RING; i++) {
		VkCommandBufferAllocateInfo cai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = w->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 1,
		};
		w->slot[i].copies = -1;
		if (!gw_vk_ok(vk, vk->vkAllocateCommandBuffers(w->device, &cai, &w->slot[i].cmd),
		              "vkAllocateCommandBuffers") ||
		    !gw_vk_ok(vk, vk->vkCreateFence(w->device, &fci, NULL, &w->slot[i].fence),
		              "vkCreateFence"))
			return false;
	}
	return true;
}

bool gw_work_run_now(struct gw_work *w, uint32_t i, uint64_t timeout_ns)
{
	const struct gw_vk *vk = &w->vk;
	struct gw_slot *s = &w->slot[i];
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &s->cmd,
	};
	return gw_vk_ok(vk, vk->vkQueueSubmit(w->queue, 1, &si, s->fence), "vkQueueSubmit") &&
	       gw_vk_ok(vk, vk->vkWaitForFences(w->device, 1, &s->fence, VK_TRUE, timeout_ns),
	                "vkWaitForFences") &&
	       gw_vk_ok(vk, vk->vkResetFences(w->device, 1, &s->fence), "vkResetFences");
}

/*
 * Resets every query once, after calibration: from then on each frame's
 * command buffer resets its predecessor's two queries right after copying
 * them, so a slot's queries are always reset when the slot comes round.
 */
static bool reset_queries(struct gw_work *w)
{
	const struct gw_vk *vk = &w->vk;
	struct gw_slot *s = &w->slot[0];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	s->bytes = 0; /* not a ring recording any more */
	if (!w->queries)
		return true;
	if (!gw_vk_ok(vk, vk->vkBeginCommandBuffer(s->cmd, &bi), "vkBeginCommandBuffer"))
		return false;
	vk->vkCmdResetQueryPool(s->cmd, w->queries, 0, 2 * GW_RING);
	return gw_vk_ok(vk, vk->vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer") &&
	       gw_work_run_now(w, 0, GW_RUN_NOW_TIMEOUT_NS);
}

bool gw_work_create(const struct gw_work_info *info, struct gw_work **out)
{
	struct gw_work *w = calloc(1, sizeof(*w));
	if (!w)
		return false;
	*w = (struct gw_work){
		.device = info->device,
		.last = -1,
		.log = info->log,
		.on_sample = info->on_sample,
		.sample_ctx = info->sample_ctx,
	};
	if (!gw_vk_load(&w->vk, info->gipa, info->instance, info->device, info->log)) {
		free(w);
		return false;
	}
	w->vk.vkGetDeviceQueue(info->device, info->queue_family, info->queue_index, &w->queue);
	uint64_t bytes;
	if (!create_fill_buffer(w, info->physical_device, GW_BUFFER_SIZE) ||
	    !create_timestamps(w, info) || !create_ring(w, info->queue_family) ||
	    !gw_work_calibrate(w, info->target_us, &bytes) ||
	    !fit_fill_buffer(w, info->physical_device, bytes) || !reset_queries(w)) {
		gw_work_destroy(&w);
		return false;
	}
	gw_ctrl_init(&w->ctrl, (double)info->target_us * 1000.0, bytes);
	*out = w;
	return true;
}

bool gw_work_read_ts(struct gw_work *w, uint32_t i, double *ns)
{
	struct gw_ts *ts = &w->ts[i];
	bool ok = ts->begin_avail && ts->end_avail;
	if (ok)
		*ns = (double)((ts->end - ts->begin) & w->ts_mask) * w->ts_period_ns;
	/* Host writes before the next vkQueueSubmit are visible to its copy. */
	*ts = (struct gw_ts){0};
	return ok;
}

/*
 * Slot @p i's timestamps have been copied and the copy has finished: report
 * its duration, let the controller learn, free the slot. Reads only host
 * memory a command buffer wrote: vkGetQueryPoolResults would block until
 * the whole queue drains on lavapipe, even without VK_QUERY_RESULT_WAIT_BIT,
 * i.e. behind anything queued after our frame.
 */
static void read_back(struct gw_work *w, uint32_t i)
{
	struct gw_slot *s = &w->slot[i];
	double ns;
	s->state = GW_SLOT_FREE;
	if (!gw_work_read_ts(w, i, &ns)) {
		if (w->unavailable++ == 0)
			w->log("timestamps unavailable after their copy's fence signalled; "
			       "frame left out (counted at the end)");
		return;
	}
	gw_ctrl_update(&w->ctrl, s->bytes, ns);
	if (w->on_sample)
		w->on_sample(w->sample_ctx, s->tag, (uint64_t)(ns + 0.5));
}

/*
 * Marks slot @p i finished if its fence has signalled (VK_NOT_READY or
 * VK_TIMEOUT if not) and reads back the predecessor it copied. Without
 * queries nothing waits for a copy: the slot is free at once.
 */
static VkResult retire(struct gw_work *w, uint32_t i, uint64_t timeout_ns)
{
	struct gw_slot *s = &w->slot[i];
	if (s->state != GW_SLOT_PENDING)
		return VK_SUCCESS;
	VkResult r = timeout_ns ? w->vk.vkWaitForFences(w->device, 1, &s->fence, VK_TRUE, timeout_ns)
	                        : w->vk.vkGetFenceStatus(w->device, s->fence);
	if (r != VK_SUCCESS)
		return r;
	s->state = w->queries ? GW_SLOT_DONE : GW_SLOT_FREE;
	/* poll() goes oldest first: the predecessor is DONE already. */
	if (s->copies >= 0)
		read_back(w, (uint32_t)s->copies);
	return w->vk.vkResetFences(w->device, 1, &s->fence);
}

/*
 * Retires finished slots oldest first (one queue: they finish in order).
 * Slot w->next is the oldest: it is the next to be reused.
 */
static bool poll(struct gw_work *w, uint64_t timeout_ns)
{
	for (uint32_t n = 0; n < GW_RING; n++) {
		VkResult r = retire(w, (w->next + n) % GW_RING, timeout_ns);
		if (r == VK_NOT_READY || r == VK_TIMEOUT)
			return true;
		if (!gw_vk_ok(&w->vk, r, "vkGetFenceStatus/vkResetFences"))
			return false;
	}
	return true;
}

bool gw_work_submit(struct gw_work *w, uint64_t tag)
{
	if (!poll(w, 0))
		return false;
	uint32_t i = w->next;
	struct gw_slot *s = &w->slot[i];
	if (s->state != GW_SLOT_FREE) {
		if (w->skipped++ == 0)
			w->log("all %d submissions still in flight: skipping this frame's GPU work "
			       "(never blocking); counted at the end",
			       GW_RING - 1);
		return true;
	}
	/* Re-record only when the size or the predecessor changed: the latter
	 * only for the first submission and the one after it. */
	int32_t prev = w->queries ? w->last : -1;
	if ((s->bytes != w->ctrl.bytes || s->copies != prev) &&
	    !gw_work_record(w, i, w->ctrl.bytes, prev))
		return false;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &s->cmd,
	};
	if (!gw_vk_ok(&w->vk, w->vk.vkQueueSubmit(w->queue, 1, &si, s->fence), "vkQueueSubmit"))
		return false;
	s->tag = tag;
	s->state = GW_SLOT_PENDING;
	w->last = (int32_t)i;
	w->next = (i + 1) % GW_RING;
	w->submitted++;
	return true;
}

bool gw_work_wait(struct gw_work *w)
{
	if (w->last < 0 || w->slot[w->last].state != GW_SLOT_PENDING)
		return true;
	return gw_vk_ok(&w->vk,
	                w->vk.vkWaitForFences(w->device, 1, &w->slot[w->last].fence, VK_TRUE,
	                                      UINT64_MAX),
	                "vkWaitForFences");
}

/*
 * The last submission's timestamps have no successor to copy them: copy
 * them with a command buffer of their own, in the free slot after it, and
 * read them back. Only once every submission has finished.
 */
static void final_copy(struct gw_work *w)
{
	const struct gw_vk *vk = &w->vk;
	uint32_t last = (uint32_t)w->last;
	struct gw_slot *s = &w->slot[w->next];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	if (!w->queries || w->last < 0 || w->slot[last].state != GW_SLOT_DONE ||
	    s->state != GW_SLOT_FREE)
		return;
	s->bytes = 0; /* not a ring recording any more */
	w->last = -1;
	if (!gw_vk_ok(vk, vk->vkBeginCommandBuffer(s->cmd, &bi), "vkBeginCommandBuffer"))
		return;
	gw_work_cmd_copy(w, s->cmd, last);
	if (gw_vk_ok(vk, vk->vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer") &&
	    gw_work_run_now(w, w->next, GW_RUN_NOW_TIMEOUT_NS))
		read_back(w, last);
}

void gw_work_destroy(struct gw_work **work)
{
	struct gw_work *w = *work;
	if (!w)
		return;
	*work = NULL;
	if (w->pool && poll(w, GW_DESTROY_TIMEOUT_NS))
		final_copy(w);
	if (w->skipped || w->unavailable)
		w->log("GPU work: %llu frames skipped (ring full), %llu without timestamps",
		       (unsigned long long)w->skipped, (unsigned long long)w->unavailable);
	const struct gw_vk *vk = &w->vk;
	for (uint32_t i = 0; i < GW_RING; i++)
		if (w->slot[i].fence)
			vk->vkDestroyFence(w->device, w->slot[i].fence, NULL);
	/* Destroying the pool frees its command buffers. */
	if (w->pool)
		vk->vkDestroyCommandPool(w->device, w->pool, NULL);
	if (w->queries)
		vk->vkDestroyQueryPool(w->device, w->queries, NULL);
	if (w->ts_buffer)
		vk->vkDestroyBuffer(w->device, w->ts_buffer, NULL);
	/* Freeing mapped memory unmaps it. */
	if (w->ts_memory)
		vk->vkFreeMemory(w->device, w->ts_memory, NULL);
	destroy_fill_buffer(w);
	free(w);
}

/* Fill sizes must be multiples of 4. A barrier between fills keeps a real
 * GPU from running them in parallel, so time adds up linearly. */
void gw_work_cmd_fills(struct gw_work *w, VkCommandBuffer cmd, uint64_t bytes)
{
	VkMemoryBarrier barrier = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	};
	uint64_t left = bytes & ~(uint64_t)3;
	for (bool first = true; left > 0; first = false) {
		VkDeviceSize chunk = left < w->buffer_size ? left : w->buffer_size;
		if (!first)
			w->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
			                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0,
			                           NULL, 0, NULL);
		w->vk.vkCmdFillBuffer(cmd, w->buffer, 0, chunk, 0x5a5a5a5a);
		left -= chunk;
	}
}

/*
 * WAIT_BIT makes the GPU (not the host) wait for both timestamps to be
 * written: without it a copy that overtakes a BOTTOM_OF_PIPE write finds it
 * unavailable. The barrier to HOST_READ makes the copy visible to the host
 * once the fence has signalled; its TRANSFER destination stage orders the
 * copy before a vkCmdResetQueryPool of the same queries that follows.
 */
void gw_work_cmd_copy(struct gw_work *w, VkCommandBuffer cmd, uint32_t i)
{
	const struct gw_vk *vk = &w->vk;
	const VkDeviceSize offset = i * sizeof(struct gw_ts);
	vk->vkCmdCopyQueryPoolResults(cmd, w->queries, 2 * i, 2, w->ts_buffer, offset,
	                              sizeof(struct gw_ts) / 2,
	                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	                                      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	VkBufferMemoryBarrier barrier = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.buffer = w->ts_buffer,
		.offset = offset,
		.size = sizeof(struct gw_ts),
	};
	vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
	                         NULL, 1, &barrier, 0, NULL);
}

/*
 * Frame n's command buffer copies frame n-1's timestamps inside its own
 * bracket, so the copy, its barrier and the reset are measured GPU work
 * like the fills. Bottom of pipe for the begin timestamp: it is written
 * once earlier work is done, so the queue's idle time between submissions
 * is never measured.
 */
bool gw_work_record(struct gw_work *w, uint32_t i, uint64_t bytes, int32_t prev)
{
	struct gw_slot *s = &w->slot[i];
	const struct gw_vk *vk = &w->vk;
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	s->bytes = 0;
	if (!gw_vk_ok(vk, vk->vkBeginCommandBuffer(s->cmd, &bi), "vkBeginCommandBuffer"))
		return false;
	if (w->queries)
		vk->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w->queries,
		                        2 * i);
	if (w->queries && prev >= 0) {
		gw_work_cmd_copy(w, s->cmd, (uint32_t)prev);
		vk->vkCmdResetQueryPool(s->cmd, w->queries, 2 * (uint32_t)prev, 2);
	}
	gw_work_cmd_fills(w, s->cmd, bytes);
	if (w->queries)
		vk->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w->queries,
		                        2 * i + 1);
	if (!gw_vk_ok(vk, vk->vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer"))
		return false;
	s->bytes = bytes;
	s->copies = prev;
	return true;
}
