/*
 * Headless session through the loader; see bx_session.h.
 */
#include "bx_session.h"

#include "bx_time.h"
#include "tc_xr.h"

#include <stdio.h>
#include <string.h>

static bool xr_ok(XrResult r, const char *call)
{
	if (XR_SUCCEEDED(r))
		return true;
	fprintf(stderr, "xrlm-bench: %s failed: %d\n", call, (int)r);
	return false;
}

#define BX_XR(call) xr_ok((call), #call)

static bool create_instance(struct bx_session *s)
{
	return BX_XR(tc_xr_create_instance("xrlm-bench", XR_MND_HEADLESS_EXTENSION_NAME, &s->instance));
}

static bool create_session(struct bx_session *s)
{
	XrSystemGetInfo gi = {
		.type = XR_TYPE_SYSTEM_GET_INFO,
		.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY,
	};
	if (!BX_XR(xrGetSystem(s->instance, &gi, &s->system)))
		return false;
	XrSessionCreateInfo ci = {.type = XR_TYPE_SESSION_CREATE_INFO, .systemId = s->system};
	return BX_XR(xrCreateSession(s->instance, &ci, &s->session));
}

static bool on_state(struct bx_session *s, XrSessionState state)
{
	s->stopping |= state == XR_SESSION_STATE_STOPPING;
	if (state != XR_SESSION_STATE_READY)
		return true;
	XrSessionBeginInfo bi = {
		.type = XR_TYPE_SESSION_BEGIN_INFO,
		.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
	};
	s->running = BX_XR(xrBeginSession(s->session, &bi));
	return s->running;
}

bool bx_session_poll(struct bx_session *s)
{
	XrSessionState state;
	XrResult r;
	while ((r = tc_xr_next_state(s->instance, &state)) == XR_SUCCESS)
		if (!on_state(s, state))
			return false;
	return r == XR_EVENT_UNAVAILABLE || xr_ok(r, "xrPollEvent");
}

bool bx_session_create(struct bx_session *s)
{
	memset(s, 0, sizeof(*s));
	if (!create_instance(s) || !create_session(s) || !bx_session_poll(s))
		return false;
	if (!s->running)
		fprintf(stderr, "xrlm-bench: the session never became READY\n");
	return s->running;
}

/* Exit through the spec's path: request, run frames until STOPPING. */
static void end_session(struct bx_session *s)
{
	if (!BX_XR(xrRequestExitSession(s->session)))
		return;
	for (int i = 0; i < 100 && !s->stopping; i++)
		if (!bx_session_poll(s) || (!s->stopping && !bx_session_frame(s, NULL)))
			return;
	BX_XR(xrEndSession(s->session));
}

void bx_session_destroy(struct bx_session *s)
{
	if (s->running)
		end_session(s);
	if (s->session)
		BX_XR(xrDestroySession(s->session));
	if (s->instance)
		BX_XR(xrDestroyInstance(s->instance));
	memset(s, 0, sizeof(*s));
}

bool bx_session_frame(struct bx_session *s, uint64_t *end_ns)
{
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	XrFrameBeginInfo bi = {.type = XR_TYPE_FRAME_BEGIN_INFO};
	if (!BX_XR(xrWaitFrame(s->session, &wi, &fs)) || !BX_XR(xrBeginFrame(s->session, &bi)))
		return false;
	XrFrameEndInfo ei = {
		.type = XR_TYPE_FRAME_END_INFO,
		.displayTime = fs.predictedDisplayTime,
		.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE,
	};
	if (!end_ns)
		return BX_XR(xrEndFrame(s->session, &ei));
	uint64_t t0 = bx_now_ns();
	XrResult r = xrEndFrame(s->session, &ei);
	*end_ns = bx_now_ns() - t0;
	return BX_XR(r);
}
