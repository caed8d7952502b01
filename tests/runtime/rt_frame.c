/*
 * The frame loop: xrWaitFrame paces to absolute deadlines on
 * CLOCK_MONOTONIC, xrBeginFrame/xrEndFrame check the call order, and
 * xrEndFrame validates the submitted layers and does the compositor's work.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <string.h>

void rt_frame_reset(struct rt_session *sess)
{
	sess->frames_waited = 0;
	sess->frames_begun = 0;
	sess->frames_ended = 0;
	sess->frame_in_progress = false;
	sess->next_wake_ns = 0;
	/* last_display_ns stays: display times never repeat within a session. */
	memset(sess->display_ring, 0, sizeof(sess->display_ring));
	sess->display_ring_next = 0;
}

static int64_t period_ns(const struct rt_session *sess)
{
	double hz = sess->inst->knobs.frame_rate_hz;
	return hz > 0.0 ? (int64_t)(1e9 / hz + 0.5) : 0;
}

/*
 * The next wake-up on the frame grid. A late app skips whole periods, so
 * the phase (and hence the mean rate) is kept instead of drifting.
 */
static int64_t next_wake(struct rt_session *sess, int64_t now, int64_t period)
{
	if (sess->next_wake_ns == 0)
		return now;
	int64_t wake = sess->next_wake_ns + period;
	if (wake < now - period)
		wake += (now - wake) / period * period;
	return wake;
}

/* Records @p t as a display time xrEndFrame will accept; lock held. */
static void remember_display_time(struct rt_session *sess, int64_t t)
{
	sess->display_ring[sess->display_ring_next] = t;
	sess->display_ring_next = (sess->display_ring_next + 1) % RT_DISPLAY_TIME_RING;
	sess->last_display_ns = t;
}

static bool display_time_known(const struct rt_session *sess, int64_t t)
{
	for (uint32_t i = 0; i < RT_DISPLAY_TIME_RING; i++)
		if (sess->display_ring[i] == t)
			return true;
	return false;
}

XrResult XRAPI_CALL rt_xrWaitFrame(XrSession session, const XrFrameWaitInfo *frameWaitInfo,
                                   XrFrameState *frameState)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, frameState, XR_TYPE_FRAME_STATE, &sess);
	if (r == XR_SUCCESS)
		r = rt_check_struct_opt(frameWaitInfo, XR_TYPE_FRAME_WAIT_INFO);
	if (r != XR_SUCCESS)
		return r;

	pthread_mutex_lock(&sess->lock);
	/* The spec: a second wait blocks until the previous frame is begun. */
	while (sess->running && sess->frames_waited > sess->frames_begun)
		pthread_cond_wait(&sess->frame_cond, &sess->lock);
	if (!sess->running) {
		pthread_mutex_unlock(&sess->lock);
		return XR_ERROR_SESSION_NOT_RUNNING;
	}
	int64_t period = period_ns(sess);
	int64_t now = rt_now_ns();
	int64_t wake = period ? next_wake(sess, now, period) : now;
	sess->next_wake_ns = wake;
	sess->frames_waited++;
	pthread_mutex_unlock(&sess->lock);

	/* Unlocked: another thread may begin or end the previous frame meanwhile. */
	if (period)
		rt_sleep_until_ns(wake);

	pthread_mutex_lock(&sess->lock);
	int64_t display = period ? wake + period : rt_now_ns();
	if (display <= sess->last_display_ns)
		display = sess->last_display_ns + 1;
	remember_display_time(sess, display);
	frameState->predictedDisplayTime = display;
	frameState->predictedDisplayPeriod = period;
	frameState->shouldRender = sess->state == XR_SESSION_STATE_VISIBLE ||
	                           sess->state == XR_SESSION_STATE_FOCUSED;
	pthread_mutex_unlock(&sess->lock);
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrBeginFrame(XrSession session, const XrFrameBeginInfo *frameBeginInfo)
{
	struct rt_session *sess;
	XrResult r = rt_session_get(session, &sess);
	if (r == XR_SUCCESS)
		r = rt_check_struct_opt(frameBeginInfo, XR_TYPE_FRAME_BEGIN_INFO);
	if (r != XR_SUCCESS)
		return r;

	pthread_mutex_lock(&sess->lock);
	if (!sess->running) {
		r = XR_ERROR_SESSION_NOT_RUNNING;
	} else if (sess->frames_begun == sess->frames_waited) {
		r = XR_ERROR_CALL_ORDER_INVALID;
	} else {
		/* A frame begun and never ended is dropped, as the spec says. */
		r = sess->frame_in_progress ? XR_FRAME_DISCARDED : XR_SUCCESS;
		sess->frame_in_progress = true;
		sess->frames_begun++;
		pthread_cond_broadcast(&sess->frame_cond);
	}
	pthread_mutex_unlock(&sess->lock);
	return r;
}

static XrResult check_pose(const XrPosef *pose)
{
	return rt_quat_is_unit(&pose->orientation) ? XR_SUCCESS : XR_ERROR_POSE_INVALID;
}

static XrResult check_sub_image(struct rt_session *sess, const XrSwapchainSubImage *sub)
{
	struct rt_swapchain *sc;
	XrResult r = rt_swapchain_check_for_layer(sess, sub->swapchain, &sc);
	if (r != XR_SUCCESS)
		return r;
	if (sub->imageArrayIndex >= sc->info.arraySize)
		return XR_ERROR_VALIDATION_FAILURE;
	const XrRect2Di *rect = &sub->imageRect;
	if (rect->offset.x < 0 || rect->offset.y < 0 || rect->extent.width <= 0 ||
	    rect->extent.height <= 0 ||
	    (int64_t)rect->offset.x + rect->extent.width > (int64_t)sc->info.width ||
	    (int64_t)rect->offset.y + rect->extent.height > (int64_t)sc->info.height)
		return XR_ERROR_SWAPCHAIN_RECT_INVALID;
	return XR_SUCCESS;
}

static XrResult check_projection(struct rt_session *sess, const XrCompositionLayerProjection *proj)
{
	if (proj->viewCount != RT_VIEW_COUNT || !proj->views)
		return XR_ERROR_VALIDATION_FAILURE;
	for (uint32_t i = 0; i < proj->viewCount; i++) {
		const XrCompositionLayerProjectionView *view = &proj->views[i];
		if (view->type != XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW)
			return XR_ERROR_VALIDATION_FAILURE;
		XrResult r = check_pose(&view->pose);
		if (r == XR_SUCCESS)
			r = check_sub_image(sess, &view->subImage);
		if (r != XR_SUCCESS)
			return r;
	}
	return XR_SUCCESS;
}

static XrResult check_quad(struct rt_session *sess, const XrCompositionLayerQuad *quad)
{
	if (quad->eyeVisibility > XR_EYE_VISIBILITY_RIGHT)
		return XR_ERROR_VALIDATION_FAILURE;
	XrResult r = check_pose(&quad->pose);
	if (r != XR_SUCCESS)
		return r;
	return check_sub_image(sess, &quad->subImage);
}

/* One layer: a core type we know, in a space of this session, well formed. */
static XrResult check_layer(struct rt_session *sess, const XrCompositionLayerBaseHeader *layer)
{
	if (!layer)
		return XR_ERROR_LAYER_INVALID;
	XrResult r = rt_space_check(sess, layer->space);
	if (r != XR_SUCCESS)
		return r;
	switch (layer->type) {
	case XR_TYPE_COMPOSITION_LAYER_PROJECTION:
		return check_projection(sess, (const XrCompositionLayerProjection *)layer);
	case XR_TYPE_COMPOSITION_LAYER_QUAD:
		return check_quad(sess, (const XrCompositionLayerQuad *)layer);
	default:
		return XR_ERROR_LAYER_INVALID;
	}
}

static XrResult check_blend_mode(XrEnvironmentBlendMode mode)
{
	switch (mode) {
	case XR_ENVIRONMENT_BLEND_MODE_OPAQUE: return XR_SUCCESS;
	case XR_ENVIRONMENT_BLEND_MODE_ADDITIVE:
	case XR_ENVIRONMENT_BLEND_MODE_ALPHA_BLEND: return XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED;
	default: return XR_ERROR_VALIDATION_FAILURE;
	}
}

/* Everything xrEndFrame checks before it accepts a frame; lock held. */
static XrResult check_frame_end(struct rt_session *sess, const XrFrameEndInfo *info)
{
	if (!sess->running)
		return XR_ERROR_SESSION_NOT_RUNNING;
	if (!sess->frame_in_progress)
		return XR_ERROR_CALL_ORDER_INVALID;
	if (info->displayTime <= 0 || !display_time_known(sess, info->displayTime))
		return XR_ERROR_TIME_INVALID;
	XrResult r = check_blend_mode(info->environmentBlendMode);
	if (r != XR_SUCCESS)
		return r;
	if (info->layerCount > RT_MAX_LAYERS)
		return XR_ERROR_LAYER_LIMIT_EXCEEDED;
	if (info->layerCount > 0 && !info->layers)
		return XR_ERROR_VALIDATION_FAILURE;
	for (uint32_t i = 0; i < info->layerCount; i++) {
		r = check_layer(sess, info->layers[i]);
		if (r != XR_SUCCESS)
			return r;
	}
	return XR_SUCCESS;
}

/* State changes that follow an ended frame; lock held. */
static void frame_ended(struct rt_session *sess)
{
	sess->frame_in_progress = false;
	sess->frames_ended++;
	if (sess->exit_requested)
		return;
	/* The first frame synchronizes the loop; we then show and focus it. */
	if (sess->state == XR_SESSION_STATE_READY) {
		rt_session_set_state(sess, XR_SESSION_STATE_SYNCHRONIZED);
		rt_session_set_state(sess, XR_SESSION_STATE_VISIBLE);
		rt_session_set_state(sess, XR_SESSION_STATE_FOCUSED);
	}
	uint64_t limit = sess->inst->knobs.exit_after_frames;
	if (limit && sess->frames_ended >= limit) {
		rt_log("%llu frames done (XRTEST_EXIT_AFTER_FRAMES): asking the app to exit",
		       (unsigned long long)sess->frames_ended);
		rt_session_begin_exit(sess);
	}
}

/* The simulated compositor: CPU time on this thread, GPU time on the app's queue. */
static XrResult compositor_work(struct rt_session *sess)
{
	const struct rt_knobs *k = &sess->inst->knobs;
	rt_busy_wait_ns((int64_t)k->compositor_cpu_us * 1000);
	if (sess->gl)
		rt_gl_end_frame(sess->gl);
	if (sess->headless || sess->gl || k->compositor_gpu_us == 0)
		return XR_SUCCESS;
	return rt_vk_compositor_work(&sess->vk, k->compositor_gpu_us, k->compositor_gpu_wait);
}

XrResult XRAPI_CALL rt_xrEndFrame(XrSession session, const XrFrameEndInfo *frameEndInfo)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, frameEndInfo, XR_TYPE_FRAME_END_INFO, &sess);
	if (r != XR_SUCCESS)
		return r;

	pthread_mutex_lock(&sess->lock);
	r = check_frame_end(sess, frameEndInfo);
	if (r == XR_SUCCESS)
		frame_ended(sess);
	pthread_mutex_unlock(&sess->lock);
	if (r != XR_SUCCESS)
		return r;
	return compositor_work(sess);
}
