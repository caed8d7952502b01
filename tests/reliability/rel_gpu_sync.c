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
 * Usage: rel_gpu_sync drain|gate
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
	VkDeviceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qi,
	};
	VkResult r = vkCreateDevice(b->physical, &ci, NULL, &b->device);
	return r == VK_SUCCESS || fail("vkCreateDevice", r);
}

static bool bed_create(struct bed *b)
{
	memset(b, 0, sizeof(*b));
	return create_instance(b) && pick_queue(b) && create_device(b);
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

static void count_sample(void *ctx, const struct xl_gpu_sample *s)
{
	struct collector *c = ctx;
	if (s->bracket)
		c->brackets++;
	else
		atomic_fetch_add(&c->frames, s->valid);
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
		if (!xl_gpu_stamp(gpu, 1000 * round + i, round, false, 0))
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
		if (!xl_gpu_stamp(gpu, 1000 + i, 1, true, (uint32_t)gettid()))
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

int main(int argc, char **argv)
{
	bool gated = argc == 2 && strcmp(argv[1], "gate") == 0;
	if (argc != 2 || (!gated && strcmp(argv[1], "drain") != 0)) {
		fprintf(stderr, "usage: rel_gpu_sync drain|gate\n");
		return 2;
	}
	struct bed b;
	struct xl_gate gate;
	bool ok = bed_create(&b);
	struct xl_gpu *gpu = NULL;
	if (ok) {
		XrGraphicsBindingVulkanKHR binding = {
			.type = XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR,
			.instance = b.instance,
			.physicalDevice = b.physical,
			.device = b.device,
			.queueFamilyIndex = b.family,
		};
		struct xl_gpu_params params = {.bracket = !gated, .gate_kind = XL_GATE_KIND_EVENT};
		char why[160];
		gpu = xl_gpu_create((XrSession)(uintptr_t)1, &binding, &params, gated ? &gate : NULL,
		                    why, sizeof(why));
		if (!gpu)
			ok = fail(why, VK_SUCCESS);
	}
	if (ok)
		ok = gated ? run_gate(gpu, &gate) : run(&b, gpu);
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
