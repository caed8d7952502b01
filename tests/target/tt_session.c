/*
 * The target's per-session hooks: xrCreateSession notes the Vulkan binding
 * and sets up GPU work (and, for the target's own calls, two reference
 * spaces and its own thread), xrEndFrame costs what the knobs ask, and
 * xrDestroySession releases the target's objects before forwarding.
 */
#include "tt_layer.h"

#include "tt_burn.h"
#include "tt_fn.h"
#include "tt_knobs.h"
#include "tt_log.h"
#include "tt_registry.h"
#include "tt_toggle.h"

#include <vulkan/vulkan.h>
#define XR_USE_GRAPHICS_API_VULKAN
#include <openxr/openxr_platform.h>

#include <stdlib.h>
#include <string.h>

static struct tt_registry sessions = TT_REGISTRY_INIT;

/* The session the target's induced calls use: the last one created. */
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tt_session *current; /* guarded by current_lock */
/* The display time of the last xrEndFrame (any session); 0 before. */
static XrTime last_display_time;

bool tt_session_own_calls(struct tt_calls *out)
{
	tt_fn_induced_callees(out);
	const struct tt_calls *thread = &tt_knobs_get()->thread_calls;
	for (int c = 0; c < TT_CALLEE_COUNT; c++)
		out->n[c] += thread->n[c];
	return tt_calls_any(out);
}

XrTime tt_session_time(void)
{
	XrTime t = __atomic_load_n(&last_display_time, __ATOMIC_RELAXED);
	return t > 0 ? t : (XrTime)tt_now_ns();
}

bool tt_session_calls(const struct tt_calls *c, uint32_t *failed)
{
	/* A copy: the calls run unlocked, so a slow runtime never blocks a
	 * session's creation or destruction on another thread. */
	pthread_mutex_lock(&current_lock);
	bool live = current != NULL;
	struct tt_call_ctx ctx = live ? current->calls : (struct tt_call_ctx){0};
	pthread_mutex_unlock(&current_lock);
	if (live)
		*failed += tt_calls_make(c, &ctx, tt_session_time());
	return live;
}

static XrResult create_space(struct tt_session *s, XrReferenceSpaceType type, XrSpace *out)
{
	XrReferenceSpaceCreateInfo ci = {
		.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
		.referenceSpaceType = type,
		.poseInReferenceSpace = {.orientation = {0, 0, 0, 1}},
	};
	return s->instance->next_create_reference_space(s->handle, &ci, out);
}

/*
 * The target's own calls: its VIEW and LOCAL spaces (made through the
 * chain below, as the app's are), its thread, and this session becomes
 * the current one. Nothing when no knob asks for own calls.
 */
static bool session_setup_calls(struct tt_session *s, const struct tt_knobs *knobs)
{
	struct tt_instance *inst = s->instance;
	struct tt_calls wanted;
	if (!tt_session_own_calls(&wanted))
		return true;
	s->calls.instance = inst->handle;
	s->calls.session = s->handle;
	for (int c = 0; c < TT_CALLEE_COUNT; c++)
		s->calls.next[c] = inst->next_callee[c];
	XrResult r = create_space(s, XR_REFERENCE_SPACE_TYPE_VIEW, &s->calls.view_space);
	if (XR_SUCCEEDED(r))
		r = create_space(s, XR_REFERENCE_SPACE_TYPE_LOCAL, &s->calls.local_space);
	if (XR_FAILED(r)) {
		tt_log("xrCreateReferenceSpace for the target's own calls failed: %d", (int)r);
		return false;
	}
	if (tt_calls_any(&knobs->thread_calls) &&
	    !tt_thread_start(&knobs->thread_calls, knobs->thread_hz, &s->calls, &s->thread))
		return false;
	pthread_mutex_lock(&current_lock);
	current = s;
	pthread_mutex_unlock(&current_lock);
	return true;
}

/* Undoes session_setup_calls(): thread joined, then the spaces go. */
static void session_free_calls(struct tt_session *s)
{
	pthread_mutex_lock(&current_lock);
	if (current == s)
		current = NULL;
	pthread_mutex_unlock(&current_lock);
	tt_thread_stop(&s->thread);
	if (s->calls.view_space)
		s->instance->next_destroy_space(s->calls.view_space);
	if (s->calls.local_space)
		s->instance->next_destroy_space(s->calls.local_space);
	s->calls = (struct tt_call_ctx){0};
}

/* XrGraphicsBindingVulkanKHR serves XR_KHR_vulkan_enable and _enable2 alike. */
static const XrGraphicsBindingVulkanKHR *find_vulkan_binding(const void *next)
{
	for (const XrBaseInStructure *s = next; s; s = s->next)
		if (s->type == XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR)
			return (const XrGraphicsBindingVulkanKHR *)s;
	return NULL;
}

static bool session_setup_gpu(struct tt_session *s, const XrSessionCreateInfo *info,
                              const struct tt_knobs *knobs)
{
	const XrGraphicsBindingVulkanKHR *vb = find_vulkan_binding(info->next);
	if (!vb) {
		tt_log("session has no Vulkan binding: GPU work (%llu us) not possible",
		       (unsigned long long)knobs->gpu_us);
		return true;
	}
	tt_log("session on Vulkan queue family %u index %u", vb->queueFamilyIndex,
	       vb->queueIndex);
	struct tt_gpu_binding b = {
		.instance = vb->instance,
		.physical_device = vb->physicalDevice,
		.device = vb->device,
		.queue_family = vb->queueFamilyIndex,
		.queue_index = vb->queueIndex,
	};
	return tt_gpu_create(&b, knobs->gpu_us, knobs->gpu_log, &s->gpu);
}

/* XRTEST_TARGET_GL_DRAWS: GL work in an OpenGL session's context (tt_gl.h). */
static bool session_setup_gl(struct tt_session *s, const XrSessionCreateInfo *info,
                             const struct tt_knobs *knobs)
{
	for (const XrBaseInStructure *b = info->next; b; b = b->next)
		if (b->type == XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR ||
		    b->type == XR_TYPE_GRAPHICS_BINDING_EGL_MNDX)
			return tt_gl_create(b, knobs->gl_draws, knobs->gpu_log, &s->gl);
	tt_log("session has no OpenGL binding: GL work (%llu draws) not possible",
	       (unsigned long long)knobs->gl_draws);
	return true;
}

static void session_free(struct tt_session *s)
{
	session_free_calls(s);
	tt_gl_destroy(&s->gl);
	tt_gpu_destroy(&s->gpu);
	free(s);
}

static XrResult XRAPI_CALL tt_xrCreateSession(XrInstance instance, const XrSessionCreateInfo *info,
                                              XrSession *out)
{
	struct tt_instance *inst = tt_instance_find(instance);
	if (!inst)
		return XR_ERROR_HANDLE_INVALID;
	XrResult r = inst->next_create_session(instance, info, out);
	if (XR_FAILED(r))
		return r;

	const struct tt_knobs *knobs = tt_knobs_get();
	struct tt_session *s = calloc(1, sizeof(*s));
	if (!s) {
		inst->next_destroy_session(*out);
		return XR_ERROR_OUT_OF_MEMORY;
	}
	s->handle = *out;
	s->instance = inst;
	s->next_end_frame = inst->next_end_frame;
	s->cpu_us = knobs->cpu_us;
	s->gpu_wait = knobs->gpu_wait;
	s->sleep_us = knobs->sleep_us;
	s->toggle_frame = knobs->toggle_frame;
	/* Fail loudly: a test asking for GPU work must not silently get none. */
	if ((knobs->gpu_us > 0 && !session_setup_gpu(s, info, knobs)) ||
	    (knobs->gl_draws > 0 && !session_setup_gl(s, info, knobs)) ||
	    !session_setup_calls(s, knobs) ||
	    !tt_registry_add(&sessions, (uint64_t)s->handle, s)) {
		tt_log("session setup failed; failing xrCreateSession");
		session_free(s);
		inst->next_destroy_session(*out);
		*out = XR_NULL_HANDLE;
		return XR_ERROR_RUNTIME_FAILURE;
	}
	return r;
}

static XrResult XRAPI_CALL tt_xrDestroySession(XrSession session)
{
	struct tt_session *s = tt_registry_take(&sessions, (uint64_t)session);
	if (!s)
		return XR_ERROR_HANDLE_INVALID;
	PFN_xrDestroySession next = s->instance->next_destroy_session;
	session_free(s); /* our Vulkan objects go before the runtime's session */
	return next(session);
}

/* Pass-through when both knobs are 0: one lookup, no clock reads. */
static XrResult XRAPI_CALL tt_xrEndFrame(XrSession session, const XrFrameEndInfo *info)
{
	struct tt_session *s = tt_registry_find(&sessions, (uint64_t)session);
	if (!s)
		return XR_ERROR_HANDLE_INVALID;
	/* The second frame thread's call stops here: nothing below sees it. */
	if (s->toggle_frame && tt_toggle_own_call())
		return XR_SUCCESS;
	if (info)
		__atomic_store_n(&last_display_time, info->displayTime, __ATOMIC_RELAXED);
	if (s->gpu && !tt_gpu_submit(s->gpu, info->displayTime))
		return XR_ERROR_RUNTIME_FAILURE;
	if (s->gl && !tt_gl_frame(s->gl, info->displayTime))
		return XR_ERROR_RUNTIME_FAILURE;
	if (s->cpu_us)
		tt_burn_cpu_us(s->cpu_us);
	if (s->gpu && s->gpu_wait && !tt_gpu_wait(s->gpu))
		return XR_ERROR_RUNTIME_FAILURE;
	if (s->sleep_us)
		tt_sleep_us(s->sleep_us);
	if (s->toggle_frame)
		tt_toggle_frame(s->toggle_frame, session, info);
	return s->next_end_frame(session, info);
}

static bool of_instance(void *record, void *inst)
{
	return ((struct tt_session *)record)->instance == inst;
}

void tt_session_destroy_all(struct tt_instance *inst)
{
	struct tt_session *s;
	while ((s = tt_registry_take_if(&sessions, of_instance, inst)))
		session_free(s);
}

PFN_xrVoidFunction tt_session_hook(const char *name)
{
	if (strcmp(name, "xrCreateSession") == 0)
		return (PFN_xrVoidFunction)tt_xrCreateSession;
	if (strcmp(name, "xrDestroySession") == 0)
		return (PFN_xrVoidFunction)tt_xrDestroySession;
	if (strcmp(name, "xrEndFrame") == 0)
		return (PFN_xrVoidFunction)tt_xrEndFrame;
	return NULL;
}
