/*
 * The test app's input and tracking (see app_input.h). The bindings are
 * the Valve Index controller's; the test runtime has no device, so every
 * action stays inactive, but every call is made as an engine makes it.
 */
#include "app_input.h"

#include "app_check.h"

#include <stdio.h>

static const struct {
	const char *name;
	XrActionType type;
	const char *binding; /* under /user/hand/<side> */
} actions[APP_ACTION_COUNT] = {
	[APP_ACTION_SELECT] = {"select", XR_ACTION_TYPE_BOOLEAN_INPUT, "input/a/click"},
	[APP_ACTION_MENU] = {"menu", XR_ACTION_TYPE_BOOLEAN_INPUT, "input/b/click"},
	[APP_ACTION_TRIGGER] = {"trigger", XR_ACTION_TYPE_FLOAT_INPUT, "input/trigger/value"},
	[APP_ACTION_SQUEEZE] = {"squeeze", XR_ACTION_TYPE_FLOAT_INPUT, "input/squeeze/value"},
	[APP_ACTION_THUMBSTICK] = {"thumbstick", XR_ACTION_TYPE_VECTOR2F_INPUT, "input/thumbstick"},
	[APP_ACTION_GRIP] = {"grip", XR_ACTION_TYPE_POSE_INPUT, "input/grip/pose"},
	[APP_ACTION_AIM] = {"aim", XR_ACTION_TYPE_POSE_INPUT, "input/aim/pose"},
};

static const char *const hand_paths[APP_HANDS] = {"/user/hand/left", "/user/hand/right"};

static bool create_actions(struct app_input *in, XrInstance instance)
{
	XrActionSetCreateInfo si = {.type = XR_TYPE_ACTION_SET_CREATE_INFO,
	                            .actionSetName = "gameplay",
	                            .localizedActionSetName = "Gameplay"};
	if (!APP_XR(xrCreateActionSet(instance, &si, &in->set)))
		return false;
	for (int h = 0; h < APP_HANDS; h++)
		if (!APP_XR(xrStringToPath(instance, hand_paths[h], &in->hands[h])))
			return false;
	for (int a = 0; a < APP_ACTION_COUNT; a++) {
		XrActionCreateInfo ai = {.type = XR_TYPE_ACTION_CREATE_INFO,
		                         .actionType = actions[a].type,
		                         .countSubactionPaths = APP_HANDS,
		                         .subactionPaths = in->hands};
		snprintf(ai.actionName, sizeof(ai.actionName), "%s", actions[a].name);
		snprintf(ai.localizedActionName, sizeof(ai.localizedActionName), "%s", actions[a].name);
		if (!APP_XR(xrCreateAction(in->set, &ai, &in->actions[a])))
			return false;
	}
	return true;
}

static bool suggest_bindings(struct app_input *in, XrInstance instance)
{
	XrActionSuggestedBinding b[APP_ACTION_COUNT * APP_HANDS];
	uint32_t n = 0;
	for (int a = 0; a < APP_ACTION_COUNT; a++) {
		for (int h = 0; h < APP_HANDS; h++) {
			char path[XR_MAX_PATH_LENGTH];
			snprintf(path, sizeof(path), "%s/%s", hand_paths[h], actions[a].binding);
			b[n].action = in->actions[a];
			if (!APP_XR(xrStringToPath(instance, path, &b[n].binding)))
				return false;
			n++;
		}
	}
	XrInteractionProfileSuggestedBinding sb = {
		.type = XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING,
		.countSuggestedBindings = n,
		.suggestedBindings = b,
	};
	return APP_XR(xrStringToPath(instance, "/interaction_profiles/valve/index_controller",
	                             &sb.interactionProfile)) &&
	       APP_XR(xrSuggestInteractionProfileBindings(instance, &sb));
}

static bool create_spaces(struct app_input *in, XrSession session)
{
	static const enum app_action pose_actions[] = {APP_ACTION_GRIP, APP_ACTION_AIM};
	int s = 0;
	for (int p = 0; p < 2; p++) {
		for (int h = 0; h < APP_HANDS; h++, s++) {
			XrActionSpaceCreateInfo ci = {.type = XR_TYPE_ACTION_SPACE_CREATE_INFO,
			                              .action = in->actions[pose_actions[p]],
			                              .subactionPath = in->hands[h],
			                              .poseInActionSpace = {.orientation = {0, 0, 0, 1}}};
			if (!APP_XR(xrCreateActionSpace(session, &ci, &in->spaces[s])))
				return false;
		}
	}
	static const XrReferenceSpaceType refs[] = {XR_REFERENCE_SPACE_TYPE_VIEW,
	                                            XR_REFERENCE_SPACE_TYPE_STAGE};
	for (int r = 0; r < 2; r++, s++) {
		XrReferenceSpaceCreateInfo ci = {.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
		                                 .referenceSpaceType = refs[r],
		                                 .poseInReferenceSpace = {.orientation = {0, 0, 0, 1}}};
		if (!APP_XR(xrCreateReferenceSpace(session, &ci, &in->spaces[s])))
			return false;
	}
	return true;
}

bool app_input_create(struct app_input *in, XrInstance instance, XrSession session)
{
	XrSessionActionSetsAttachInfo ai = {.type = XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO,
	                                    .countActionSets = 1,
	                                    .actionSets = &in->set};
	return create_actions(in, instance) && suggest_bindings(in, instance) &&
	       APP_XR(xrAttachSessionActionSets(session, &ai)) && create_spaces(in, session);
}

bool app_input_destroy(struct app_input *in)
{
	bool ok = true;
	for (int s = 0; s < APP_LOCATED_SPACES; s++)
		if (in->spaces[s])
			ok = APP_XR(xrDestroySpace(in->spaces[s])) && ok;
	/* The set's actions go with it. */
	if (in->set)
		ok = APP_XR(xrDestroyActionSet(in->set)) && ok;
	*in = (struct app_input){0};
	return ok;
}

/* One xrGetActionState* call of the type of action @p a, for hand @p h. */
static bool get_state(struct app_input *in, XrSession session, int a, int h,
                      struct app_stats *st, uint64_t frame)
{
	XrActionStateGetInfo gi = {.type = XR_TYPE_ACTION_STATE_GET_INFO,
	                           .action = in->actions[a],
	                           .subactionPath = in->hands[h]};
	switch (actions[a].type) {
	case XR_ACTION_TYPE_BOOLEAN_INPUT: {
		XrActionStateBoolean s = {.type = XR_TYPE_ACTION_STATE_BOOLEAN};
		return APP_XR_TIMED(st, frame, APP_CALL_GET_ACTION_STATE_BOOLEAN,
		                    xrGetActionStateBoolean(session, &gi, &s));
	}
	case XR_ACTION_TYPE_FLOAT_INPUT: {
		XrActionStateFloat s = {.type = XR_TYPE_ACTION_STATE_FLOAT};
		return APP_XR_TIMED(st, frame, APP_CALL_GET_ACTION_STATE_FLOAT,
		                    xrGetActionStateFloat(session, &gi, &s));
	}
	case XR_ACTION_TYPE_VECTOR2F_INPUT: {
		XrActionStateVector2f s = {.type = XR_TYPE_ACTION_STATE_VECTOR2F};
		return APP_XR_TIMED(st, frame, APP_CALL_GET_ACTION_STATE_VECTOR2F,
		                    xrGetActionStateVector2f(session, &gi, &s));
	}
	default: {
		XrActionStatePose s = {.type = XR_TYPE_ACTION_STATE_POSE};
		return APP_XR_TIMED(st, frame, APP_CALL_GET_ACTION_STATE_POSE,
		                    xrGetActionStatePose(session, &gi, &s));
	}
	}
}

bool app_input_sync(struct app_input *in, XrSession session, struct app_stats *st, uint64_t frame)
{
	XrActiveActionSet active = {.actionSet = in->set};
	XrActionsSyncInfo si = {.type = XR_TYPE_ACTIONS_SYNC_INFO,
	                        .countActiveActionSets = 1,
	                        .activeActionSets = &active};
	/* XR_SESSION_NOT_FOCUSED before the session is focused: a success. */
	if (!APP_XR_TIMED(st, frame, APP_CALL_SYNC_ACTIONS, xrSyncActions(session, &si)))
		return false;
	for (int a = 0; a < APP_ACTION_COUNT; a++)
		for (int h = 0; h < APP_HANDS; h++)
			if (!get_state(in, session, a, h, st, frame))
				return false;
	return true;
}

bool app_input_locate(struct app_input *in, XrSpace base, XrTime time, struct app_stats *st,
                      uint64_t frame)
{
	for (int s = 0; s < APP_LOCATED_SPACES; s++) {
		XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
		if (!APP_XR_TIMED(st, frame, APP_CALL_LOCATE_SPACE,
		                  xrLocateSpace(in->spaces[s], base, time, &loc)))
			return false;
	}
	return true;
}
