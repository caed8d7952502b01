/*
 * XrSession hooks and the GPU half of the sandwich; see xl_session.h.
 */
#include "xl_session.h"

#include "xl_call.h"
#include "xl_gl_session.h"
#include "xl_hooks.h"
#include "xl_instance.h"
#include "xl_log.h"
#include "xl_thread.h"

#include <string.h>

/* How long xrDestroySession waits for the last timestamps to be written:
 * the GPU's finishing them and the writer's collecting them together. */
#define DRAIN_NS 200000000ull
/* How long xrCreateSession waits for the writers' first backing of the rings, and its step. */
#define RINGS_BACKED_WAIT_NS 50000000ull
#define RINGS_BACKED_STEP_NS 100000ull

static const XrGraphicsBindingVulkanKHR *find_vulkan_binding(const XrSessionCreateInfo *info)
{
	/* XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR is the same value and structure. */
	for (const XrBaseInStructure *p = info ? info->next : NULL; p; p = p->next)
		if (p->type == XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR)
			return (const XrGraphicsBindingVulkanKHR *)p;
	return NULL;
}

/*
 * Whether this side's session runs gated, and behind which gate: the event
 * works on every Vulkan device (core 1.0, any binding); the timeline
 * semaphore, when asked for, only where pre could enable it on the device
 * (XR_KHR_vulkan_enable2), else the event.
 */
static bool choose_gated(struct xl_instance *in, const XrGraphicsBindingVulkanKHR *binding,
                         enum xl_gate_kind *kind)
{
	const struct xl_gpu_device_note *note = &in->ctl->gpu->vk_note;
	enum xl_gpu_mode mode = in->settings.gpu_mode;

	*kind = XL_GATE_KIND_EVENT;
	if (xl_side.index != XL_SIDE_PRE || mode == XL_GPU_SANDWICH)
		return false;
	if (in->settings.gpu_gate != XL_GATE_TIMELINE)
		return true;
	if (note->device == binding->device && note->timeline) {
		*kind = XL_GATE_KIND_TIMELINE;
		return true;
	}
	xl_log_loud("XRLM_GPU_GATE=timeline is not possible: %s; using the event gate",
	            note->device != binding->device
	                    ? "the device was not created through XR_KHR_vulkan_enable2"
	                    : note->no_timeline_why ? note->no_timeline_why
	                                            : "the device has no timeline semaphores");
	return true;
}

static void start_gpu(struct xl_instance *in, XrSession session,
                      const XrGraphicsBindingVulkanKHR *binding)
{
	struct xl_control *ctl = in->ctl;
	const struct xl_gpu_device_note *note = &ctl->gpu->vk_note;
	bool known_device = note->device == binding->device;
	struct xl_gpu_params params = {
		.gipa = known_device ? note->gipa : NULL,
		.timeline = known_device && note->timeline,
		.timeline_khr = known_device && note->timeline_khr,
		.calibrated = known_device && note->calibrated,
	};
	char why[160];

	/* Claimed first: the gate xl_gpu_create() fills in is the process's one. */
	if (!xl_gpu_holder_claim(&in->gpu, session)) {
		xl_log("GPU: a second concurrent session is not measured on the GPU");
		return;
	}
	bool gated = choose_gated(in, binding, &params.gate_kind);
	params.bracket = xl_side.index == XL_SIDE_PRE;
	struct xl_gpu *gpu = xl_gpu_create(session, binding, &params, gated ? &ctl->gpu->gate : NULL,
	                                   why, sizeof(why));
	if (!gpu) {
		xl_gpu_holder_release(&in->gpu);
		xl_log("GPU timestamps unavailable (%s): GPU columns stay blank", why);
		return;
	}
	if (xl_side.index == XL_SIDE_PRE) {
		atomic_store(&ctl->gpu->gate.tripped, false);
		atomic_store(&ctl->gpu->gated, gated);
	}
	pthread_mutex_lock(&in->gpu.lock);
	atomic_store(&in->gpu.gpu, gpu);
	pthread_mutex_unlock(&in->gpu.lock);
	xl_log("GPU timestamps: queue family %u index %u, %.9g ns per tick, %s mode%s%s",
	       binding->queueFamilyIndex, binding->queueIndex, (double)gpu->period_ns,
	       xl_side.index == XL_SIDE_PRE ? (gated ? "gated" : "sandwich") : "pre's",
	       !gated ? "" : params.gate_kind == XL_GATE_KIND_EVENT ? " (event gate)"
	                                                            : " (timeline semaphore gate)",
	       gpu->calibrated ? ", clock correlation on" : "");
}

XrResult xl_session_create(struct xl_instance *in, XrInstance instance,
                           const XrSessionCreateInfo *info, XrSession *session)
{
	XrResult r = xl_next_xrCreateSession(instance, info, session);
	/* A forked child's copy of the instance: nothing of ours for it. */
	if (XR_FAILED(r) || xl_instance_foreign(in))
		return r;
	/* A new session alone: its frames are counted from 0 (xl_call.h). One
	 * created beside another leaves the count to go on, else that one's
	 * calls would go back to frame 0 in the middle of its recording. */
	if (atomic_fetch_add(&in->sessions_alive, 1) == 0) {
		atomic_store_explicit(&in->frame_count, 0, memory_order_relaxed);
		atomic_store_explicit(&in->frame_waited, 0, memory_order_relaxed);
		atomic_store_explicit(&in->frame_begun, 0, memory_order_relaxed);
		atomic_store_explicit(&in->frame_epoch,
		                      atomic_fetch_add(&xl_frame_epochs, 1) + 1,
		                      memory_order_relaxed);
	}
	/* Its calls may be recorded from its first frame: the writer, started
	 * with the instance, has backed the first ring's pages by now in any
	 * application that made a graphics device first; one that did not
	 * waits for it here, at most RINGS_BACKED_WAIT_NS, not in its frames. */
	if (in->rings_ready && (in->settings.record_at_start || in->settings.delay_s >= 0))
		xl_thread_wait(xl_ring_pool_backed, &in->rings, RINGS_BACKED_WAIT_NS,
		               RINGS_BACKED_STEP_NS);
	if (in->settings.gpu_mode == XL_GPU_OFF)
		return r;
	const XrGraphicsBindingVulkanKHR *binding = find_vulkan_binding(info);
	const XrBaseInStructure *gl_binding = binding ? NULL : xl_gl_find_binding(info);
	if (gl_binding)
		xl_gl_session_start(in, *session, gl_binding);
	else if (!binding)
		xl_log("session without a Vulkan or OpenGL binding: GPU columns stay blank");
	if (!binding)
		return r;
	start_gpu(in, *session, binding);
	return r;
}

/* Takes the measured session's GPU state out of the holder, so the writer lets go of it. */
static struct xl_gpu *take_gpu(struct xl_instance *in)
{
	pthread_mutex_lock(&in->gpu.lock);
	struct xl_gpu *gpu = atomic_exchange(&in->gpu.gpu, NULL);
	pthread_mutex_unlock(&in->gpu.lock);
	if (gpu && xl_side.index == XL_SIDE_PRE)
		atomic_store(&in->ctl->gpu->gated, false);
	return gpu;
}

/* A frame sample destroyed before the writer collected it: lost, and counted. */
static void count_lost(void *ctx, uint32_t session_id)
{
	struct xl_instance *in = ctx;
	atomic_fetch_add_explicit(&xl_control_session(in->ctl, session_id)->gpu_overflow[xl_side.index],
	                          1, memory_order_relaxed);
}

/* xrDestroySession of the measured session: its GPU state goes, then its claim. */
static void stop_gpu(struct xl_instance *in, XrSession session)
{
	struct xl_gpu *gpu = atomic_load(&in->gpu.gpu);
	if (gpu) {
		/* Let the writer write the last samples (it may be busy: post's
		 * merge of an earlier session), then free everything on the
		 * device before the chain below destroys the session; what the
		 * writer did not collect is counted as lost. */
		xl_gpu_drain(gpu, DRAIN_NS);
		gpu = take_gpu(in);
		if (gpu)
			xl_gpu_each_uncollected(gpu, count_lost, in);
		xl_gpu_destroy(gpu);
	}
	xl_gl_session_end(in, session);
	/* Only now: a session created meanwhile finds the pointers null. */
	xl_gpu_holder_release(&in->gpu);
}

/* One session fewer alive (never below 0). */
static void session_gone(struct xl_instance *in)
{
	uint32_t n = atomic_load(&in->sessions_alive);
	while (n && !atomic_compare_exchange_weak(&in->sessions_alive, &n, n - 1))
		;
}

XrResult xl_session_destroy(struct xl_instance *in, XrSession session)
{
	/* Another session's state is never looked at: its own destroy may be
	 * freeing it on another thread. Nor in a forked child, whose copy's
	 * GPU state is the parent's (its lock perhaps held by a thread the
	 * child does not have): straight down the chain. */
	if (xl_instance_foreign(in))
		return xl_next_xrDestroySession(session);
	if (xl_gpu_holder_measures(&in->gpu, session))
		stop_gpu(in, session);
	XrResult r = xl_next_xrDestroySession(session);
	if (XR_SUCCEEDED(r))
		session_gone(in);
	return r;
}

/*
 * The instance goes with the measured session alive: its GPU state goes,
 * then its claim. At xrDestroyInstance the application's device is still
 * there (it must outlive the session): everything of ours on it is
 * destroyed as xrDestroySession would (@p destroy), or else the
 * application's device would be destroyed with our objects on it. At the
 * process's exit the device may be gone already: host memory only.
 */
static void end_gpu(struct xl_instance *in, bool destroy)
{
	xl_gl_session_abandon(in);
	struct xl_gpu *gpu = take_gpu(in);
	if (gpu && destroy) {
		/* The writer is stopped: the samples on the GPU are not waited
		 * for twice (xl_gpu_destroy waits for the GPU itself). */
		xl_log("xrDestroyInstance with a session still alive: its GPU timestamp objects "
		       "are destroyed first");
		xl_gpu_destroy(gpu);
	} else if (gpu) {
		xl_log("the process exits with a session still alive: its GPU timestamp objects "
		       "are left to the application's device");
		xl_gpu_abandon(gpu);
	}
	xl_gpu_holder_release(&in->gpu);
}

void xl_session_destroy_gpu(struct xl_instance *in)
{
	end_gpu(in, true);
}

void xl_session_exit_gpu(struct xl_instance *in)
{
	end_gpu(in, false);
}

XrResult xl_session_create_vulkan_instance(struct xl_instance *in, XrInstance instance,
                                           const XrVulkanInstanceCreateInfoKHR *info,
                                           VkInstance *vk_instance, VkResult *vk_result)
{
	return xl_gpu_device_create_instance(xl_next_xrCreateVulkanInstanceKHR, instance, info,
	                                     vk_instance, vk_result,
	                                     in->settings.gpu_mode != XL_GPU_OFF,
	                                     &in->ctl->gpu->vk_note);
}

XrResult xl_session_create_vulkan_device(struct xl_instance *in, XrInstance instance,
                                         const XrVulkanDeviceCreateInfoKHR *info,
                                         VkDevice *vk_device, VkResult *vk_result)
{
	enum xl_gpu_mode mode = in->settings.gpu_mode;
	/* The event gate needs nothing of the device: add timeline semaphores
	 * only for the gate that needs them. */
	bool want_timeline = (mode == XL_GPU_AUTO || mode == XL_GPU_GATED) &&
	                     in->settings.gpu_gate == XL_GATE_TIMELINE;

	if (mode == XL_GPU_OFF)
		return xl_next_xrCreateVulkanDeviceKHR(instance, info, vk_device, vk_result);
	return xl_gpu_device_create_device(xl_next_xrCreateVulkanDeviceKHR, instance, info,
	                                   vk_device, vk_result, want_timeline,
	                                   &in->ctl->gpu->vk_note);
}
