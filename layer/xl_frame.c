/*
 * xrWaitFrame's hook: when the wait returns, its frame becomes the one the
 * next xrBeginFrame takes (xl_call.h: the frame ids of a pipelined app).
 * The generated wrapper counts the frame as the wait begins and records
 * the call; this only notes its return, on the idle path too, so that a
 * recording started later finds the frames right.
 */
#include "xl_call.h"
#include "xl_hooks.h"

XrResult xl_frame_wait(struct xl_instance *in, XrSession session,
                       const XrFrameWaitInfo *frameWaitInfo, XrFrameState *frameState)
{
	XrResult r = xl_next_xrWaitFrame(session, frameWaitInfo, frameState);
	xl_call_wait_returned(in);
	return r;
}
