/*
 * The target's per-session hooks: xrCreateSession notes the Vulkan binding
 * and sets up GPU work, xrEndFrame costs what the knobs ask, and
 * xrDestroySession releases the target's Vulkan objects before forwarding.
 */
#include "tt_layer.h"

#include "tt_burn.h"
#include "tt_knobs.h"
#include "tt_log.h"
#include "tt_registry.h"

#include <vulkan/vulkan.h>
#define XR_USE_GRAPHICS_API_VULKAN
#include <openxr/openxr_platform.h>

#include <stdlib.h>
#include <string.h>

static struct tt_registry sessions = TT_REGISTRY_INIT;

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
	/* Fail loudly: a test asking for GPU work must not silently get none. */
	if ((knobs->gpu_us > 0 && !session_setup_gpu(s, info, knobs)) ||
	    (knobs->gl_draws > 0 && !session_setup_gl(s, info, knobs)) ||
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
	if (s->gpu && !tt_gpu_submit(s->gpu, info->displayTime))
		return XR_ERROR_RUNTIME_FAILURE;
	if (s->gl && !tt_gl_frame(s->gl, info->displayTime))
		return XR_ERROR_RUNTIME_FAILURE;
	if (s->cpu_us)
		tt_burn_cpu_us(s->cpu_us);
	if (s->gpu && s->gpu_wait && !tt_gpu_wait(s->gpu))
		return XR_ERROR_RUNTIME_FAILURE;
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
