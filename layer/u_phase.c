/*
 * Function names to frame phases; see u_phase.h.
 */
#include "u_phase.h"

#include <string.h>
#include <strings.h>

static const char *const names[U_PHASE_COUNT] = {
	[U_PHASE_WAIT] = "wait",
	[U_PHASE_BEGIN] = "begin",
	[U_PHASE_END] = "end",
	[U_PHASE_LOCATE_VIEWS] = "locate_views",
	[U_PHASE_SYNC_ACTIONS] = "sync_actions",
	[U_PHASE_SWAPCHAIN] = "swapchain",
	[U_PHASE_OTHER] = "other",
};

static const struct {
	const char *fn;
	enum u_phase phase;
} listed[] = {
	{"xrWaitFrame", U_PHASE_WAIT},
	{"xrBeginFrame", U_PHASE_BEGIN},
	{"xrEndFrame", U_PHASE_END},
	{"xrLocateViews", U_PHASE_LOCATE_VIEWS},
	{"xrSyncActions", U_PHASE_SYNC_ACTIONS},
	{"xrAcquireSwapchainImage", U_PHASE_SWAPCHAIN},
	{"xrWaitSwapchainImage", U_PHASE_SWAPCHAIN},
	{"xrReleaseSwapchainImage", U_PHASE_SWAPCHAIN},
};

/* xrGetActionStateBoolean, ...Float, ...Vector2f, ...Pose, and any later one. */
#define ACTION_STATE_PREFIX "xrGetActionState"

enum u_phase u_phase_of(const char *fn)
{
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		if (strcmp(fn, listed[i].fn) == 0)
			return listed[i].phase;
	if (strncmp(fn, ACTION_STATE_PREFIX, strlen(ACTION_STATE_PREFIX)) == 0)
		return U_PHASE_SYNC_ACTIONS;
	return U_PHASE_OTHER;
}

const char *u_phase_name(enum u_phase phase)
{
	return phase < U_PHASE_COUNT ? names[phase] : "other";
}

bool u_phase_parse(const char *name, enum u_phase *out)
{
	for (int p = 0; p < U_PHASE_COUNT; p++) {
		if (strcasecmp(name, names[p]) == 0) {
			*out = (enum u_phase)p;
			return true;
		}
	}
	return false;
}
