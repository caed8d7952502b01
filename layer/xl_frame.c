/*
 * xrWaitFrame's hook: when the wait returns, its frame becomes the one the
 * next xrBeginFrame takes (xl_call.h: the frame ids of a pipelined app).
 * The generated wrapper counts the frame as the wait begins and records
 * the call; this only notes its return, on the idle path too, so that a
 * recording started later finds the frames right. A wait that failed
 * (a session lost) may return before the frame before it began: the
 * handshake does not hold for it, and its frame is not taken.
 */
#include "xl_call.h"
#include "xl_hooks.h"

_Atomic uint32_t xl_frame_epochs;

XrResult xl_frame_wait(struct xl_instance *in, XrSession session,
                       const XrFrameWaitInfo *frameWaitInfo, XrFrameState *frameState)
{
	XrResult r = xl_next_xrWaitFrame(session, frameWaitInfo, frameState);
	if (XR_SUCCEEDED(r))
		xl_call_wait_returned(in);
	return r;
}
