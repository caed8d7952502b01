/*
 * XrSession: creation with a Vulkan or OpenGL binding or headless (XR_MND_headless),
 * and the session state machine, delivered through xrPollEvent.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <stdlib.h>
#include <string.h>

static const XrReferenceSpaceType g_space_types[] = {
	XR_REFERENCE_SPACE_TYPE_VIEW,
	XR_REFERENCE_SPACE_TYPE_LOCAL,
	XR_REFERENCE_SPACE_TYPE_STAGE,
};

RT_DEFINE_HANDLE_GET_INFO(rt_session_get, XrSession, struct rt_session, RT_HANDLE_SESSION)

void rt_session_set_state(struct rt_session *sess, XrSessionState state)
{
	sess->state = state;
	XrEventDataSessionStateChanged ev = {
		.type = XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED,
		.session = sess->handle,
		.state = state,
		.time = rt_now_ns(),
	};
	rt_event_push(&sess->inst->events, &ev, sizeof(ev));
}

void rt_session_begin_exit(struct rt_session *sess)
{
	if (sess->exit_requested)
		return;
	sess->exit_requested = true;
	/* The spec's path down: no state may be skipped on the way. */
	while (sess->state != XR_SESSION_STATE_STOPPING) {
		switch (sess->state) {
		case XR_SESSION_STATE_FOCUSED: rt_session_set_state(sess, XR_SESSION_STATE_VISIBLE); break;
		case XR_SESSION_STATE_VISIBLE:
		case XR_SESSION_STATE_READY: rt_session_set_state(sess, XR_SESSION_STATE_SYNCHRONIZED); break;
		default: rt_session_set_state(sess, XR_SESSION_STATE_STOPPING); break;
		}
	}
}

static void session_destroy(void *obj)
{
	struct rt_session *sess = obj;
	if (sess->gl)
		rt_gl_session_destroy(sess->gl);
	else if (!sess->headless)
		rt_vk_session_fini(&sess->vk);
	rt_event_drop_session(&sess->inst->events, sess->handle);
	sess->inst->session = XR_NULL_HANDLE;
	pthread_cond_destroy(&sess->frame_cond);
	pthread_mutex_destroy(&sess->lock);
	free(sess);
}

/* The structure of @p type in @p next's chain, or NULL. */
static const void *find_binding(const void *next, XrStructureType type)
{
	for (const XrBaseInStructure *s = next; s; s = s->next)
		if (s->type == type)
			return s;
	return NULL;
}

/* Sets up the graphics side of @p sess from the create info's chain. */
static XrResult session_init_graphics(struct rt_session *sess, const XrSessionCreateInfo *info)
{
	struct rt_instance *inst = sess->inst;
	const void *gl_binding = find_binding(info->next, XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR);
	if (!gl_binding)
		gl_binding = find_binding(info->next, XR_TYPE_GRAPHICS_BINDING_EGL_MNDX);
	if (gl_binding)
		return rt_gl_session_create(inst, gl_binding, &sess->gl);
	const XrGraphicsBindingVulkanKHR *binding =
		find_binding(info->next, XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR);
	if (!binding) {
		if (!inst->ext_headless)
			return XR_ERROR_GRAPHICS_DEVICE_INVALID;
		sess->headless = true;
		return XR_SUCCESS;
	}
	if (!inst->ext_vulkan_enable && !inst->ext_vulkan_enable2)
		return XR_ERROR_GRAPHICS_DEVICE_INVALID;
	if (!inst->vk_requirements_queried)
		return XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING;
	return rt_vk_session_init(&sess->vk, inst, binding);
}

XrResult XRAPI_CALL rt_xrCreateSession(XrInstance instance, const XrSessionCreateInfo *createInfo,
                                       XrSession *session)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_create(instance, createInfo, XR_TYPE_SESSION_CREATE_INFO, session,
	                                    &inst);
	if (r != XR_SUCCESS)
		return r;
	r = rt_instance_check_system(inst, createInfo->systemId);
	if (r != XR_SUCCESS)
		return r;
	if (inst->session != XR_NULL_HANDLE)
		return XR_ERROR_LIMIT_REACHED;

	struct rt_session *sess = calloc(1, sizeof(*sess));
	if (!sess)
		return XR_ERROR_OUT_OF_MEMORY;
	sess->inst = inst;
	r = session_init_graphics(sess, createInfo);
	if (r != XR_SUCCESS) {
		free(sess);
		return r;
	}
	pthread_mutex_init(&sess->lock, NULL);
	pthread_cond_init(&sess->frame_cond, NULL);
	r = RT_HANDLE_PUBLISH(RT_HANDLE_SESSION, sess, RT_H(instance), session_destroy, session);
	if (r != XR_SUCCESS)
		return r;
	inst->session = sess->handle;
	rt_log("session created (%s)", sess->headless ? "headless" : sess->gl ? "OpenGL" : "Vulkan");

	pthread_mutex_lock(&sess->lock);
	rt_session_set_state(sess, XR_SESSION_STATE_IDLE);
	rt_session_set_state(sess, XR_SESSION_STATE_READY);
	pthread_mutex_unlock(&sess->lock);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrDestroySession(XrSession session)
{
	return rt_handle_destroy_as(RT_H(session), RT_HANDLE_SESSION);
}

XrResult XRAPI_CALL rt_xrBeginSession(XrSession session, const XrSessionBeginInfo *beginInfo)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, beginInfo, XR_TYPE_SESSION_BEGIN_INFO, &sess);
	if (r != XR_SUCCESS)
		return r;
	if (beginInfo->primaryViewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO)
		return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;

	pthread_mutex_lock(&sess->lock);
	if (sess->running)
		r = XR_ERROR_SESSION_RUNNING;
	else if (sess->state != XR_SESSION_STATE_READY)
		r = XR_ERROR_SESSION_NOT_READY;
	else {
		sess->running = true;
		rt_frame_reset(sess);
	}
	pthread_mutex_unlock(&sess->lock);
	return r;
}

/*
 * Runs @p fn on the session behind @p handle with its lock held, if the
 * session is running; the checks xrEndSession and xrRequestExitSession share.
 */
static XrResult with_running_session(XrSession handle, XrResult (*fn)(struct rt_session *sess))
{
	struct rt_session *sess;
	XrResult r = rt_session_get(handle, &sess);
	if (r != XR_SUCCESS)
		return r;
	pthread_mutex_lock(&sess->lock);
	r = sess->running ? fn(sess) : XR_ERROR_SESSION_NOT_RUNNING;
	pthread_mutex_unlock(&sess->lock);
	return r;
}

static XrResult end_session_locked(struct rt_session *sess)
{
	if (sess->state != XR_SESSION_STATE_STOPPING)
		return XR_ERROR_SESSION_NOT_STOPPING;
	sess->running = false;
	rt_session_set_state(sess, XR_SESSION_STATE_IDLE);
	/* We only ever stop a session to end it. */
	rt_session_set_state(sess, XR_SESSION_STATE_EXITING);
	pthread_cond_broadcast(&sess->frame_cond);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrEndSession(XrSession session)
{
	return with_running_session(session, end_session_locked);
}

static XrResult request_exit_locked(struct rt_session *sess)
{
	rt_session_begin_exit(sess);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrRequestExitSession(XrSession session)
{
	return with_running_session(session, request_exit_locked);
}

XrResult XRAPI_CALL rt_xrEnumerateReferenceSpaces(XrSession session, uint32_t capacity,
                                                  uint32_t *countOutput, XrReferenceSpaceType *spaces)
{
	struct rt_session *sess;
	XrResult r = rt_session_get(session, &sess);
	if (r != XR_SUCCESS)
		return r;
	return rt_two_call(capacity, countOutput, spaces, g_space_types,
	                   sizeof(g_space_types) / sizeof(g_space_types[0]), sizeof(g_space_types[0]));
}
