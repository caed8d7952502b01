/*
 * tl_errors: the errors an application can get back, printed one per line
 * ("what = XrResult"), so that a run through the monitor can be compared
 * with a run without it (tests/layer/errors.sh): a bad handle to functions
 * of every kind (frame loop, spaces, swapchains, actions), a name no
 * function has, and an extension function that was not enabled, each
 * asked through the loader's xrGetInstanceProcAddr as an application does,
 * with recording on (XRLM_RECORD=1) after a few frames.
 */
#include "rtt_common.h"

#include <stdio.h>

static XrInstance instance;

static PFN_xrVoidFunction lookup(const char *name)
{
	PFN_xrVoidFunction f = NULL;
	XrResult r = xrGetInstanceProcAddr(instance, name, &f);
	printf("xrGetInstanceProcAddr(%s) = %d%s\n", name, r, f ? "" : ", NULL");
	return f;
}
#define FN(name) ((PFN_##name)lookup(#name))

/* Handles no runtime ever handed out. */
#define BAD(type) ((type)(uintptr_t)0x5254dead0000beefull)

static void bad_handles(void)
{
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	XrFrameBeginInfo bi = {.type = XR_TYPE_FRAME_BEGIN_INFO};
	XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
	XrSwapchainImageAcquireInfo ai = {.type = XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO};
	XrActionsSyncInfo si = {.type = XR_TYPE_ACTIONS_SYNC_INFO};
	XrEventDataBuffer ev = {.type = XR_TYPE_EVENT_DATA_BUFFER};
	uint32_t index;

	PFN_xrWaitFrame wait = FN(xrWaitFrame);
	PFN_xrBeginFrame begin = FN(xrBeginFrame);
	PFN_xrLocateSpace locate = FN(xrLocateSpace);
	PFN_xrAcquireSwapchainImage acquire = FN(xrAcquireSwapchainImage);
	PFN_xrSyncActions sync = FN(xrSyncActions);
	PFN_xrPollEvent poll = FN(xrPollEvent);
	if (!wait || !begin || !locate || !acquire || !sync || !poll)
		return;
	printf("xrWaitFrame(bad session) = %d\n", wait(BAD(XrSession), &wi, &fs));
	printf("xrBeginFrame(bad session) = %d\n", begin(BAD(XrSession), &bi));
	printf("xrLocateSpace(bad spaces) = %d\n", locate(BAD(XrSpace), BAD(XrSpace), 1, &loc));
	printf("xrAcquireSwapchainImage(bad swapchain) = %d\n",
	       acquire(BAD(XrSwapchain), &ai, &index));
	printf("xrSyncActions(bad session) = %d\n", sync(BAD(XrSession), &si));
	printf("xrPollEvent(bad instance) = %d\n", poll(BAD(XrInstance), &ev));
}

int main(void)
{
	struct rtt_xr xr;
	XrFrameState state;

	if (!rtt_create_headless(&xr) || !rtt_begin(&xr))
		return 1;
	instance = xr.instance;
	for (int i = 0; i < 3; i++)
		if (!rtt_frame(&xr, &state))
			return 1;
	lookup("xrNotAFunctionOfAnyVersion");
	lookup("xrGetVisibilityMaskKHR"); /* XR_KHR_visibility_mask: not enabled */
	/* What pre and post pass each other: no function of the application's. */
	lookup("xrlmPrivateAttachControl");
	lookup("xrlmPrivateDetachControl");
	bad_handles();
	return rtt_finish(&xr) ? 0 : 1;
}
