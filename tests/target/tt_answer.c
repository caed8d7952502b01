/*
 * The target's own answers (see tt_answer.h). They describe a system with
 * nothing to report: no event queued, no action active, no space tracked,
 * haptics accepted. Arguments are checked only as far as the answer needs.
 */
#include "tt_answer.h"

#include <string.h>

static XrResult XRAPI_CALL answer_xrPollEvent(XrInstance instance, XrEventDataBuffer *eventData)
{
	(void)instance;
	return eventData ? XR_EVENT_UNAVAILABLE : XR_ERROR_VALIDATION_FAILURE;
}

static XrResult XRAPI_CALL answer_xrSyncActions(XrSession session, const XrActionsSyncInfo *info)
{
	(void)session;
	return info ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

/* An inactive state: every member after type and next zero, as a runtime with no device says. */
static XrResult inactive_state(const XrActionStateGetInfo *info, void *state,
                               XrStructureType type, size_t size)
{
	if (!info || !state || ((XrBaseOutStructure *)state)->type != type)
		return XR_ERROR_VALIDATION_FAILURE;
	memset((char *)state + sizeof(XrBaseOutStructure), 0, size - sizeof(XrBaseOutStructure));
	return XR_SUCCESS;
}

/* Defines answer_xrGetActionState<Name> on inactive_state(). */
#define TT_ANSWER_STATE(Name, state_type)                                                     \
	static XrResult XRAPI_CALL answer_xrGetActionState##Name(                             \
		XrSession session, const XrActionStateGetInfo *info, XrActionState##Name *state) \
	{                                                                                     \
		(void)session;                                                                \
		return inactive_state(info, state, state_type, sizeof(*state));               \
	}
TT_ANSWER_STATE(Boolean, XR_TYPE_ACTION_STATE_BOOLEAN)
TT_ANSWER_STATE(Float, XR_TYPE_ACTION_STATE_FLOAT)
TT_ANSWER_STATE(Vector2f, XR_TYPE_ACTION_STATE_VECTOR2F)
TT_ANSWER_STATE(Pose, XR_TYPE_ACTION_STATE_POSE)
#undef TT_ANSWER_STATE

/* Not tracked: identity pose, no valid bit, in the location and any chained velocity. */
static XrResult XRAPI_CALL answer_xrLocateSpace(XrSpace space, XrSpace base, XrTime time,
                                                XrSpaceLocation *location)
{
	(void)space;
	(void)base;
	if (!location || location->type != XR_TYPE_SPACE_LOCATION)
		return XR_ERROR_VALIDATION_FAILURE;
	if (time <= 0)
		return XR_ERROR_TIME_INVALID;
	location->locationFlags = 0;
	location->pose = (XrPosef){.orientation = {0, 0, 0, 1}};
	for (XrBaseOutStructure *n = location->next; n; n = n->next) {
		if (n->type != XR_TYPE_SPACE_VELOCITY)
			continue;
		XrSpaceVelocity *v = (XrSpaceVelocity *)n;
		v->velocityFlags = 0;
		v->linearVelocity = (XrVector3f){0, 0, 0};
		v->angularVelocity = (XrVector3f){0, 0, 0};
	}
	return XR_SUCCESS;
}

static XrResult XRAPI_CALL answer_xrApplyHapticFeedback(XrSession session,
                                                        const XrHapticActionInfo *info,
                                                        const XrHapticBaseHeader *feedback)
{
	(void)session;
	return info && feedback ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

static XrResult XRAPI_CALL answer_xrStopHapticFeedback(XrSession session,
                                                       const XrHapticActionInfo *info)
{
	(void)session;
	return info ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

/*
 * The frame dropped without a word, as a frame limiter does (or a
 * validation layer that refuses a bad frame, less its error): the layers
 * below never see this xrEndFrame, and the runtime discards the frame at
 * the next xrBeginFrame.
 */
static XrResult XRAPI_CALL answer_xrEndFrame(XrSession session, const XrFrameEndInfo *info)
{
	(void)session;
	return info ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

/* Each answer checked against its function's PFN type by the compiler. */
#define TT_ANSWER(name) [XL_FN_##name] = (PFN_xrVoidFunction)(PFN_##name)answer_##name
static const PFN_xrVoidFunction answers[XL_FN_COUNT] = {
	TT_ANSWER(xrPollEvent),
	TT_ANSWER(xrSyncActions),
	TT_ANSWER(xrGetActionStateBoolean),
	TT_ANSWER(xrGetActionStateFloat),
	TT_ANSWER(xrGetActionStateVector2f),
	TT_ANSWER(xrGetActionStatePose),
	TT_ANSWER(xrLocateSpace),
	TT_ANSWER(xrApplyHapticFeedback),
	TT_ANSWER(xrStopHapticFeedback),
	TT_ANSWER(xrEndFrame),
};
#undef TT_ANSWER

PFN_xrVoidFunction tt_answer_for(enum xl_fn_id id)
{
	return id < XL_FN_COUNT ? answers[id] : NULL;
}
