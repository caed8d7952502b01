/*
 * The frame phases a call belongs to (README, "Functions and phases"): one
 * mapping from OpenXR function names to phases, for the layers (which
 * select functions by phase, XRLM_FUNCTIONS) and for xrlm (which sums the
 * target's time per phase).
 *
 *   wait          xrWaitFrame
 *   begin         xrBeginFrame
 *   end           xrEndFrame
 *   locate_views  xrLocateViews
 *   sync_actions  xrSyncActions, xrGetActionState* (Boolean, Float, Vector2f, Pose)
 *   swapchain     xrAcquireSwapchainImage, xrWaitSwapchainImage, xrReleaseSwapchainImage
 *   other         every other function
 *
 * The frame-loop functions (XRLM_FUNCTIONS=frame) are those of every phase
 * but other.
 */
#ifndef XRLM_U_PHASE_H
#define XRLM_U_PHASE_H

#include <stdbool.h>

enum u_phase {
	U_PHASE_WAIT,
	U_PHASE_BEGIN,
	U_PHASE_END,
	U_PHASE_LOCATE_VIEWS,
	U_PHASE_SYNC_ACTIONS,
	U_PHASE_SWAPCHAIN,
	U_PHASE_OTHER,
	U_PHASE_COUNT
};

/* The phase of function @p fn (an OpenXR function name): U_PHASE_OTHER for any unlisted name. */
enum u_phase u_phase_of(const char *fn);

/* "wait", "begin", ... "other": the phase's name in files and settings. */
const char *u_phase_name(enum u_phase phase);

/* The phase named @p name (case-insensitive); false when it names none. */
bool u_phase_parse(const char *name, enum u_phase *out);

#endif /* XRLM_U_PHASE_H */
