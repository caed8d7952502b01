/*
 * GPU timestamps on the application's queue; see xl_gpu.h.
 */
#include "xl_gpu.h"

#include "xl_clock.h"
#include "xl_log.h"
#include "xl_thread.h"
#include "u_ticks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SLOT_FREE = 0, SLOT_SUBMITTED = 1 };

/* How long destruction waits for the GPU to finish our last timestamps. */
#define DESTROY_WAIT_NS 1000000000ull
/* How often xl_gpu_drain() looks whether the writer has collected everything. */
#define DRAIN_STEP_NS 500000ull

static unsigned pending_fences(const struct xl_gpu *gpu, VkFence *out);
static void stop_watchdog(struct xl_gpu *gpu);
static void free_host(struct xl_gpu *gpu);

/*
 * Makes everything after it in @p cmd wait for @p event, set by the host.
 * No memory dependency: only the timestamps after it are held.
 */
static void cmd_wait_host(const struct xl_vk *vk, VkCommandBuffer cmd, VkEvent event)
{
	vk->CmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT,
	                  VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, NULL, 0, NULL, 0, NULL);
}

static VkResult begin(const struct xl_vk *vk, VkCommandBuffer cmd)
{
	VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	return vk->BeginCommandBuffer(cmd, &info);
}

/* BOTTOM_OF_PIPE: written once all earlier work on the queue is done. */
static void cmd_timestamp(const struct xl_gpu *gpu, VkCommandBuffer cmd, uint32_t query)
{
	gpu->vk.CmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, gpu->pool, query);
}

/* Records slot @p i's command buffer once: [wait for its event,] reset its query, write a timestamp. */
static VkResult record_slot(struct xl_gpu *gpu, uint32_t i)
{
	const struct xl_vk *vk = &gpu->vk;
	VkCommandBuffer cmd = gpu->slots[i].cmd;
	VkResult r = begin(vk, cmd);
	if (r != VK_SUCCESS)
		return r;
	if (gpu->events[i])
		cmd_wait_host(vk, cmd, gpu->events[i]);
	vk->CmdResetQueryPool(cmd, gpu->pool, i, 1);
	cmd_timestamp(gpu, cmd, i);
	return vk->EndCommandBuffer(cmd);
}

/* The bracket's queries follow the slots': A, E's two, B. */
#define BRACKET_QUERY XL_GPU_SLOTS
#define BRACKET_QUERIES 4

/*
 * What E writes. Measured on an H100 (driver 580, bench/RESULTS.md): a
 * submission that writes device memory costs ~3 us more at its end than an
 * empty one, and one that makes a write visible to the host ~1 us more,
 * whatever its size from 64 KiB up (4 KiB did not show it), and outside the
 * submission's own timestamps. A target's GPU work writes memory: E does
 * too, so the bracket holds those costs and the target keeps only its own.
 */
#define BRACKET_DEVICE_BYTES (64u << 10)
#define BRACKET_HOST_BYTES 64u

/* A memory type of @p type_bits with all of @p flags; UINT32_MAX if none. */
static uint32_t memory_type(const struct xl_gpu *gpu, uint32_t type_bits, VkMemoryPropertyFlags flags)
{
	VkPhysicalDeviceMemoryProperties props;
	gpu->vk.GetPhysicalDeviceMemoryProperties(gpu->physical_device, &props);
	for (uint32_t i = 0; i < props.memoryTypeCount; i++)
		if ((type_bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags)
			return i;
	return UINT32_MAX;
}

/* Bracket buffer @p i of @p size bytes, in memory with @p flags (any memory if none has them). */
static VkResult create_buffer(struct xl_gpu *gpu, uint32_t i, VkDeviceSize size,
                              VkMemoryPropertyFlags flags)
{
	const struct xl_vk *vk = &gpu->vk;
	struct xl_gpu_bracket *b = &gpu->bracket;
	VkBufferCreateInfo bi = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkMemoryRequirements req;
	VkResult r = vk->CreateBuffer(gpu->device, &bi, NULL, &b->buffer[i]);
	if (r != VK_SUCCESS)
		return r;
	vk->GetBufferMemoryRequirements(gpu->device, b->buffer[i], &req);
	uint32_t type = memory_type(gpu, req.memoryTypeBits, flags);
	if (type == UINT32_MAX)
		type = memory_type(gpu, req.memoryTypeBits, 0);
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = type,
	};
	r = vk->AllocateMemory(gpu->device, &ai, NULL, &b->memory[i]);
	return r == VK_SUCCESS ? vk->BindBufferMemory(gpu->device, b->buffer[i], b->memory[i], 0) : r;
}

/* E's work between its timestamps: see BRACKET_DEVICE_BYTES. */
static void cmd_bracket_writes(const struct xl_gpu *gpu, VkCommandBuffer cmd)
{
	const struct xl_vk *vk = &gpu->vk;
	const struct xl_gpu_bracket *b = &gpu->bracket;
	VkMemoryBarrier to_host = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	vk->CmdFillBuffer(cmd, b->buffer[0], 0, BRACKET_DEVICE_BYTES, 0);
	vk->CmdFillBuffer(cmd, b->buffer[1], 0, BRACKET_HOST_BYTES, 0);
	vk->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
	                       &to_host, 0, NULL, 0, NULL);
}

/* Records the bracket's three command buffers once (see xl_gpu.h). */
static VkResult record_bracket(struct xl_gpu *gpu)
{
	const struct xl_vk *vk = &gpu->vk;
	struct xl_gpu_bracket *b = &gpu->bracket;
	VkResult r = VK_SUCCESS;

	for (uint32_t i = 0; r == VK_SUCCESS && i < 3; i++) {
		r = begin(vk, b->cmd[i]);
		if (r != VK_SUCCESS)
			break;
		if (i == 0) {
			cmd_wait_host(vk, b->cmd[0], b->event);
			vk->CmdResetQueryPool(b->cmd[0], gpu->pool, BRACKET_QUERY, BRACKET_QUERIES);
			cmd_timestamp(gpu, b->cmd[0], BRACKET_QUERY);
		} else if (i == 1) {
			cmd_timestamp(gpu, b->cmd[1], BRACKET_QUERY + 1);
			cmd_bracket_writes(gpu, b->cmd[1]);
			cmd_timestamp(gpu, b->cmd[1], BRACKET_QUERY + 2);
		} else {
			cmd_timestamp(gpu, b->cmd[2], BRACKET_QUERY + 3);
		}
		r = vk->EndCommandBuffer(b->cmd[i]);
	}
	return r;
}

/* @p n primary command buffers from the side's pool. */
static VkResult alloc_cmds(struct xl_gpu *gpu, uint32_t n, VkCommandBuffer *out)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = gpu->cmd_pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = n,
	};
	return gpu->vk.AllocateCommandBuffers(gpu->device, &ai, out);
}

static const VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
static const VkEventCreateInfo event_info = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};

static VkResult create_bracket(struct xl_gpu *gpu)
{
	const struct xl_vk *vk = &gpu->vk;
	struct xl_gpu_bracket *b = &gpu->bracket;
	VkResult r = alloc_cmds(gpu, 3, b->cmd);
	if (r == VK_SUCCESS)
		r = vk->CreateFence(gpu->device, &fence_info, NULL, &b->fence);
	if (r == VK_SUCCESS)
		r = vk->CreateFence(gpu->device, &fence_info, NULL, &b->e_fence);
	if (r == VK_SUCCESS)
		r = vk->CreateEvent(gpu->device, &event_info, NULL, &b->event);
	if (r == VK_SUCCESS)
		r = create_buffer(gpu, 0, BRACKET_DEVICE_BYTES, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (r == VK_SUCCESS)
		r = create_buffer(gpu, 1, BRACKET_HOST_BYTES,
		                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	return r == VK_SUCCESS ? record_bracket(gpu) : r;
}

static VkResult create_slots(struct xl_gpu *gpu, uint32_t family, bool events, bool bracket)
{
	const struct xl_vk *vk = &gpu->vk;
	VkQueryPoolCreateInfo qp = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = XL_GPU_SLOTS + (bracket ? BRACKET_QUERIES : 0),
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
	r = alloc_cmds(gpu, XL_GPU_SLOTS, cmds);
	for (uint32_t i = 0; r == VK_SUCCESS && i < XL_GPU_SLOTS; i++) {
		gpu->slots[i].cmd = cmds[i];
		r = vk->CreateFence(gpu->device, &fence_info, NULL, &gpu->slots[i].fence);
		if (r == VK_SUCCESS && events)
			r = vk->CreateEvent(gpu->device, &event_info, NULL, &gpu->events[i]);
		if (r == VK_SUCCESS)
			r = record_slot(gpu, i);
	}
	if (r == VK_SUCCESS && bracket)
		r = create_bracket(gpu);
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
	gpu->valid_bits = bits < U_TICKS_BITS_MAX ? bits : U_TICKS_BITS_MAX;
	gpu->valid_mask = u_ticks_mask(gpu->valid_bits);
	gpu->period_ns = props.limits.timestampPeriod;
	return true;
}

/*
 * Whether GetCalibratedTimestamps may take the device's clock and
 * CLOCK_MONOTONIC together: the device must list both time domains
 * (VK_EXT_calibrated_timestamps lets it offer others only).
 */
static bool calibrateable(const struct xl_gpu *gpu, VkInstance instance)
{
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT domains =
		(PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)gpu->vk.GetInstanceProcAddr(
			instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
	VkTimeDomainEXT list[16];
	uint32_t n = 16;
	bool device = false, monotonic = false;

	if (!gpu->vk.GetCalibratedTimestamps || !domains)
		return false;
	VkResult r = domains(gpu->physical_device, &n, list);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		device |= list[i] == VK_TIME_DOMAIN_DEVICE_EXT;
		monotonic |= list[i] == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
	}
	return device && monotonic;
}

struct xl_gpu *xl_gpu_create(XrSession session, const XrGraphicsBindingVulkanKHR *binding,
                             const struct xl_gpu_params *params, struct xl_gate *gate,
                             char *why, size_t why_size)
{
	struct xl_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	PFN_vkGetInstanceProcAddr gipa = xl_vk_find_loader(&gpu->vk, params->gipa);
	if (!gipa) {
		snprintf(why, why_size, "Vulkan is not loaded in this process");
		free(gpu);
		return NULL;
	}
	gpu->session = session;
	gpu->device = binding->device;
	gpu->physical_device = binding->physicalDevice;
	atomic_init(&gpu->submit_error, VK_SUCCESS);
	if (!xl_vk_load(&gpu->vk, gipa, binding->instance, binding->device)) {
		snprintf(why, why_size, "a Vulkan entry point is missing");
		xl_vk_release(&gpu->vk);
		free(gpu);
		return NULL;
	}
	if (!query_queue(gpu, binding->physicalDevice, binding->queueFamilyIndex, why, why_size)) {
		xl_vk_release(&gpu->vk);
		free(gpu);
		return NULL;
	}
	gpu->vk.GetDeviceQueue(gpu->device, binding->queueFamilyIndex, binding->queueIndex,
	                       &gpu->queue);
	gpu->calibrated = params->calibrated && calibrateable(gpu, binding->instance);
	if (params->calibrated && !gpu->calibrated)
		xl_log("GPU: VK_EXT_calibrated_timestamps is enabled, but the device lists no "
		       "CLOCK_MONOTONIC time domain beside its own (or lacks the entry points): no "
		       "clock correlation");

	bool events = gate && params->gate_kind == XL_GATE_KIND_EVENT;
	VkResult r = create_slots(gpu, binding->queueFamilyIndex, events, params->bracket);
	if (r == VK_SUCCESS && gate)
		r = xl_gate_create(gate, &gpu->vk, gpu->device, params->gate_kind,
		                   params->timeline_khr);
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

/*
 * What destruction must wait for: the fences of pending_fences() and a
 * broken bracket's E (its submissions that went through are never
 * collected) into @p out (XL_GPU_SLOTS + 2), their number into @p n.
 * False when a submission of ours may be on the GPU with no fence to tell
 * when it is done: a broken bracket's A alone.
 */
static bool destroy_fences(const struct xl_gpu *gpu, VkFence *out, unsigned *n)
{
	const struct xl_gpu_bracket *b = &gpu->bracket;
	*n = pending_fences(gpu, out);
	if (!b->broken)
		return true;
	if (b->broken_sent >= 2)
		out[(*n)++] = b->e_fence;
	return b->broken_sent != 1;
}

void xl_gpu_destroy(struct xl_gpu *gpu)
{
	VkFence pending[XL_GPU_SLOTS + 2];
	unsigned n;

	if (!gpu)
		return;
	stop_watchdog(gpu);
	const struct xl_vk *vk = &gpu->vk;
	bool known = destroy_fences(gpu, pending, &n);
	VkResult r = n ? vk->WaitForFences(gpu->device, n, pending, VK_TRUE, DESTROY_WAIT_NS)
	               : VK_SUCCESS;
	/* A lost device runs nothing more: its objects may go. */
	bool lost = r == VK_ERROR_DEVICE_LOST ||
	            atomic_load(&gpu->submit_error) == VK_ERROR_DEVICE_LOST;
	if (!lost && (r != VK_SUCCESS || !known)) {
		/* Destroying what the GPU still uses is undefined behaviour on
		 * the application's device: it keeps them, and frees them with
		 * itself. */
		if (known)
			xl_log_once(XL_ONCE_GPU_LEFT, "GPU: our last timestamps were still on the GPU "
			            "after %llu ms (VkResult %d): the timestamp objects are left to the "
			            "application's device", (unsigned long long)(DESTROY_WAIT_NS / 1000000), r);
		else
			xl_log_once(XL_ONCE_GPU_LEFT, "GPU: a failed submission of ours may still be on "
			            "the GPU, with no fence to tell when it ends: the timestamp objects "
			            "are left to the application's device");
		free_host(gpu);
		return;
	}
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++) {
		if (gpu->slots[i].fence)
			vk->DestroyFence(gpu->device, gpu->slots[i].fence, NULL);
		if (gpu->events[i])
			vk->DestroyEvent(gpu->device, gpu->events[i], NULL);
	}
	if (gpu->bracket.fence)
		vk->DestroyFence(gpu->device, gpu->bracket.fence, NULL);
	if (gpu->bracket.e_fence)
		vk->DestroyFence(gpu->device, gpu->bracket.e_fence, NULL);
	if (gpu->bracket.event)
		vk->DestroyEvent(gpu->device, gpu->bracket.event, NULL);
	for (uint32_t i = 0; i < 2; i++) {
		if (gpu->bracket.buffer[i])
			vk->DestroyBuffer(gpu->device, gpu->bracket.buffer[i], NULL);
		if (gpu->bracket.memory[i])
			vk->FreeMemory(gpu->device, gpu->bracket.memory[i], NULL);
	}
	if (gpu->cmd_pool)
		vk->DestroyCommandPool(gpu->device, gpu->cmd_pool, NULL);
	if (gpu->pool)
		vk->DestroyQueryPool(gpu->device, gpu->pool, NULL);
	if (gpu->gate)
		xl_gate_destroy(gpu->gate, vk);
	free_host(gpu);
}

static unsigned pending_fences(const struct xl_gpu *gpu, VkFence *out)
{
	unsigned n = 0;
	if (atomic_load(&gpu->bracket.state) == SLOT_SUBMITTED)
		out[n++] = gpu->bracket.fence;
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		if (atomic_load(&gpu->slots[i].state) == SLOT_SUBMITTED)
			out[n++] = gpu->slots[i].fence;
	return n;
}

/* Whether the writer has collected every submitted timestamp. */
static bool all_collected(void *ctx)
{
	VkFence pending[XL_GPU_SLOTS + 1];
	return pending_fences(ctx, pending) == 0;
}

/*
 * No fence call here: a submitted slot's fence belongs to the writer, which
 * resets it as it collects. Vulkan wants a fence's reset externally
 * synchronized with every other use of it, and a fence reset while another
 * thread waits for it never signals: that wait would run to its timeout.
 */
void xl_gpu_drain(struct xl_gpu *gpu, uint64_t timeout_ns)
{
	xl_thread_wait(all_collected, gpu, timeout_ns, DRAIN_STEP_NS);
}

/*
 * The watchdog stops; a gate still armed is opened, as the watchdog would
 * have: a frame whose post never came must not hold the queue for ever.
 */
static void stop_watchdog(struct xl_gpu *gpu)
{
	xl_gate_watchdog_stop(&gpu->watchdog);
	if (gpu->gate)
		xl_gate_open(gpu->gate);
}

static void free_host(struct xl_gpu *gpu)
{
	/* Our reference only: the application's own keeps the loader loaded. */
	xl_vk_release(&gpu->vk);
	free(gpu);
}

void xl_gpu_abandon(struct xl_gpu *gpu)
{
	/* No gate opened: at the process's exit the device may be gone, and
	 * with it the event or semaphore an open would signal. */
	xl_gate_watchdog_stop(&gpu->watchdog);
	free_host(gpu);
}

static void note_submit_error(struct xl_gpu *gpu, VkResult r)
{
	int expected = VK_SUCCESS;
	atomic_compare_exchange_strong(&gpu->submit_error, &expected, r);
}

static VkResult submit_one(struct xl_gpu *gpu, VkCommandBuffer cmd, VkFence fence)
{
	VkSubmitInfo submit = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	return gpu->vk.QueueSubmit(gpu->queue, 1, &submit, fence);
}

/*
 * Frame thread: whether a bracket measurement is due at @p now (noting it
 * as submitted then). A window's worth close together at the start, for
 * the median to start from, then one a period; and one every
 * XL_GPU_BRACKET_START_NS while the writer asks for them.
 */
static bool bracket_due(struct xl_gpu_bracket *b, uint64_t now)
{
	bool asked = now < atomic_load_explicit(&b->fast_until_ns, memory_order_relaxed) &&
	             now - b->last_ns >= XL_GPU_BRACKET_START_NS;

	if (now < b->due_ns && !asked)
		return false;
	b->last_ns = now;
	b->due_ns = now + (++b->submitted >= XL_BRACKET_WINDOW ? XL_GPU_BRACKET_PERIOD_NS
	                                                        : XL_GPU_BRACKET_START_NS);
	return true;
}

/*
 * Frame thread, pre: submits the bracket measurement when it is due, just
 * before the frame's own timestamp (slot @p head), gated like the frame:
 * its event is set after the three submissions, so they run back to back
 * as the frame's will; for a plain frame it is set before.
 */
static void bracket_submit(struct xl_gpu *gpu, uint32_t head, uint32_t session_id, bool gated)
{
	struct xl_gpu_bracket *b = &gpu->bracket;
	if (!b->fence || b->broken || atomic_load_explicit(&b->state, memory_order_acquire) != SLOT_FREE)
		return;
	if (!bracket_due(b, xl_clock_mono_ns()))
		return;
	b->before = head;
	b->session_id = session_id;
	if (!gated)
		gpu->vk.SetEvent(gpu->device, b->event);
	VkResult r = VK_SUCCESS;
	uint8_t sent = 0;
	for (; r == VK_SUCCESS && sent < 3; sent++)
		r = submit_one(gpu, b->cmd[sent],
		               sent == 2 ? b->fence : sent == 1 ? b->e_fence : VK_NULL_HANDLE);
	if (gated)
		gpu->vk.SetEvent(gpu->device, b->event); /* never leave the queue held */
	if (r != VK_SUCCESS) {
		/* Never reused; those submitted may still run (xl_gpu_destroy waits). */
		b->broken = true;
		b->broken_sent = sent - 1;
		note_submit_error(gpu, r);
		return;
	}
	atomic_store_explicit(&b->state, SLOT_SUBMITTED, memory_order_release);
}

bool xl_gpu_stamp(struct xl_gpu *gpu, int64_t display_time, int64_t frame_id,
                  uint32_t session_id, bool gated, uint32_t thread_id)
{
	/* After a failed submission (a lost device, out of memory) nothing more
	 * goes onto the application's queue: the frames' samples are lost,
	 * counted, and the writer has said why. */
	if (atomic_load_explicit(&gpu->submit_error, memory_order_relaxed) != VK_SUCCESS)
		return false;
	uint32_t head = atomic_load_explicit(&gpu->head, memory_order_relaxed);
	uint32_t index = head % XL_GPU_SLOTS;
	struct xl_gpu_slot *slot = &gpu->slots[index];
	if (atomic_load_explicit(&slot->state, memory_order_acquire) != SLOT_FREE)
		return false;

	slot->session_id = session_id;
	slot->display_time = display_time;
	slot->frame_id = frame_id;
	atomic_store_explicit(&slot->invalid, false, memory_order_relaxed);
	struct xl_gate *gate = gpu->gate;
	gated = gated && gate;
	bracket_submit(gpu, head, session_id, gated);

	VkSubmitInfo submit = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &slot->cmd,
	};
	VkTimelineSemaphoreSubmitInfo timeline = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	uint64_t token = 0;
	if (gpu->events[index]) {
		/* The slot's command buffer waits for its event: set it now
		 * for a plain frame, else let post set it. */
		if (gated)
			token = xl_gate_event_token(gpu->events[index]);
		else
			gpu->vk.SetEvent(gpu->device, gpu->events[index]);
	} else if (gated) {
		token = ++gate->counter;
		timeline.waitSemaphoreValueCount = 1;
		timeline.pWaitSemaphoreValues = &token;
		submit.pNext = &timeline;
		submit.waitSemaphoreCount = 1;
		submit.pWaitSemaphores = &gate->semaphore;
		submit.pWaitDstStageMask = &stage;
	}
	VkResult r = gpu->vk.QueueSubmit(gpu->queue, 1, &submit, slot->fence);
	if (r != VK_SUCCESS) {
		if (gpu->events[index])
			gpu->vk.SetEvent(gpu->device, gpu->events[index]); /* in case it was queued */
		note_submit_error(gpu, r);
		return false;
	}
	if (token) {
		/* Published last: the watchdog must see the slot it may invalidate. */
		atomic_store_explicit(&gate->armed_invalid, (uintptr_t)&slot->invalid,
		                      memory_order_relaxed);
		atomic_store_explicit(&gate->armed_tid, thread_id, memory_order_relaxed);
		atomic_store_explicit(&gate->armed_display_time, display_time, memory_order_relaxed);
		atomic_store_explicit(&gate->armed_at_ns, xl_clock_mono_ns(), memory_order_relaxed);
		atomic_store_explicit(&gate->armed, token, memory_order_release);
	}
	atomic_store_explicit(&slot->state, SLOT_SUBMITTED, memory_order_release);
	atomic_store_explicit(&gpu->head, head + 1, memory_order_relaxed);
	return true;
}

/* Reads the bracket's four timestamps: (B - A) - (E's own span), in ns; -1 if unavailable. */
static int64_t bracket_read(struct xl_gpu *gpu)
{
	uint64_t q[BRACKET_QUERIES][2] = {{0}}; /* timestamp, availability */
	VkResult r = gpu->vk.GetQueryPoolResults(gpu->device, gpu->pool, BRACKET_QUERY,
	                                         BRACKET_QUERIES, sizeof(q), q, sizeof(q[0]),
	                                         VK_QUERY_RESULT_64_BIT |
	                                         VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	if (r != VK_SUCCESS)
		return -1;
	for (uint32_t i = 0; i < BRACKET_QUERIES; i++)
		if (!q[i][1])
			return -1;
	uint64_t outer, inner;
	/* Backwards: a reset clock, nothing to measure (a wrap in between is fine). */
	if (!u_ticks_since(q[3][0], q[0][0], gpu->valid_bits, &outer) ||
	    !u_ticks_since(q[2][0], q[1][0], gpu->valid_bits, &inner))
		return -1;
	if (inner > outer)
		return 0;
	return (int64_t)((double)(outer - inner) * gpu->period_ns + 0.5);
}

/*
 * Writer: takes measurement @p ns; returns the correction in effect from
 * it on. A measurement off the correction asks the frame thread for the
 * next ones soon: enough to confirm a step, or, once one is confirmed, to
 * fill the window that starts from it.
 */
static int64_t bracket_take(struct xl_gpu_bracket *b, int64_t ns)
{
	enum xl_bracket_change c = xl_bracket_track_take(&b->track, ns);
	uint64_t fast = 0;

	if (c == XL_BRACKET_DOUBT)
		fast = XL_BRACKET_CONFIRM;
	else if (c == XL_BRACKET_RESTART)
		fast = XL_BRACKET_WINDOW - XL_BRACKET_CONFIRM;
	if (fast)
		atomic_store_explicit(&b->fast_until_ns,
		                      xl_clock_mono_ns() + fast * XL_GPU_BRACKET_START_NS +
		                              XL_GPU_BRACKET_START_NS / 2,
		                      memory_order_relaxed);
	return xl_bracket_track_median(&b->track);
}

bool xl_gpu_bracket_now(const struct xl_gpu *gpu, int64_t *ns)
{
	if (xl_bracket_track_count(&gpu->bracket.track) == 0)
		return false;
	*ns = xl_bracket_track_median(&gpu->bracket.track);
	return true;
}

/*
 * Writer: if the bracket submitted before slot gpu->tail is done, emits it
 * and frees it. Returns false while it is still on the GPU (the frame
 * after it must wait: its row comes after the bracket's line).
 */
static bool bracket_collect(struct xl_gpu *gpu, uint32_t max_session,
                            void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx)
{
	struct xl_gpu_bracket *b = &gpu->bracket;
	if (atomic_load_explicit(&b->state, memory_order_acquire) != SLOT_SUBMITTED ||
	    b->before != gpu->tail || b->session_id > max_session)
		return true;
	if (gpu->vk.GetFenceStatus(gpu->device, b->fence) != VK_SUCCESS)
		return false;
	struct xl_gpu_sample s = {
		/* The frame it came just before: a recording may begin with it. */
		.display_time = gpu->slots[gpu->tail % XL_GPU_SLOTS].display_time,
		.bracket = true,
		.session_id = b->session_id,
		.bracket_ns = bracket_read(gpu),
	};
	VkFence fences[2] = {b->fence, b->e_fence}; /* E's is done: it ran before B */
	gpu->vk.ResetFences(gpu->device, 2, fences);
	gpu->vk.ResetEvent(gpu->device, b->event);
	atomic_store_explicit(&b->state, SLOT_FREE, memory_order_release);
	if (s.bracket_ns < 0)
		return true;
	s.bracket_ns = bracket_take(b, s.bracket_ns);
	emit(ctx, &s);
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
		if (!bracket_collect(gpu, max_session, emit, ctx) ||
		    vk->GetFenceStatus(gpu->device, slot->fence) != VK_SUCCESS)
			return true;
		/* Its event is reset below: not while its setter is still in vkSetEvent. */
		if (gpu->events[gpu->tail % XL_GPU_SLOTS] && xl_gate_setting(gpu->gate))
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
			.frame_id = slot->frame_id,
			.ticks = result[0] & gpu->valid_mask,
			.period_ns = gpu->period_ns,
			.valid_bits = (uint8_t)gpu->valid_bits,
			.valid = r == VK_SUCCESS && result[1] != 0 && !tripped,
			.gate_tripped = tripped,
			.session_id = slot->session_id,
		};
		vk->ResetFences(gpu->device, 1, &slot->fence);
		if (gpu->events[gpu->tail % XL_GPU_SLOTS]) /* its wait is over: ready for reuse */
			vk->ResetEvent(gpu->device, gpu->events[gpu->tail % XL_GPU_SLOTS]);
		atomic_store_explicit(&slot->state, SLOT_FREE, memory_order_release);
		gpu->tail++;
		emit(ctx, &s);
	}
}

void xl_gpu_each_uncollected(const struct xl_gpu *gpu, void (*lost)(void *ctx, uint32_t session_id),
                             void *ctx)
{
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		if (atomic_load_explicit(&gpu->slots[i].state, memory_order_acquire) == SLOT_SUBMITTED)
			lost(ctx, gpu->slots[i].session_id);
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
