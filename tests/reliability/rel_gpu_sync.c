/*
 * rel_gpu_sync: each Vulkan object of ours is used by one thread at a time,
 * as Vulkan's external synchronisation rules want, while the writer
 * collects samples on its own thread.
 *
 * The real layer/xl_gpu.c and layer/xl_gate.c run on a real device
 * (lavapipe in CI) under the Khronos validation layer, with a thread that
 * collects as the writer does. Fails on any validation message, a broken
 * rule the case checks itself, a sample not collected or a drain that ran
 * to its timeout.
 *
 * drain  xrDestroySession's drain while most samples are still on the GPU:
 *        timestamps queued behind long GPU work. A CI run once caught the
 *        validation layer reporting, in hello_xr's output, vkResetFences on
 *        the writer's thread while the drain waited for the same fence on
 *        the app's thread (and a fence reset during a wait for all of
 *        several never signals: the drain ran to its timeout). The
 *        validation layer sees that only when the driver lets the two
 *        calls overlap (lavapipe: in about a third of such drains), so
 *        the case also checks the rule itself: vkWaitForFences stands in
 *        as a poll of each fence's status, and every vkResetFences of a
 *        fence another thread is waiting for is counted.
 * gate   the event gate opened by a setter that stays inside vkSetEvent
 *        for 20 ms after the event is set (a thread preempted there): the
 *        writer must not reset the event until it has returned. The
 *        validation layer cannot see this window, so the case checks it.
 *
 * Destruction never frees what the GPU still uses (xl_gpu_destroy): the
 * layer's destroy and free calls go through counting stand-ins, and the
 * objects it leaves are destroyed by the test once the queue is idle, so
 * that anything destroyed while in use is also a validation error.
 *
 * destroy  three timestamps (and a bracket measurement) queued behind work
 *          the test holds on the queue past destruction's 1 s wait (an
 *          event it sets afterwards): xl_gpu_destroy must leave every
 *          object to the device (it destroyed them all while in use).
 * broken   the bracket's third submission fails (out of host memory)
 *          after A and E went through, behind held work; then the second
 *          one fails after A alone: xl_gpu_destroy must wait for E's fence
 *          in the first and, with no fence to tell, leave everything in the
 *          second (it waited for nothing and destroyed them in use).
 * armed    a gated timestamp whose gate post never opened (a frame post
 *          left idle): xl_gpu_destroy opens it and destroys everything
 *          at once (it waited its 1 s for a GPU held by its own gate).
 * calibration  a device with VK_EXT_calibrated_timestamps whose driver
 *          also answers vkGetDeviceProcAddr for the KHR extension's name,
 *          not enabled (a stand-in): the EXT entry point is the one
 *          called; a device listing no CLOCK_MONOTONIC time domain (a
 *          stand-in of the query) gets no clock correlation (the KHR
 *          name was looked up first, the domains never asked).
 *
 * Usage: rel_gpu_sync drain|gate|destroy|broken|armed|calibration
 */
#include "gw_work.h"
#include "tc_log.h"
#include "xl_clock.h"
#include "xl_gate.h"
#include "xl_gpu.h"
#include "xl_thread.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FRAMES 4
#define ROUNDS 6
#define GATED_FRAMES 8
#define SLOW_SET_NS 20000000ull
#define DRAIN_TIMEOUT_NS 2000000000ull
#define WORK_US 20000 /* GPU work between two timestamps (tests/common/gw_work.h) */
#define COLLECT_STEP_NS 100000ull

static atomic_uint g_validation_messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
	(void)severity, (void)types, (void)user;
	atomic_fetch_add(&g_validation_messages, 1);
	fprintf(stderr, "validation: %s\n", data->pMessage ? data->pMessage : "(no text)");
	return VK_FALSE;
}

/* The device, under the validation layer. */
struct bed {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice physical;
	uint32_t family;
	VkDevice device;
	bool calibrated; /* create it with VK_EXT_calibrated_timestamps */
};

/* Says what failed (with its VkResult, if it was a Vulkan call's); false. */
static bool fail(const char *what, VkResult r)
{
	if (r != VK_SUCCESS)
		fprintf(stderr, "FAIL: %s (VkResult %d)\n", what, r);
	else
		fprintf(stderr, "FAIL: %s\n", what);
	return false;
}

static bool create_instance(struct bed *b)
{
	const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
	const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
	VkDebugUtilsMessengerCreateInfoEXT mi = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
		.pfnUserCallback = on_message,
	};
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "rel_gpu_sync",
		.apiVersion = VK_API_VERSION_1_1,
	};
	VkInstanceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pNext = &mi, /* also covers vkCreateInstance and vkDestroyInstance */
		.pApplicationInfo = &app,
		.enabledLayerCount = 1,
		.ppEnabledLayerNames = layers,
		.enabledExtensionCount = 1,
		.ppEnabledExtensionNames = extensions,
	};
	VkResult r = vkCreateInstance(&ci, NULL, &b->instance);
	if (r != VK_SUCCESS)
		return fail("vkCreateInstance with VK_LAYER_KHRONOS_validation "
		            "(package vulkan-validationlayers)", r);
	/* The layer stays loaded to the end (vkDestroyInstance would unload
	 * it): TSan aborts the process when a library that a called_from_lib
	 * suppression matched is unloaded (tests/reliability/tsan.supp). */
	if (!dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
		fprintf(stderr, "note: the validation layer could not be kept loaded: %s\n", dlerror());
	PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
		vkGetInstanceProcAddr(b->instance, "vkCreateDebugUtilsMessengerEXT");
	r = create ? create(b->instance, &mi, NULL, &b->messenger) : VK_ERROR_EXTENSION_NOT_PRESENT;
	return r == VK_SUCCESS || fail("vkCreateDebugUtilsMessengerEXT", r);
}

/* The GPU work's log lines (tests/common/gw_work.h). */
static void log_line(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_log_v("[rel_gpu_sync] ", TC_LOG_MAX, fmt, ap);
	va_end(ap);
}

/* The first device's first queue family with timestamps and transfers. */
static bool pick_queue(struct bed *b)
{
	uint32_t n = 1;
	VkResult r = vkEnumeratePhysicalDevices(b->instance, &n, &b->physical);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		return fail("vkEnumeratePhysicalDevices", r);
	if (n == 0)
		return fail("no Vulkan device (lavapipe: package mesa-vulkan-drivers)", r);
	VkQueueFamilyProperties fams[16];
	n = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(b->physical, &n, fams);
	for (b->family = 0; b->family < n; b->family++)
		if (fams[b->family].timestampValidBits &&
		    (fams[b->family].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
			return true;
	return fail("no queue family with timestamps", VK_ERROR_FEATURE_NOT_PRESENT);
}

static bool create_device(struct bed *b)
{
	float priority = 1.0f;
	VkDeviceQueueCreateInfo qi = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = b->family,
		.queueCount = 1,
		.pQueuePriorities = &priority,
	};
	const char *calibrated = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
	VkDeviceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qi,
		.enabledExtensionCount = b->calibrated,
		.ppEnabledExtensionNames = b->calibrated ? &calibrated : NULL,
	};
	VkResult r = vkCreateDevice(b->physical, &ci, NULL, &b->device);
	return r == VK_SUCCESS || fail("vkCreateDevice", r);
}

static bool bed_create(struct bed *b, bool calibrated)
{
	memset(b, 0, sizeof(*b));
	b->calibrated = calibrated;
	return create_instance(b) && pick_queue(b) && create_device(b);
}

/* The binding a session on the bed's device hands the layer. */
static XrGraphicsBindingVulkanKHR binding_of(const struct bed *b)
{
	return (XrGraphicsBindingVulkanKHR){
		.type = XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR,
		.instance = b->instance,
		.physicalDevice = b->physical,
		.device = b->device,
		.queueFamilyIndex = b->family,
	};
}

static void bed_destroy(struct bed *b)
{
	if (b->device) {
		vkDeviceWaitIdle(b->device);
		vkDestroyDevice(b->device, NULL);
	}
	if (b->messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(b->instance, "vkDestroyDebugUtilsMessengerEXT");
		if (destroy)
			destroy(b->instance, b->messenger, NULL);
	}
	if (b->instance)
		vkDestroyInstance(b->instance, NULL);
}

/* The writer's part: collect every finished sample, every COLLECT_STEP_NS. */
struct collector {
	struct xl_gpu *gpu;
	atomic_bool stop;
	atomic_uint frames;
	unsigned brackets;
	pthread_t thread;
};

/* Counts the valid frame samples that came back with their frame's id
 * (every case stamps frame i at display time 1000 * n + i). */
static void count_sample(void *ctx, const struct xl_gpu_sample *s)
{
	struct collector *c = ctx;
	if (s->bracket)
		c->brackets++;
	else
		atomic_fetch_add(&c->frames, s->valid && s->frame_id == s->display_time % 1000);
}

static void *collect_main(void *arg)
{
	struct collector *c = arg;
	while (!atomic_load(&c->stop)) {
		xl_gpu_collect(c->gpu, UINT32_MAX, count_sample, c);
		xl_thread_sleep_ns(COLLECT_STEP_NS);
	}
	return NULL;
}

/* The drain case's stand-ins for vkWaitForFences and vkResetFences. */
static PFN_vkGetFenceStatus g_get_fence_status;
static PFN_vkResetFences g_real_reset_fences;
static _Atomic uint64_t g_waited[XL_GPU_SLOTS + 1]; /* the fences being waited for */
static atomic_uint g_waited_count;
static atomic_uint g_reset_during_wait;

static uint64_t fence_token(VkFence fence)
{
	uint64_t token = 0;
	memcpy(&token, &fence, sizeof(fence));
	return token;
}

/* A wait no driver lock can serialise with the collector: polls each fence. */
static VKAPI_ATTR VkResult VKAPI_CALL polled_wait(VkDevice device, uint32_t n,
                                                  const VkFence *fences, VkBool32 all,
                                                  uint64_t timeout_ns)
{
	if (n > XL_GPU_SLOTS + 1)
		return VK_ERROR_UNKNOWN;
	for (uint32_t i = 0; i < n; i++)
		atomic_store(&g_waited[i], fence_token(fences[i]));
	atomic_store(&g_waited_count, n);
	uint64_t end = xl_clock_mono_ns() + timeout_ns;
	VkResult r = VK_TIMEOUT;
	while (r == VK_TIMEOUT && xl_clock_mono_ns() < end) {
		uint32_t done = 0;
		for (uint32_t i = 0; i < n; i++)
			done += g_get_fence_status(device, fences[i]) == VK_SUCCESS;
		if (all ? done == n : done > 0)
			r = VK_SUCCESS;
		else
			xl_thread_sleep_ns(COLLECT_STEP_NS);
	}
	atomic_store(&g_waited_count, 0);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL checked_reset_fences(VkDevice device, uint32_t n,
                                                           const VkFence *fences)
{
	uint32_t waited = atomic_load(&g_waited_count);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < waited; j++)
			if (atomic_load(&g_waited[j]) == fence_token(fences[i]))
				atomic_fetch_add(&g_reset_during_wait, 1);
	return g_real_reset_fences(device, n, fences);
}

/* One round: FRAMES frames with long GPU work between them, then the drain. */
static bool round_run(struct gw_work *work, struct xl_gpu *gpu, uint32_t round,
                      struct collector *c)
{
	unsigned frames_before = c->frames;
	for (int i = 0; i < FRAMES; i++) {
		if (!xl_gpu_stamp(gpu, 1000 * round + i, i, round, false, 0))
			return fail("xl_gpu_stamp", atomic_load(&gpu->submit_error));
		if (i + 1 < FRAMES && !gw_work_submit(work, round * FRAMES + i))
			return fail("gw_work_submit", VK_SUCCESS);
	}
	unsigned pending = xl_gpu_pending(gpu, round);
	uint64_t start = xl_clock_mono_ns();
	xl_gpu_drain(gpu, DRAIN_TIMEOUT_NS);
	double drain_ms = (double)(xl_clock_mono_ns() - start) / 1e6;
	/* The collector frees a slot just before it hands the sample over. */
	unsigned frames = 0;
	for (int tries = 0; tries < 1000 && frames < FRAMES; tries++) {
		frames = atomic_load(&c->frames) - frames_before;
		if (frames < FRAMES)
			xl_thread_sleep_ns(COLLECT_STEP_NS);
	}

	printf("round %u: %u of %d samples pending when the drain began; drain %.1f ms; "
	       "%u frame samples collected\n", round, pending, FRAMES, drain_ms, frames);
	if (pending < 3) {
		fprintf(stderr, "FAIL: the GPU work between the timestamps was too short to test "
		                "anything (raise WORK_US)\n");
		return false;
	}
	if (frames != FRAMES) {
		fprintf(stderr, "FAIL: %u of %d frame samples collected\n", frames, FRAMES);
		return false;
	}
	if (drain_ms * 1e6 >= DRAIN_TIMEOUT_NS * 0.9) {
		fprintf(stderr, "FAIL: the drain ran to its timeout\n");
		return false;
	}
	return true;
}

/*
 * ROUNDS rounds of drains with the collector running, the fence calls
 * through the stand-ins above (the validation layer sees the real ones).
 */
static bool run(struct bed *b, struct xl_gpu *gpu)
{
	struct gw_work_info info = {
		.gipa = vkGetInstanceProcAddr,
		.instance = b->instance,
		.physical_device = b->physical,
		.device = b->device,
		.queue_family = b->family,
		.target_us = WORK_US,
		.log = log_line,
	};
	struct gw_work *work;
	if (!gw_work_create(&info, &work))
		return fail("gw_work_create", VK_SUCCESS);
	g_get_fence_status = gpu->vk.GetFenceStatus;
	gpu->vk.WaitForFences = polled_wait;
	g_real_reset_fences = gpu->vk.ResetFences;
	gpu->vk.ResetFences = checked_reset_fences;
	struct collector c = {.gpu = gpu};
	if (pthread_create(&c.thread, NULL, collect_main, &c)) {
		gw_work_destroy(&work);
		return fail("pthread_create", VK_SUCCESS);
	}
	bool ok = true;
	for (uint32_t round = 1; ok && round <= ROUNDS; round++)
		ok = round_run(work, gpu, round, &c);
	atomic_store(&c.stop, true);
	pthread_join(c.thread, NULL);
	gw_work_destroy(&work);
	unsigned bad = atomic_load(&g_reset_during_wait);
	if (bad) {
		fprintf(stderr, "FAIL: %u fences reset while another thread waited for them\n", bad);
		ok = false;
	}
	if (ok && c.brackets == 0) {
		fprintf(stderr, "FAIL: no bracket measurement collected\n");
		return false;
	}
	return ok;
}

/* The gate case's stand-ins for vkSetEvent and vkResetEvent: a setter slow to return. */
static PFN_vkSetEvent g_real_set_event;
static PFN_vkResetEvent g_real_reset_event;
static atomic_uint_fast64_t g_being_set; /* the event inside slow_set_event(), as a token */
static atomic_uint g_reset_during_set;

static VKAPI_ATTR VkResult VKAPI_CALL slow_set_event(VkDevice device, VkEvent event)
{
	atomic_store(&g_being_set, xl_gate_event_token(event));
	VkResult r = g_real_set_event(device, event);
	xl_thread_sleep_ns(SLOW_SET_NS); /* preempted before returning */
	atomic_store(&g_being_set, 0);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL checked_reset_event(VkDevice device, VkEvent event)
{
	if (atomic_load(&g_being_set) == xl_gate_event_token(event))
		atomic_fetch_add(&g_reset_during_set, 1);
	return g_real_reset_event(device, event);
}

/* Gated frames, each gate opened as post would, by the slow setter. */
static bool run_gate(struct xl_gpu *gpu, struct xl_gate *gate)
{
	g_real_set_event = gate->set_event;
	gate->set_event = slow_set_event;
	g_real_reset_event = gpu->vk.ResetEvent;
	gpu->vk.ResetEvent = checked_reset_event;

	struct collector c = {.gpu = gpu};
	if (pthread_create(&c.thread, NULL, collect_main, &c))
		return fail("pthread_create", VK_SUCCESS);
	bool ok = true;
	for (int i = 0; ok && i < GATED_FRAMES; i++) {
		if (!xl_gpu_stamp(gpu, 1000 + i, i, 1, true, (uint32_t)gettid()))
			ok = fail("xl_gpu_stamp", atomic_load(&gpu->submit_error));
		else
			xl_gate_open(gate);
	}
	if (ok)
		xl_gpu_drain(gpu, DRAIN_TIMEOUT_NS);
	atomic_store(&c.stop, true);
	pthread_join(c.thread, NULL);
	if (!ok)
		return false;

	unsigned frames = atomic_load(&c.frames), bad = atomic_load(&g_reset_during_set);
	printf("%u of %d gated frame samples collected; %u event resets while the setter "
	       "was inside vkSetEvent\n", frames, GATED_FRAMES, bad);
	if (atomic_load(&gate->tripped))
		ok = fail("the watchdog tripped the gate", VK_SUCCESS);
	if (frames != GATED_FRAMES)
		ok = fail("a gated frame's sample was not collected", VK_SUCCESS);
	if (bad)
		ok = fail("the writer reset an event its setter was still setting", VK_SUCCESS);
	return ok;
}

/* ---- Destruction. The layer's destroy calls, counted, then the real ones. */
static atomic_uint g_destroyed;

#define COUNTED(name, type)                                                                        \
	static PFN_vk##name g_real_##name;                                                         \
	static VKAPI_ATTR void VKAPI_CALL counted_##name(VkDevice d, type o,                      \
	                                                 const VkAllocationCallbacks *a)          \
	{                                                                                          \
		atomic_fetch_add(&g_destroyed, 1);                                                 \
		g_real_##name(d, o, a);                                                            \
	}
COUNTED(DestroyFence, VkFence)
COUNTED(DestroyEvent, VkEvent)
COUNTED(DestroyBuffer, VkBuffer)
COUNTED(FreeMemory, VkDeviceMemory)
COUNTED(DestroyCommandPool, VkCommandPool)
COUNTED(DestroyQueryPool, VkQueryPool)
#undef COUNTED

static void count_destroys(struct xl_gpu *gpu)
{
	atomic_store(&g_destroyed, 0);
#define COUNT(name) g_real_##name = gpu->vk.name, gpu->vk.name = counted_##name;
	COUNT(DestroyFence) COUNT(DestroyEvent) COUNT(DestroyBuffer) COUNT(FreeMemory)
	COUNT(DestroyCommandPool) COUNT(DestroyQueryPool)
#undef COUNT
}

/* A state's objects, taken before xl_gpu_destroy frees it: what it may leave. */
struct objects {
	VkFence fences[XL_GPU_SLOTS + 2];
	VkEvent events[XL_GPU_SLOTS + 1];
	unsigned n_fences, n_events;
	VkBuffer buffers[2];
	VkDeviceMemory memory[2];
	VkCommandPool cmd_pool;
	VkQueryPool pool;
};

static void objects_of(const struct xl_gpu *gpu, struct objects *o)
{
	memset(o, 0, sizeof(*o));
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++) {
		o->fences[o->n_fences++] = gpu->slots[i].fence;
		if (gpu->events[i])
			o->events[o->n_events++] = gpu->events[i];
	}
	if (gpu->bracket.fence) {
		o->fences[o->n_fences++] = gpu->bracket.fence;
		o->fences[o->n_fences++] = gpu->bracket.e_fence;
		o->events[o->n_events++] = gpu->bracket.event;
	}
	memcpy(o->buffers, gpu->bracket.buffer, sizeof(o->buffers));
	memcpy(o->memory, gpu->bracket.memory, sizeof(o->memory));
	o->cmd_pool = gpu->cmd_pool;
	o->pool = gpu->pool;
}

/* How many destroy or free calls the objects take. */
static unsigned objects_count(const struct objects *o)
{
	unsigned n = o->n_fences + o->n_events + 2;
	for (int i = 0; i < 2; i++)
		n += (o->buffers[i] != VK_NULL_HANDLE) + (o->memory[i] != VK_NULL_HANDLE);
	return n;
}

/* The device's owner frees what the layer left, once the GPU is done with it. */
static void objects_destroy(VkDevice device, const struct objects *o)
{
	for (unsigned i = 0; i < o->n_fences; i++)
		vkDestroyFence(device, o->fences[i], NULL);
	for (unsigned i = 0; i < o->n_events; i++)
		vkDestroyEvent(device, o->events[i], NULL);
	for (int i = 0; i < 2; i++) {
		vkDestroyBuffer(device, o->buffers[i], NULL);
		vkFreeMemory(device, o->memory[i], NULL);
	}
	vkDestroyCommandPool(device, o->cmd_pool, NULL);
	vkDestroyQueryPool(device, o->pool, NULL);
}

/* Work the test holds on the queue until it sets its event: long GPU work, as long as it likes. */
struct held {
	VkCommandPool pool;
	VkCommandBuffer cmd;
	VkEvent event;
};

static bool held_submit(struct bed *b, struct held *h)
{
	VkCommandPoolCreateInfo pi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.queueFamilyIndex = b->family,
	};
	VkEventCreateInfo ei = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
	VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkQueue queue;
	memset(h, 0, sizeof(*h));
	vkGetDeviceQueue(b->device, b->family, 0, &queue);
	VkResult r = vkCreateCommandPool(b->device, &pi, NULL, &h->pool);
	if (r == VK_SUCCESS)
		r = vkCreateEvent(b->device, &ei, NULL, &h->event);
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = h->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	if (r == VK_SUCCESS)
		r = vkAllocateCommandBuffers(b->device, &ai, &h->cmd);
	if (r == VK_SUCCESS)
		r = vkBeginCommandBuffer(h->cmd, &begin);
	if (r == VK_SUCCESS) {
		vkCmdWaitEvents(h->cmd, 1, &h->event, VK_PIPELINE_STAGE_HOST_BIT,
		                VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, NULL, 0, NULL, 0, NULL);
		r = vkEndCommandBuffer(h->cmd);
	}
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &h->cmd,
	};
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE);
	return r == VK_SUCCESS || fail("the held work", r);
}

/* Lets the held work, if any, and all behind it run to their end, then frees it. */
static void held_release(struct bed *b, struct held *h)
{
	VkQueue queue;
	if (h->event)
		vkSetEvent(b->device, h->event);
	vkGetDeviceQueue(b->device, b->family, 0, &queue);
	vkQueueWaitIdle(queue);
	if (h->event)
		vkDestroyEvent(b->device, h->event, NULL);
	if (h->pool)
		vkDestroyCommandPool(b->device, h->pool, NULL);
}

/* The queue's submissions: the first g_submits_ok go through, later ones fail. */
static PFN_vkQueueSubmit g_real_submit;
static unsigned g_submits, g_submits_ok;

static VKAPI_ATTR VkResult VKAPI_CALL failing_submit(VkQueue queue, uint32_t n,
                                                     const VkSubmitInfo *info, VkFence fence)
{
	if (++g_submits > g_submits_ok)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	return g_real_submit(queue, n, info, fence);
}

/*
 * One state on @p b: @p frames timestamps (gated when @p gated) behind held
 * work when @p hold, the first @p submits_ok submissions going through;
 * then xl_gpu_destroy. @p left: every object must be left to the device,
 * else every one destroyed at once. The test frees what it left.
 */
static bool destroy_round(struct bed *b, const char *name, bool gated, bool hold, int frames,
                          unsigned submits_ok, bool left)
{
	XrGraphicsBindingVulkanKHR binding = binding_of(b);
	struct xl_gpu_params params = {.bracket = !gated, .gate_kind = XL_GATE_KIND_EVENT};
	struct xl_gate gate;
	char why[160];
	struct xl_gpu *gpu = xl_gpu_create((XrSession)(uintptr_t)1, &binding, &params,
	                                   gated ? &gate : NULL, why, sizeof(why));
	if (!gpu)
		return fail(why, VK_SUCCESS);
	struct held h = {0};
	if (hold && !held_submit(b, &h)) {
		xl_gpu_destroy(gpu);
		return false;
	}
	g_real_submit = gpu->vk.QueueSubmit;
	gpu->vk.QueueSubmit = failing_submit;
	g_submits = 0;
	g_submits_ok = submits_ok;
	unsigned stamped = 0;
	for (int i = 0; i < frames; i++)
		stamped += xl_gpu_stamp(gpu, 1000 + i, i, 1, gated, (uint32_t)gettid());
	bool broken = gpu->bracket.broken;
	struct objects o;
	objects_of(gpu, &o);
	count_destroys(gpu);
	uint64_t start = xl_clock_mono_ns();
	xl_gpu_destroy(gpu);
	double ms = (double)(xl_clock_mono_ns() - start) / 1e6;
	unsigned destroyed = atomic_load(&g_destroyed), all = objects_count(&o);
	/* Opened by the test if the layer left it armed: else the GPU waits for ever. */
	bool armed = gated && atomic_load(&gate.armed);
	if (armed)
		xl_gate_open(&gate);
	held_release(b, &h);
	if (destroyed == 0)
		objects_destroy(b->device, &o);
	printf("%s: %u of %d timestamps submitted%s; xl_gpu_destroy took %.0f ms and destroyed "
	       "%u of %u objects\n", name, stamped, frames,
	       broken ? ", the bracket broken" : "", ms, destroyed, all);
	if (armed)
		return fail("the gate was left armed", VK_SUCCESS);
	if (left && destroyed != 0)
		return fail("objects the GPU still used were destroyed", VK_SUCCESS);
	if (!left && (destroyed != all || ms >= 500))
		return fail("not everything destroyed at once", VK_SUCCESS);
	return true;
}

/* ---- Calibrated timestamps: what the layer looks up and asks, through stand-ins. */
static atomic_uint g_khr_calls, g_ext_calls, g_domain_queries;
static PFN_vkGetCalibratedTimestampsEXT g_real_calibrated;
static bool g_no_monotonic;

/* The KHR extension's entry point a driver may hand out though the device lacks it. */
static VKAPI_ATTR VkResult VKAPI_CALL khr_calibrated(VkDevice device, uint32_t n,
                                                     const VkCalibratedTimestampInfoEXT *info,
                                                     uint64_t *stamps, uint64_t *deviation)
{
	(void)device, (void)n, (void)info, (void)stamps, (void)deviation;
	atomic_fetch_add(&g_khr_calls, 1);
	return VK_ERROR_EXTENSION_NOT_PRESENT;
}

static VKAPI_ATTR VkResult VKAPI_CALL ext_calibrated(VkDevice device, uint32_t n,
                                                     const VkCalibratedTimestampInfoEXT *info,
                                                     uint64_t *stamps, uint64_t *deviation)
{
	atomic_fetch_add(&g_ext_calls, 1);
	return g_real_calibrated(device, n, info, stamps, deviation);
}

static PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT g_real_domains;

/* The device's time domains, less CLOCK_MONOTONIC when g_no_monotonic. */
static VKAPI_ATTR VkResult VKAPI_CALL stand_in_domains(VkPhysicalDevice physical, uint32_t *n,
                                                       VkTimeDomainEXT *domains)
{
	atomic_fetch_add(&g_domain_queries, 1);
	VkResult r = g_real_domains(physical, n, domains);
	if (!domains || !g_no_monotonic)
		return r;
	uint32_t kept = 0;
	for (uint32_t i = 0; i < *n; i++)
		if (domains[i] != VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT)
			domains[kept++] = domains[i];
	*n = kept;
	return r;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL stand_in_gdpa(VkDevice device, const char *name);

/* What the layer gets for entry point @p name, whose real one is @p real. */
static PFN_vkVoidFunction stand_in(const char *name, PFN_vkVoidFunction real)
{
	if (strcmp(name, "vkGetDeviceProcAddr") == 0)
		return (PFN_vkVoidFunction)stand_in_gdpa;
	if (strcmp(name, "vkGetCalibratedTimestampsKHR") == 0)
		return (PFN_vkVoidFunction)khr_calibrated;
	if (real && strcmp(name, "vkGetCalibratedTimestampsEXT") == 0) {
		g_real_calibrated = (PFN_vkGetCalibratedTimestampsEXT)real;
		return (PFN_vkVoidFunction)ext_calibrated;
	}
	if (real && strcmp(name, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT") == 0) {
		g_real_domains = (PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)real;
		return (PFN_vkVoidFunction)stand_in_domains;
	}
	return real;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL stand_in_gdpa(VkDevice device, const char *name)
{
	return stand_in(name, vkGetDeviceProcAddr(device, name));
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL stand_in_gipa(VkInstance instance, const char *name)
{
	return stand_in(name, vkGetInstanceProcAddr(instance, name));
}

/* One state with the device's domains, less CLOCK_MONOTONIC when @p no_monotonic. */
static bool calibration_round(struct bed *b, bool no_monotonic)
{
	XrGraphicsBindingVulkanKHR binding = binding_of(b);
	struct xl_gpu_params params = {.gipa = stand_in_gipa, .calibrated = true};
	struct xl_gpu_calibration cal;
	char why[160];
	g_no_monotonic = no_monotonic;
	atomic_store(&g_khr_calls, 0);
	atomic_store(&g_ext_calls, 0);
	atomic_store(&g_domain_queries, 0);
	struct xl_gpu *gpu = xl_gpu_create((XrSession)(uintptr_t)1, &binding, &params, NULL, why,
	                                   sizeof(why));
	if (!gpu)
		return fail(why, VK_SUCCESS);
	bool calibrated = gpu->calibrated, took = xl_gpu_calibrate(gpu, &cal);
	xl_gpu_destroy(gpu);
	unsigned khr = atomic_load(&g_khr_calls), ext = atomic_load(&g_ext_calls),
	         asked = atomic_load(&g_domain_queries);
	printf("domains %s: calibrated %d, a calibration %s; time domains asked %u times; "
	       "GetCalibratedTimestamps called %u times under the EXT name, %u under the KHR one\n",
	       no_monotonic ? "without CLOCK_MONOTONIC" : "as the device lists them", calibrated,
	       took ? "taken" : "refused", asked, ext, khr);
	if (khr)
		return fail("the KHR extension's entry point was called", VK_SUCCESS);
	if (no_monotonic && (calibrated || took || ext))
		return fail("calibrated without CLOCK_MONOTONIC among the device's domains", VK_SUCCESS);
	if (!no_monotonic && (!calibrated || !took || ext == 0))
		return fail("no calibration on a device that has it", VK_SUCCESS);
	return true;
}

int main(int argc, char **argv)
{
	static const char *const cases[] = {"drain", "gate", "destroy", "broken", "armed",
	                                    "calibration"};
	const char *c = argc == 2 ? argv[1] : "";
	bool known = false;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		known |= strcmp(c, cases[i]) == 0;
	if (!known) {
		fprintf(stderr, "usage: rel_gpu_sync drain|gate|destroy|broken|armed|calibration\n");
		return 2;
	}
	bool gated = strcmp(c, "gate") == 0;
	struct bed b;
	struct xl_gate gate;
	bool ok = bed_create(&b, strcmp(c, "calibration") == 0);
	struct xl_gpu *gpu = NULL;
	if (ok && strcmp(c, "destroy") == 0) {
		ok = destroy_round(&b, "held", false, true, 3, 1000, true);
	} else if (ok && strcmp(c, "broken") == 0) {
		/* One frame: the bracket's A, E and B, then the frame's own. */
		ok = destroy_round(&b, "A and E through", false, true, 1, 2, true) &&
		     destroy_round(&b, "A alone through", false, true, 1, 1, true);
	} else if (ok && strcmp(c, "armed") == 0) {
		ok = destroy_round(&b, "armed", true, false, 1, 1000, false);
	} else if (ok && strcmp(c, "calibration") == 0) {
		ok = calibration_round(&b, false) && calibration_round(&b, true);
	} else if (ok) {
		XrGraphicsBindingVulkanKHR binding = binding_of(&b);
		struct xl_gpu_params params = {.bracket = !gated, .gate_kind = XL_GATE_KIND_EVENT};
		char why[160];
		gpu = xl_gpu_create((XrSession)(uintptr_t)1, &binding, &params, gated ? &gate : NULL,
		                    why, sizeof(why));
		if (!gpu)
			ok = fail(why, VK_SUCCESS);
		if (ok)
			ok = gated ? run_gate(gpu, &gate) : run(&b, gpu);
	}
	if (gpu)
		xl_gpu_destroy(gpu);
	bed_destroy(&b);
	unsigned messages = atomic_load(&g_validation_messages);
	if (messages) {
		fprintf(stderr, "FAIL: %u validation messages\n", messages);
		ok = false;
	}
	if (ok)
		printf("PASS: no validation message\n");
	return ok ? 0 : 1;
}
