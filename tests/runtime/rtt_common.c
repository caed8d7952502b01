/*
 * Helpers for the runtime's C tests; see rtt_common.h.
 */
#include "rtt_common.h"

#include "tc_xr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

bool rtt_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	return false;
}

bool rtt_expect(const char *what, XrResult got, XrResult want)
{
	if (got == want)
		return true;
	return rtt_fail("%s returned %d, expected %d", what, got, want);
}

int64_t rtt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool rtt_create_headless(struct rtt_xr *xr)
{
	memset(xr, 0, sizeof(*xr));
	XrSystemGetInfo sgi = {.type = XR_TYPE_SYSTEM_GET_INFO,
	                       .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
	XrSessionCreateInfo sci = {.type = XR_TYPE_SESSION_CREATE_INFO};
	XrReferenceSpaceCreateInfo rci = {.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
	                                  .referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL,
	                                  .poseInReferenceSpace = {.orientation = {0, 0, 0, 1}}};
	if (!rtt_expect("xrCreateInstance",
	                tc_xr_create_instance("xrlm-runtime-test", XR_MND_HEADLESS_EXTENSION_NAME,
	                                      &xr->instance),
	                XR_SUCCESS) ||
	    !rtt_expect("xrGetSystem", xrGetSystem(xr->instance, &sgi, &xr->system), XR_SUCCESS))
		return false;
	sci.systemId = xr->system;
	return rtt_expect("xrCreateSession", xrCreateSession(xr->instance, &sci, &xr->session), XR_SUCCESS) &&
	       rtt_expect("xrCreateReferenceSpace",
	                  xrCreateReferenceSpace(xr->session, &rci, &xr->local), XR_SUCCESS);
}

bool rtt_poll(struct rtt_xr *xr)
{
	XrSessionState state;
	XrResult r;
	while ((r = tc_xr_next_state(xr->instance, &state)) == XR_SUCCESS) {
		xr->state = state;
		if (xr->state_count < RTT_MAX_STATES)
			xr->states[xr->state_count++] = state;
	}
	return r == XR_EVENT_UNAVAILABLE || rtt_fail("xrPollEvent returned %d", r);
}

/* Polls until @p state is reached, for at most a second. */
static bool poll_until(struct rtt_xr *xr, XrSessionState state)
{
	int64_t end = rtt_now_ns() + 1000000000;
	while (xr->state != state) {
		if (!rtt_poll(xr))
			return false;
		if (xr->state != state && rtt_now_ns() > end)
			return rtt_fail("session never reached state %d (now %d)", state, xr->state);
	}
	return true;
}

bool rtt_begin(struct rtt_xr *xr)
{
	XrSessionBeginInfo bi = {.type = XR_TYPE_SESSION_BEGIN_INFO,
	                         .primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
	return poll_until(xr, XR_SESSION_STATE_READY) &&
	       rtt_expect("xrBeginSession", xrBeginSession(xr->session, &bi), XR_SUCCESS);
}

bool rtt_frame(struct rtt_xr *xr, XrFrameState *state)
{
	*state = (XrFrameState){.type = XR_TYPE_FRAME_STATE};
	XrFrameEndInfo fei = {.type = XR_TYPE_FRAME_END_INFO,
	                      .environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE};
	if (!rtt_expect("xrWaitFrame", xrWaitFrame(xr->session, NULL, state), XR_SUCCESS) ||
	    !rtt_expect("xrBeginFrame", xrBeginFrame(xr->session, NULL), XR_SUCCESS))
		return false;
	fei.displayTime = state->predictedDisplayTime;
	return rtt_expect("xrEndFrame", xrEndFrame(xr->session, &fei), XR_SUCCESS);
}

bool rtt_finish(struct rtt_xr *xr)
{
	if (!rtt_poll(xr))
		return false;
	if (xr->state != XR_SESSION_STATE_STOPPING &&
	    !rtt_expect("xrRequestExitSession", xrRequestExitSession(xr->session), XR_SUCCESS))
		return false;
	if (!poll_until(xr, XR_SESSION_STATE_STOPPING) ||
	    !rtt_expect("xrEndSession", xrEndSession(xr->session), XR_SUCCESS) ||
	    !poll_until(xr, XR_SESSION_STATE_EXITING))
		return false;
	return rtt_expect("xrDestroySession", xrDestroySession(xr->session), XR_SUCCESS) &&
	       rtt_expect("xrDestroyInstance", xrDestroyInstance(xr->instance), XR_SUCCESS);
}

bool rtt_check_life_cycle(const struct rtt_xr *xr)
{
	static const XrSessionState want[] = {
		XR_SESSION_STATE_IDLE,         XR_SESSION_STATE_READY,   XR_SESSION_STATE_SYNCHRONIZED,
		XR_SESSION_STATE_VISIBLE,      XR_SESSION_STATE_FOCUSED, XR_SESSION_STATE_VISIBLE,
		XR_SESSION_STATE_SYNCHRONIZED, XR_SESSION_STATE_STOPPING, XR_SESSION_STATE_IDLE,
		XR_SESSION_STATE_EXITING,
	};
	uint32_t n = sizeof(want) / sizeof(want[0]);
	bool ok = xr->state_count == n;
	for (uint32_t i = 0; ok && i < n; i++)
		ok = xr->states[i] == want[i];
	if (ok)
		return true;
	char got[256] = "";
	for (uint32_t i = 0; i < xr->state_count; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %d", xr->states[i]);
	return rtt_fail("session states were%s; expected 1 2 3 4 5 4 3 6 1 8", got);
}
