/*
 * GPU timestamps on the application's queue; see xl_gpu.h.
 */
#include "xl_gpu.h"

#include "xl_clock.h"
#include "xl_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SLOT_FREE = 0, SLOT_SUBMITTED = 1 };

/* How long destruction waits for the GPU to finish our last timestamps. */
#define DESTROY_WAIT_NS 1000000000ull

static unsigned pending_fences(const struct xl_gpu *gpu, VkFence *out);

/* Records slot @p i's command buffer once: reset its query, write a timestamp. */
static VkResult record_slot(struct xl_gpu *gpu, uint32_t i)
{
	const struct xl_vk *vk = &gpu->vk;
	VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkResult r = vk->BeginCommandBuffer(gpu->slots[i].cmd, &begin);
	if (r != VK_SUCCESS)
		return r;
	vk->CmdResetQueryPool(gpu->slots[i].cmd, gpu->pool, i, 1);
	/* BOTTOM_OF_PIPE: written once all earlier work on the queue is done. */
	vk->CmdWriteTimestamp(gpu->slots[i].cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, gpu->pool, i);
	return vk->EndCommandBuffer(gpu->slots[i].cmd);
}

static VkResult create_slots(struct xl_gpu *gpu, uint32_t family)
{
	const struct xl_vk *vk = &gpu->vk;
	VkQueryPoolCreateInfo qp = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = XL_GPU_SLOTS,
	};
	VkCommandPoolCreateInfo cp = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.queueFamilyIndex = family,
	};
	VkResult r = vk->CreateQueryPool(gpu->device, &qp, NULL, &gpu->pool);
	if (r == VK_SUCCESS)
		r = vk->CreateCommandPool(gpu->device, &cp, NULL, &gpu->cmd_pool);
	if (r != VK_SUCCESS)
		return r;

	VkCommandBuffer cmds[XL_GPU_SLOTS];
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = gpu->cmd_pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = XL_GPU_SLOTS,
	};
	r = vk->AllocateCommandBuffers(gpu->device, &ai, cmds);
	for (uint32_t i = 0; r == VK_SUCCESS && i < XL_GPU_SLOTS; i++) {
		VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		gpu->slots[i].cmd = cmds[i];
		r = vk->CreateFence(gpu->device, &fi, NULL, &gpu->slots[i].fence);
		if (r == VK_SUCCESS)
			r = record_slot(gpu, i);
	}
	return r;
}

static bool query_queue(struct xl_gpu *gpu, VkPhysicalDevice phys, uint32_t family, char *why,
                        size_t why_size)
{
	const struct xl_vk *vk = &gpu->vk;
	VkPhysicalDeviceProperties props;
	uint32_t count = 0;

	vk->GetPhysicalDeviceProperties(phys, &props);
	vk->GetPhysicalDeviceQueueFamilyProperties(phys, &count, NULL);
	VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof(*families));
	if (!families) {
		snprintf(why, why_size, "out of memory");
		return false;
	}
	vk->GetPhysicalDeviceQueueFamilyProperties(phys, &count, families);
	uint32_t bits = family < count ? families[family].timestampValidBits : 0;
	free(families);
	if (bits == 0 || props.limits.timestampPeriod <= 0.0f) {
		snprintf(why, why_size, "queue family %u has no timestamps", family);
		return false;
	}
	gpu->valid_mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	gpu->period_ns = props.limits.timestampPeriod;
	return true;
}

struct xl_gpu *xl_gpu_create(XrSession session, const XrGraphicsBindingVulkanKHR *binding,
                             const struct xl_gpu_params *params, struct xl_gate *gate,
                             char *why, size_t why_size)
{
	PFN_vkGetInstanceProcAddr gipa = xl_vk_find_loader(params->gipa);
	if (!gipa) {
		snprintf(why, why_size, "Vulkan is not loaded in this process");
		return NULL;
	}
	struct xl_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	gpu->session = session;
	gpu->device = binding->device;
	atomic_init(&gpu->submit_error, VK_SUCCESS);
	if (!xl_vk_load(&gpu->vk, gipa, binding->instance, binding->device)) {
		snprintf(why, why_size, "a Vulkan entry point is missing");
		free(gpu);
		return NULL;
	}
	if (!query_queue(gpu, binding->physicalDevice, binding->queueFamilyIndex, why, why_size)) {
		free(gpu);
		return NULL;
	}
	gpu->vk.GetDeviceQueue(gpu->device, binding->queueFamilyIndex, binding->queueIndex,
	                       &gpu->queue);
	gpu->calibrated = params->calibrated && gpu->vk.GetCalibratedTimestamps;

	VkResult r = create_slots(gpu, binding->queueFamilyIndex);
	if (r == VK_SUCCESS && gate)
		r = xl_gate_create(gate, &gpu->vk, gpu->device, params->timeline_khr);
	if (r == VK_SUCCESS && gate) {
		gpu->gate = gate;
		if (!xl_gate_watchdog_start(&gpu->watchdog, gate))
			r = VK_ERROR_INITIALIZATION_FAILED; /* no gate without its watchdog */
	}
	if (r != VK_SUCCESS) {
		snprintf(why, why_size, "creating the timestamp objects failed (VkResult %d)", r);
		xl_gpu_destroy(gpu);
		return NULL;
	}
	return gpu;
}

void xl_gpu_destroy(struct xl_gpu *gpu)
{
	VkFence pending[XL_GPU_SLOTS];

	if (!gpu)
		return;
	xl_gate_watchdog_stop(&gpu->watchdog);
	const struct xl_vk *vk = &gpu->vk;
	unsigned n = pending_fences(gpu, pending);
	if (n)
		vk->WaitForFences(gpu->device, n, pending, VK_TRUE, DESTROY_WAIT_NS);
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		if (gpu->slots[i].fence)
			vk->DestroyFence(gpu->device, gpu->slots[i].fence, NULL);
	if (gpu->cmd_pool)
		vk->DestroyCommandPool(gpu->device, gpu->cmd_pool, NULL);
	if (gpu->pool)
		vk->DestroyQueryPool(gpu->device, gpu->pool, NULL);
	if (gpu->gate)
		xl_gate_destroy(gpu->gate, vk);
	free(gpu);
}

static unsigned pending_fences(const struct xl_gpu *gpu, VkFence *out)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		if (atomic_load(&gpu->slots[i].state) == SLOT_SUBMITTED)
			out[n++] = gpu->slots[i].fence;
	return n;
}

/* Whether the writer has collected every submitted timestamp. */
static bool all_collected(void *ctx)
{
	VkFence pending[XL_GPU_SLOTS];
	return pending_fences(ctx, pending) == 0;
}

void xl_gpu_drain(struct xl_gpu *gpu, uint64_t timeout_ns)
{
	VkFence pending[XL_GPU_SLOTS];
	unsigned n = pending_fences(gpu, pending);

	if (n)
		gpu->vk.WaitForFences(gpu->device, n, pending, VK_TRUE, timeout_ns);
	xl_thread_wait(all_collected, gpu, timeout_ns, 1000000);
}

void xl_gpu_abandon(struct xl_gpu *gpu)
{
	xl_gate_watchdog_stop(&gpu->watchdog);
	free(gpu);
}

bool xl_gpu_stamp(struct xl_gpu *gpu, int64_t display_time, uint32_t session_id, bool gated,
                  uint32_t thread_id)
{
	uint32_t head = atomic_load_explicit(&gpu->head, memory_order_relaxed);
	struct xl_gpu_slot *slot = &gpu->slots[head % XL_GPU_SLOTS];
	if (atomic_load_explicit(&slot->state, memory_order_acquire) != SLOT_FREE)
		return false;

	slot->session_id = session_id;
	slot->display_time = display_time;
	atomic_store_explicit(&slot->invalid, false, memory_order_relaxed);

	VkSubmitInfo submit = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &slot->cmd,
	};
	VkTimelineSemaphoreSubmitInfo timeline = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	struct xl_gate *gate = gpu->gate;
	uint64_t value = 0;
	if (gated && gate) {
		value = ++gate->counter;
		timeline.waitSemaphoreValueCount = 1;
		timeline.pWaitSemaphoreValues = &value;
		submit.pNext = &timeline;
		submit.waitSemaphoreCount = 1;
		submit.pWaitSemaphores = &gate->semaphore;
		submit.pWaitDstStageMask = &stage;
	}
	VkResult r = gpu->vk.QueueSubmit(gpu->queue, 1, &submit, slot->fence);
	if (r != VK_SUCCESS) {
		int expected = VK_SUCCESS;
		atomic_compare_exchange_strong(&gpu->submit_error, &expected, r);
		return false;
	}
	if (value) {
		/* Published last: the watchdog must see the slot it may invalidate. */
		atomic_store_explicit(&gate->armed_invalid, (uintptr_t)&slot->invalid,
		                      memory_order_relaxed);
		atomic_store_explicit(&gate->armed_tid, thread_id, memory_order_relaxed);
		atomic_store_explicit(&gate->armed_at_ns, xl_clock_mono_ns(), memory_order_relaxed);
		atomic_store_explicit(&gate->armed, value, memory_order_release);
	}
	atomic_store_explicit(&slot->state, SLOT_SUBMITTED, memory_order_release);
	atomic_store_explicit(&gpu->head, head + 1, memory_order_relaxed);
	return true;
}

bool xl_gpu_collect(struct xl_gpu *gpu, uint32_t max_session,
                    void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx)
{
	const struct xl_vk *vk = &gpu->vk;

	for (;;) {
		struct xl_gpu_slot *slot = &gpu->slots[gpu->tail % XL_GPU_SLOTS];
		if (atomic_load_explicit(&slot->state, memory_order_acquire) != SLOT_SUBMITTED)
			return false;
		if (slot->session_id > max_session)
			return false;
		if (vk->GetFenceStatus(gpu->device, slot->fence) != VK_SUCCESS)
			return true;

		uint64_t result[2] = {0, 0}; /* timestamp, availability; no WAIT bit */
		VkResult r = vk->GetQueryPoolResults(gpu->device, gpu->pool,
		                                     gpu->tail % XL_GPU_SLOTS, 1, sizeof(result),
		                                     result, sizeof(result),
		                                     VK_QUERY_RESULT_64_BIT |
		                                     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		bool tripped = atomic_load(&slot->invalid);
		struct xl_gpu_sample s = {
			.display_time = slot->display_time,
			.ticks = result[0] & gpu->valid_mask,
			.period_ns = gpu->period_ns,
			.valid = r == VK_SUCCESS && result[1] != 0 && !tripped,
			.gate_tripped = tripped,
			.session_id = slot->session_id,
		};
		vk->ResetFences(gpu->device, 1, &slot->fence);
		atomic_store_explicit(&slot->state, SLOT_FREE, memory_order_release);
		gpu->tail++;
		emit(ctx, &s);
	}
}

unsigned xl_gpu_pending(const struct xl_gpu *gpu, uint32_t session_id)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		if (atomic_load_explicit(&gpu->slots[i].state, memory_order_acquire) ==
		            SLOT_SUBMITTED &&
		    gpu->slots[i].session_id == session_id)
			n++;
	return n;
}

bool xl_gpu_calibrate(struct xl_gpu *gpu, struct xl_gpu_calibration *out)
{
	VkCalibratedTimestampInfoEXT info[2] = {
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT},
		{.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		 .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	};
	uint64_t stamps[2], deviation = 0;

	if (!gpu->calibrated ||
	    gpu->vk.GetCalibratedTimestamps(gpu->device, 2, info, stamps, &deviation) != VK_SUCCESS)
		return false;
	out->gpu_ticks = stamps[0] & gpu->valid_mask;
	out->monotonic_ns = stamps[1];
	out->max_deviation_ns = deviation;
	return true;
}
