/*
 * Spaces and views. The "world" is the STAGE space: LOCAL sits at eye
 * height above its origin, the head (VIEW) sits still at LOCAL's origin,
 * and the eyes are half an IPD to either side. Action spaces are never
 * tracked, since no input device exists.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <math.h>
#include <stdlib.h>

#define RT_EYE_HEIGHT 1.6f
#define RT_IPD 0.063f
#define RT_HALF_FOV 0.7853982f /* 45 degrees */
#define RT_STAGE_SIZE 3.0f

struct rt_space {
	XrSpace handle;
	struct rt_session *sess;
	bool is_action;
	XrReferenceSpaceType type; /* reference spaces only */
	XrPosef pose;              /* in the reference space, or in the action */
};

static const XrPosef g_identity = {.orientation = {0, 0, 0, 1}};

/* Pose math: (x, y, z, w) quaternions, poses map child to parent. */

static XrQuaternionf quat_mul(XrQuaternionf a, XrQuaternionf b)
{
	return (XrQuaternionf){
		a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
		a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
	};
}

static XrVector3f quat_rotate(XrQuaternionf q, XrVector3f v)
{
	XrQuaternionf p = {v.x, v.y, v.z, 0};
	XrQuaternionf c = {-q.x, -q.y, -q.z, q.w};
	XrQuaternionf r = quat_mul(quat_mul(q, p), c);
	return (XrVector3f){r.x, r.y, r.z};
}

static XrPosef pose_mul(XrPosef a, XrPosef b)
{
	XrVector3f p = quat_rotate(a.orientation, b.position);
	return (XrPosef){
		.orientation = quat_mul(a.orientation, b.orientation),
		.position = {a.position.x + p.x, a.position.y + p.y, a.position.z + p.z},
	};
}

static XrPosef pose_inverse(XrPosef a)
{
	XrQuaternionf c = {-a.orientation.x, -a.orientation.y, -a.orientation.z, a.orientation.w};
	XrVector3f p = quat_rotate(c, a.position);
	return (XrPosef){.orientation = c, .position = {-p.x, -p.y, -p.z}};
}

bool rt_quat_is_unit(const XrQuaternionf *q)
{
	float n = q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w;
	return isfinite(n) && fabsf(n - 1.0f) < 0.01f;
}

/* Where a reference space's origin is in the world. */
static XrPosef reference_origin(XrReferenceSpaceType type)
{
	XrPosef p = g_identity;
	if (type != XR_REFERENCE_SPACE_TYPE_STAGE)
		p.position.y = RT_EYE_HEIGHT; /* LOCAL, and the head that sits at its origin */
	return p;
}

static bool type_supported(XrReferenceSpaceType type)
{
	return type == XR_REFERENCE_SPACE_TYPE_VIEW || type == XR_REFERENCE_SPACE_TYPE_LOCAL ||
	       type == XR_REFERENCE_SPACE_TYPE_STAGE;
}

RT_DEFINE_HANDLE_GET(static, space_get, XrSpace, struct rt_space, RT_HANDLE_SPACE)

XrResult rt_space_check(struct rt_session *sess, XrSpace handle)
{
	struct rt_space *space;
	XrResult r = space_get(handle, &space);
	if (r != XR_SUCCESS)
		return r;
	return space->sess == sess ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

static void space_destroy(void *obj)
{
	free(obj);
}

/* Allocates and registers a space of @p sess; fills @p out. */
static XrResult space_add(struct rt_session *sess, const struct rt_space *tmpl, XrSpace *out)
{
	struct rt_space *space = malloc(sizeof(*space));
	if (!space)
		return XR_ERROR_OUT_OF_MEMORY;
	*space = *tmpl;
	space->sess = sess;
	return RT_HANDLE_PUBLISH(RT_HANDLE_SPACE, space, RT_H(sess->handle), space_destroy, out);
}

XrResult XRAPI_CALL rt_xrCreateReferenceSpace(XrSession session,
                                              const XrReferenceSpaceCreateInfo *createInfo,
                                              XrSpace *space)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_create(session, createInfo, XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
	                                   space, &sess);
	if (r != XR_SUCCESS)
		return r;
	if (!type_supported(createInfo->referenceSpaceType))
		return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
	if (!rt_quat_is_unit(&createInfo->poseInReferenceSpace.orientation))
		return XR_ERROR_POSE_INVALID;
	struct rt_space tmpl = {
		.type = createInfo->referenceSpaceType,
		.pose = createInfo->poseInReferenceSpace,
	};
	return space_add(sess, &tmpl, space);
}

XrResult XRAPI_CALL rt_xrCreateActionSpace(XrSession session, const XrActionSpaceCreateInfo *createInfo,
                                           XrSpace *space)
{
	struct rt_session *sess;
	XrResult r = rt_session_get_create(session, createInfo, XR_TYPE_ACTION_SPACE_CREATE_INFO, space,
	                                   &sess);
	if (r != XR_SUCCESS)
		return r;
	r = rt_action_check_space(sess, createInfo->action, createInfo->subactionPath);
	if (r != XR_SUCCESS)
		return r;
	if (!rt_quat_is_unit(&createInfo->poseInActionSpace.orientation))
		return XR_ERROR_POSE_INVALID;
	struct rt_space tmpl = {.is_action = true, .pose = createInfo->poseInActionSpace};
	return space_add(sess, &tmpl, space);
}

XrResult XRAPI_CALL rt_xrDestroySpace(XrSpace space)
{
	return rt_handle_destroy_as(RT_H(space), RT_HANDLE_SPACE);
}

XrResult XRAPI_CALL rt_xrGetReferenceSpaceBoundsRect(XrSession session,
                                                     XrReferenceSpaceType referenceSpaceType,
                                                     XrExtent2Df *bounds)
{
	struct rt_session *sess;
	XrResult r = rt_session_get(session, &sess);
	if (r != XR_SUCCESS)
		return r;
	if (!bounds)
		return XR_ERROR_VALIDATION_FAILURE;
	if (!type_supported(referenceSpaceType))
		return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
	if (referenceSpaceType != XR_REFERENCE_SPACE_TYPE_STAGE) {
		*bounds = (XrExtent2Df){0, 0};
		return XR_SPACE_BOUNDS_UNAVAILABLE;
	}
	*bounds = (XrExtent2Df){RT_STAGE_SIZE, RT_STAGE_SIZE};
	return XR_SUCCESS;
}

/* A space's pose in the world; false for the untracked action spaces. */
static bool world_pose(const struct rt_space *space, XrPosef *out)
{
	if (space->is_action)
		return false;
	*out = pose_mul(reference_origin(space->type), space->pose);
	return true;
}

/* Both spaces live and of @p sess (the session of @p space if NULL). */
static XrResult space_pair(XrSpace space, XrSpace base, struct rt_space **s, struct rt_space **b)
{
	XrResult r = space_get(space, s);
	if (r == XR_SUCCESS)
		r = space_get(base, b);
	if (r != XR_SUCCESS)
		return r;
	return (*s)->sess == (*b)->sess ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

static void fill_velocity(const void *next, bool tracked)
{
	for (XrBaseOutStructure *n = (XrBaseOutStructure *)next; n; n = n->next) {
		if (n->type != XR_TYPE_SPACE_VELOCITY)
			continue;
		XrSpaceVelocity *v = (XrSpaceVelocity *)n;
		v->linearVelocity = (XrVector3f){0, 0, 0};
		v->angularVelocity = (XrVector3f){0, 0, 0};
		v->velocityFlags = tracked ? XR_SPACE_VELOCITY_LINEAR_VALID_BIT |
		                             XR_SPACE_VELOCITY_ANGULAR_VALID_BIT : 0;
	}
}

XrResult XRAPI_CALL rt_xrLocateSpace(XrSpace space, XrSpace baseSpace, XrTime time,
                                     XrSpaceLocation *location)
{
	struct rt_space *s, *b;
	XrResult r = space_pair(space, baseSpace, &s, &b);
	if (r != XR_SUCCESS)
		return r;
	if (!location || location->type != XR_TYPE_SPACE_LOCATION)
		return XR_ERROR_VALIDATION_FAILURE;
	if (time <= 0)
		return XR_ERROR_TIME_INVALID;
	XrPosef ws, wb;
	bool tracked = world_pose(s, &ws) && world_pose(b, &wb);
	location->pose = tracked ? pose_mul(pose_inverse(wb), ws) : g_identity;
	location->locationFlags = tracked ? XR_SPACE_LOCATION_ORIENTATION_VALID_BIT |
	                                    XR_SPACE_LOCATION_POSITION_VALID_BIT |
	                                    XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT |
	                                    XR_SPACE_LOCATION_POSITION_TRACKED_BIT : 0;
	fill_velocity(location->next, tracked);
	return XR_SUCCESS;
}

static XrResult check_locate_views(struct rt_session *sess, const XrViewLocateInfo *info,
                                   const XrViewState *state, struct rt_space **base)
{
	if (!info || info->type != XR_TYPE_VIEW_LOCATE_INFO || !state ||
	    state->type != XR_TYPE_VIEW_STATE)
		return XR_ERROR_VALIDATION_FAILURE;
	if (info->viewConfigurationType != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO)
		return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
	if (info->displayTime <= 0)
		return XR_ERROR_TIME_INVALID;
	XrResult r = space_get(info->space, base);
	if (r != XR_SUCCESS)
		return r;
	return (*base)->sess == sess ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

XrResult XRAPI_CALL rt_xrLocateViews(XrSession session, const XrViewLocateInfo *viewLocateInfo,
                                     XrViewState *viewState, uint32_t viewCapacityInput,
                                     uint32_t *viewCountOutput, XrView *views)
{
	struct rt_session *sess;
	struct rt_space *base;
	XrResult r = rt_session_get(session, &sess);
	if (r == XR_SUCCESS)
		r = check_locate_views(sess, viewLocateInfo, viewState, &base);
	if (r != XR_SUCCESS)
		return r;
	bool fill;
	r = rt_two_call_begin(viewCapacityInput, viewCountOutput, views, RT_VIEW_COUNT, &fill);
	if (r != XR_SUCCESS || !fill)
		return r;

	XrPosef wb;
	bool tracked = world_pose(base, &wb);
	viewState->viewStateFlags = tracked ? XR_VIEW_STATE_ORIENTATION_VALID_BIT |
	                                      XR_VIEW_STATE_POSITION_VALID_BIT |
	                                      XR_VIEW_STATE_ORIENTATION_TRACKED_BIT |
	                                      XR_VIEW_STATE_POSITION_TRACKED_BIT : 0;
	XrPosef head = reference_origin(XR_REFERENCE_SPACE_TYPE_VIEW);
	for (uint32_t i = 0; i < RT_VIEW_COUNT; i++) {
		if (views[i].type != XR_TYPE_VIEW)
			return XR_ERROR_VALIDATION_FAILURE;
		XrPosef eye = g_identity;
		eye.position.x = (i == 0 ? -0.5f : 0.5f) * RT_IPD;
		views[i].pose = tracked ? pose_mul(pose_inverse(wb), pose_mul(head, eye)) : g_identity;
		views[i].fov = (XrFovf){-RT_HALF_FOV, RT_HALF_FOV, RT_HALF_FOV, -RT_HALF_FOV};
	}
	return XR_SUCCESS;
}
