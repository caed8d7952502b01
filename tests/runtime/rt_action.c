/*
 * Action sets and actions. No input device exists, so every action is
 * inactive: the calls validate their arguments the way a runtime must and
 * report nothing bound.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <stdlib.h>
#include <string.h>

struct rt_action_set {
	XrActionSet handle;
	struct rt_instance *inst;
	bool attached;
};

struct rt_action {
	XrAction handle;
	struct rt_action_set *set;
	XrActionType type;
	uint32_t subaction_count;
	XrPath *subactions;
};

static const char *const g_top_level_paths[] = {
	"/user/hand/left", "/user/hand/right", "/user/head", "/user/gamepad", "/user/treadmill",
};

/* The string of a valid @p path; strings live as long as the instance. */
static const char *path_string(struct rt_instance *inst, XrPath path)
{
	if (!rt_path_valid(&inst->paths, path))
		return NULL;
	pthread_mutex_lock(&inst->paths.lock);
	const char *s = inst->paths.strings[path - 1];
	pthread_mutex_unlock(&inst->paths.lock);
	return s;
}

static XrResult check_top_level_path(struct rt_instance *inst, XrPath path)
{
	const char *s = path_string(inst, path);
	if (!s)
		return XR_ERROR_PATH_INVALID;
	for (size_t i = 0; i < sizeof(g_top_level_paths) / sizeof(g_top_level_paths[0]); i++)
		if (strcmp(s, g_top_level_paths[i]) == 0)
			return XR_SUCCESS;
	return XR_ERROR_PATH_UNSUPPORTED;
}

/* Action and action set names: the spec's well-formed path component. */
static XrResult check_names(const char *name, size_t name_max, const char *localized,
                            size_t localized_max)
{
	if (!rt_name_ok(name, name_max))
		return XR_ERROR_NAME_INVALID;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' ||
		      *c == '_' || *c == '.'))
			return XR_ERROR_PATH_FORMAT_INVALID;
	if (!rt_name_ok(localized, localized_max))
		return XR_ERROR_LOCALIZED_NAME_INVALID;
	return XR_SUCCESS;
}

RT_DEFINE_HANDLE_GET(static, set_get, XrActionSet, struct rt_action_set, RT_HANDLE_ACTION_SET)
RT_DEFINE_HANDLE_GET(static, action_get, XrAction, struct rt_action, RT_HANDLE_ACTION)

static void set_destroy(void *obj)
{
	free(obj);
}

static void action_destroy(void *obj)
{
	struct rt_action *a = obj;
	free(a->subactions);
	free(a);
}

XrResult XRAPI_CALL rt_xrCreateActionSet(XrInstance instance, const XrActionSetCreateInfo *createInfo,
                                         XrActionSet *actionSet)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_create(instance, createInfo, XR_TYPE_ACTION_SET_CREATE_INFO,
	                                    actionSet, &inst);
	if (r != XR_SUCCESS)
		return r;
	r = check_names(createInfo->actionSetName, XR_MAX_ACTION_SET_NAME_SIZE,
	                createInfo->localizedActionSetName, XR_MAX_LOCALIZED_ACTION_SET_NAME_SIZE);
	if (r != XR_SUCCESS)
		return r;
	struct rt_action_set *set = calloc(1, sizeof(*set));
	if (!set)
		return XR_ERROR_OUT_OF_MEMORY;
	set->inst = inst;
	return RT_HANDLE_PUBLISH(RT_HANDLE_ACTION_SET, set, RT_H(instance), set_destroy, actionSet);
}

XrResult XRAPI_CALL rt_xrDestroyActionSet(XrActionSet actionSet)
{
	return rt_handle_destroy_as(RT_H(actionSet), RT_HANDLE_ACTION_SET);
}

static bool action_type_valid(XrActionType type)
{
	return type == XR_ACTION_TYPE_BOOLEAN_INPUT || type == XR_ACTION_TYPE_FLOAT_INPUT ||
	       type == XR_ACTION_TYPE_VECTOR2F_INPUT || type == XR_ACTION_TYPE_POSE_INPUT ||
	       type == XR_ACTION_TYPE_VIBRATION_OUTPUT;
}

static XrResult check_action_create(struct rt_action_set *set, const XrActionCreateInfo *info)
{
	if (info->type != XR_TYPE_ACTION_CREATE_INFO || !action_type_valid(info->actionType) ||
	    (info->countSubactionPaths > 0 && !info->subactionPaths))
		return XR_ERROR_VALIDATION_FAILURE;
	if (set->attached)
		return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
	XrResult r = check_names(info->actionName, XR_MAX_ACTION_NAME_SIZE,
	                         info->localizedActionName, XR_MAX_LOCALIZED_ACTION_NAME_SIZE);
	for (uint32_t i = 0; r == XR_SUCCESS && i < info->countSubactionPaths; i++)
		r = check_top_level_path(set->inst, info->subactionPaths[i]);
	return r;
}

XrResult XRAPI_CALL rt_xrCreateAction(XrActionSet actionSet, const XrActionCreateInfo *createInfo,
                                      XrAction *action)
{
	struct rt_action_set *set;
	XrResult r = set_get(actionSet, &set);
	if (r != XR_SUCCESS)
		return r;
	if (!createInfo || !action)
		return XR_ERROR_VALIDATION_FAILURE;
	r = check_action_create(set, createInfo);
	if (r != XR_SUCCESS)
		return r;

	struct rt_action *a = calloc(1, sizeof(*a));
	uint32_t n = createInfo->countSubactionPaths;
	XrPath *subs = n ? malloc(n * sizeof(*subs)) : NULL;
	if (!a || (n && !subs)) {
		free(a);
		free(subs);
		return XR_ERROR_OUT_OF_MEMORY;
	}
	if (n)
		memcpy(subs, createInfo->subactionPaths, n * sizeof(*subs));
	*a = (struct rt_action){.set = set, .type = createInfo->actionType,
	                        .subaction_count = n, .subactions = subs};
	return RT_HANDLE_PUBLISH(RT_HANDLE_ACTION, a, RT_H(actionSet), action_destroy, action);
}

XrResult XRAPI_CALL rt_xrDestroyAction(XrAction action)
{
	return rt_handle_destroy_as(RT_H(action), RT_HANDLE_ACTION);
}

/* A binding's action: live, of this instance, its set not yet attached. */
static XrResult check_binding(struct rt_instance *inst, const XrActionSuggestedBinding *b)
{
	struct rt_action *a;
	XrResult r = action_get(b->action, &a);
	if (r != XR_SUCCESS)
		return r;
	if (a->set->inst != inst)
		return XR_ERROR_VALIDATION_FAILURE;
	if (a->set->attached)
		return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
	const char *s = path_string(inst, b->binding);
	if (!s)
		return XR_ERROR_PATH_INVALID;
	return strncmp(s, "/user/", 6) == 0 ? XR_SUCCESS : XR_ERROR_PATH_UNSUPPORTED;
}

XrResult XRAPI_CALL rt_xrSuggestInteractionProfileBindings(
	XrInstance instance, const XrInteractionProfileSuggestedBinding *suggestedBindings)
{
	const XrInteractionProfileSuggestedBinding *sb = suggestedBindings;
	struct rt_instance *inst;
	XrResult r = rt_instance_get_info(instance, sb, XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING,
	                                  &inst);
	if (r != XR_SUCCESS)
		return r;
	if (sb->countSuggestedBindings == 0 || !sb->suggestedBindings)
		return XR_ERROR_VALIDATION_FAILURE;
	const char *profile = path_string(inst, sb->interactionProfile);
	if (!profile)
		return XR_ERROR_PATH_INVALID;
	if (strncmp(profile, "/interaction_profiles/", 22) != 0)
		return XR_ERROR_PATH_UNSUPPORTED;
	for (uint32_t i = 0; r == XR_SUCCESS && i < sb->countSuggestedBindings; i++)
		r = check_binding(inst, &sb->suggestedBindings[i]);
	return r;
}

XrResult XRAPI_CALL rt_xrAttachSessionActionSets(XrSession session,
                                                 const XrSessionActionSetsAttachInfo *attachInfo)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, attachInfo, XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO,
	                                 &sess);
	if (r != XR_SUCCESS)
		return r;
	if (attachInfo->countActionSets == 0 || !attachInfo->actionSets)
		return XR_ERROR_VALIDATION_FAILURE;
	if (sess->actions_attached)
		return XR_ERROR_ACTIONSETS_ALREADY_ATTACHED;
	/* Check all first: a failed call must attach nothing. */
	for (uint32_t i = 0; i < attachInfo->countActionSets; i++) {
		struct rt_action_set *set;
		r = set_get(attachInfo->actionSets[i], &set);
		if (r != XR_SUCCESS)
			return r;
		if (set->inst != sess->inst)
			return XR_ERROR_VALIDATION_FAILURE;
	}
	for (uint32_t i = 0; i < attachInfo->countActionSets; i++) {
		struct rt_action_set *set;
		set_get(attachInfo->actionSets[i], &set);
		set->attached = true;
	}
	sess->actions_attached = true;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrGetCurrentInteractionProfile(XrSession session, XrPath topLevelUserPath,
                                                      XrInteractionProfileState *interactionProfile)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, interactionProfile, XR_TYPE_INTERACTION_PROFILE_STATE,
	                                 &sess);
	if (r != XR_SUCCESS)
		return r;
	if (!sess->actions_attached)
		return XR_ERROR_ACTIONSET_NOT_ATTACHED;
	r = check_top_level_path(sess->inst, topLevelUserPath);
	if (r != XR_SUCCESS)
		return r;
	interactionProfile->interactionProfile = XR_NULL_PATH;
	return XR_SUCCESS;
}

static XrResult session_focus_result(struct rt_session *sess)
{
	pthread_mutex_lock(&sess->lock);
	bool focused = sess->state == XR_SESSION_STATE_FOCUSED;
	pthread_mutex_unlock(&sess->lock);
	return focused ? XR_SUCCESS : XR_SESSION_NOT_FOCUSED;
}

XrResult XRAPI_CALL rt_xrSyncActions(XrSession session, const XrActionsSyncInfo *syncInfo)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, syncInfo, XR_TYPE_ACTIONS_SYNC_INFO, &sess);
	if (r != XR_SUCCESS)
		return r;
	if (syncInfo->countActiveActionSets > 0 && !syncInfo->activeActionSets)
		return XR_ERROR_VALIDATION_FAILURE;
	for (uint32_t i = 0; i < syncInfo->countActiveActionSets; i++) {
		const XrActiveActionSet *active = &syncInfo->activeActionSets[i];
		struct rt_action_set *set;
		r = set_get(active->actionSet, &set);
		if (r != XR_SUCCESS)
			return r;
		if (!set->attached || set->inst != sess->inst)
			return XR_ERROR_ACTIONSET_NOT_ATTACHED;
		if (active->subactionPath != XR_NULL_PATH)
			r = check_top_level_path(sess->inst, active->subactionPath);
		if (r != XR_SUCCESS)
			return r;
	}
	return session_focus_result(sess);
}

/*
 * The checks every per-action call shares: a live action of @p type whose
 * set is attached to @p sess, and a subaction path it was created with.
 */
static XrResult action_lookup(struct rt_session *sess, XrAction handle, XrPath subaction,
                              XrActionType type, struct rt_action **out)
{
	XrResult r = action_get(handle, out);
	if (r != XR_SUCCESS)
		return r;
	struct rt_action *a = *out;
	if (a->set->inst != sess->inst || !a->set->attached)
		return XR_ERROR_ACTIONSET_NOT_ATTACHED;
	if (a->type != type)
		return XR_ERROR_ACTION_TYPE_MISMATCH;
	if (subaction == XR_NULL_PATH)
		return XR_SUCCESS;
	if (!rt_path_valid(&sess->inst->paths, subaction))
		return XR_ERROR_PATH_INVALID;
	for (uint32_t i = 0; i < a->subaction_count; i++)
		if (a->subactions[i] == subaction)
			return XR_SUCCESS;
	return XR_ERROR_PATH_UNSUPPORTED;
}

XrResult rt_action_check_space(struct rt_session *sess, XrAction action, XrPath subaction)
{
	struct rt_action *a;
	XrResult r = action_get(action, &a);
	if (r != XR_SUCCESS)
		return r;
	if (a->set->inst != sess->inst)
		return XR_ERROR_VALIDATION_FAILURE;
	if (a->type != XR_ACTION_TYPE_POSE_INPUT)
		return XR_ERROR_ACTION_TYPE_MISMATCH;
	if (subaction == XR_NULL_PATH)
		return XR_SUCCESS;
	for (uint32_t i = 0; i < a->subaction_count; i++)
		if (a->subactions[i] == subaction)
			return XR_SUCCESS;
	return rt_path_valid(&sess->inst->paths, subaction) ? XR_ERROR_PATH_UNSUPPORTED
	                                                     : XR_ERROR_PATH_INVALID;
}

/*
 * xrGetActionState*: the checks, then an inactive state: every member after
 * type and next of the @p state_size bytes at @p state is zero (XR_FALSE,
 * 0.0, never changed, not active).
 */
static XrResult get_action_state(XrSession session, const XrActionStateGetInfo *info,
                                 XrActionType type, void *state, XrStructureType state_type,
                                 size_t state_size)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, info, XR_TYPE_ACTION_STATE_GET_INFO, &sess);
	if (r == XR_SUCCESS)
		r = rt_check_struct(state, state_type);
	if (r != XR_SUCCESS)
		return r;
	struct rt_action *a;
	r = action_lookup(sess, info->action, info->subactionPath, type, &a);
	if (r != XR_SUCCESS)
		return r;
	memset((char *)state + sizeof(XrBaseOutStructure), 0, state_size - sizeof(XrBaseOutStructure));
	return XR_SUCCESS;
}

/* Defines rt_xrGetActionState<Name> on get_action_state(). */
#define RT_GET_ACTION_STATE(Name, action_type, state_type)                                  \
	XrResult XRAPI_CALL rt_xrGetActionState##Name(XrSession session,                    \
	                                              const XrActionStateGetInfo *getInfo,   \
	                                              XrActionState##Name *state)            \
	{                                                                                   \
		return get_action_state(session, getInfo, action_type, state, state_type,   \
		                        sizeof(*state));                                    \
	}

RT_GET_ACTION_STATE(Boolean, XR_ACTION_TYPE_BOOLEAN_INPUT, XR_TYPE_ACTION_STATE_BOOLEAN)
RT_GET_ACTION_STATE(Float, XR_ACTION_TYPE_FLOAT_INPUT, XR_TYPE_ACTION_STATE_FLOAT)
RT_GET_ACTION_STATE(Vector2f, XR_ACTION_TYPE_VECTOR2F_INPUT, XR_TYPE_ACTION_STATE_VECTOR2F)
RT_GET_ACTION_STATE(Pose, XR_ACTION_TYPE_POSE_INPUT, XR_TYPE_ACTION_STATE_POSE)

#undef RT_GET_ACTION_STATE

/* The checks shared by xrApplyHapticFeedback and xrStopHapticFeedback. */
static XrResult haptic_check(XrSession session, const XrHapticActionInfo *info,
                             struct rt_session **sess)
{
	XrResult r = rt_session_get_info(session, info, XR_TYPE_HAPTIC_ACTION_INFO, sess);
	if (r != XR_SUCCESS)
		return r;
	struct rt_action *a;
	return action_lookup(*sess, info->action, info->subactionPath,
	                     XR_ACTION_TYPE_VIBRATION_OUTPUT, &a);
}

XrResult XRAPI_CALL rt_xrApplyHapticFeedback(XrSession session, const XrHapticActionInfo *hapticActionInfo,
                                             const XrHapticBaseHeader *hapticFeedback)
{
	struct rt_session *sess;
	XrResult r = haptic_check(session, hapticActionInfo, &sess);
	if (r != XR_SUCCESS)
		return r;
	r = rt_check_struct(hapticFeedback, XR_TYPE_HAPTIC_VIBRATION);
	return r == XR_SUCCESS ? session_focus_result(sess) : r;
}

XrResult XRAPI_CALL rt_xrStopHapticFeedback(XrSession session, const XrHapticActionInfo *hapticActionInfo)
{
	struct rt_session *sess;
	XrResult r = haptic_check(session, hapticActionInfo, &sess);
	if (r != XR_SUCCESS)
		return r;
	return session_focus_result(sess);
}

XrResult XRAPI_CALL rt_xrEnumerateBoundSourcesForAction(
	XrSession session, const XrBoundSourcesForActionEnumerateInfo *enumerateInfo,
	uint32_t sourceCapacityInput, uint32_t *sourceCountOutput, XrPath *sources)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, enumerateInfo,
	                                 XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO, &sess);
	if (r != XR_SUCCESS)
		return r;
	struct rt_action *a;
	r = action_get(enumerateInfo->action, &a);
	if (r != XR_SUCCESS)
		return r;
	if (!a->set->attached || a->set->inst != sess->inst)
		return XR_ERROR_ACTIONSET_NOT_ATTACHED;
	/* No device, so nothing is bound. */
	return rt_two_call(sourceCapacityInput, sourceCountOutput, sources, NULL, 0, sizeof(XrPath));
}

XrResult XRAPI_CALL rt_xrGetInputSourceLocalizedName(XrSession session,
                                                     const XrInputSourceLocalizedNameGetInfo *getInfo,
                                                     uint32_t bufferCapacityInput,
                                                     uint32_t *bufferCountOutput, char *buffer)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_info(session, getInfo, XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO,
	                                 &sess);
	if (r != XR_SUCCESS)
		return r;
	if (getInfo->whichComponents == 0)
		return XR_ERROR_VALIDATION_FAILURE;
	if (!sess->actions_attached)
		return XR_ERROR_ACTIONSET_NOT_ATTACHED;
	const char *s = path_string(sess->inst, getInfo->sourcePath);
	if (!s)
		return XR_ERROR_PATH_INVALID;
	/* We have no localisation: the path itself is the name. */
	return rt_two_call_string(bufferCapacityInput, bufferCountOutput, buffer, s);
}
