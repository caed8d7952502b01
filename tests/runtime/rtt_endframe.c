/*
 * xrEndFrame validation through the loader: a frame that was never begun,
 * display times xrWaitFrame never returned, blend modes and layers the
 * runtime must refuse. Every refused call is followed by a good one, so a
 * refusal cannot come from a broken session.
 */
#include "rtt_common.h"

#include <stdio.h>

struct frame {
	XrFrameState state;
	XrFrameEndInfo end;
};

/* Waits and begins a frame; @p f->end is a valid, empty end info for it. */
static bool start_frame(struct rtt_xr *xr, struct frame *f)
{
	f->state = (XrFrameState){.type = XR_TYPE_FRAME_STATE};
	f->end = (XrFrameEndInfo){.type = XR_TYPE_FRAME_END_INFO,
	                          .environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE};
	if (!rtt_expect("xrWaitFrame", xrWaitFrame(xr->session, NULL, &f->state), XR_SUCCESS) ||
	    !rtt_expect("xrBeginFrame", xrBeginFrame(xr->session, NULL), XR_SUCCESS))
		return false;
	f->end.displayTime = f->state.predictedDisplayTime;
	return true;
}

static bool end_ok(struct rtt_xr *xr, struct frame *f)
{
	return rtt_expect("xrEndFrame (valid)", xrEndFrame(xr->session, &f->end), XR_SUCCESS);
}

static bool test_call_order(struct rtt_xr *xr)
{
	struct frame f;
	XrFrameEndInfo fei = {.type = XR_TYPE_FRAME_END_INFO, .displayTime = 1,
	                      .environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE};
	return rtt_expect("xrEndFrame before any xrBeginFrame", xrEndFrame(xr->session, &fei),
	                  XR_ERROR_CALL_ORDER_INVALID) &&
	       rtt_expect("xrBeginFrame without xrWaitFrame", xrBeginFrame(xr->session, NULL),
	                  XR_ERROR_CALL_ORDER_INVALID) &&
	       start_frame(xr, &f) && end_ok(xr, &f) &&
	       rtt_expect("xrEndFrame twice", xrEndFrame(xr->session, &f.end),
	                  XR_ERROR_CALL_ORDER_INVALID);
}

static bool test_display_time(struct rtt_xr *xr)
{
	struct frame f;
	if (!start_frame(xr, &f))
		return false;
	XrTime good = f.end.displayTime;
	f.end.displayTime = good + 1;
	if (!rtt_expect("xrEndFrame with displayTime + 1 ns", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_TIME_INVALID))
		return false;
	f.end.displayTime = 0;
	if (!rtt_expect("xrEndFrame with displayTime 0", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_TIME_INVALID))
		return false;
	f.end.displayTime = good;
	return end_ok(xr, &f);
}

static bool test_blend_mode(struct rtt_xr *xr)
{
	struct frame f;
	if (!start_frame(xr, &f))
		return false;
	f.end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_ADDITIVE;
	if (!rtt_expect("xrEndFrame with an unsupported blend mode", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED))
		return false;
	f.end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
	return end_ok(xr, &f);
}

static bool test_layers(struct rtt_xr *xr)
{
	struct frame f;
	if (!start_frame(xr, &f))
		return false;
	/* A layer type the runtime does not know (no extension enabled). */
	XrCompositionLayerQuad unknown = {.type = XR_TYPE_COMPOSITION_LAYER_CUBE_KHR, .space = xr->local};
	/* A quad on a swapchain that does not exist. */
	XrCompositionLayerQuad quad = {.type = XR_TYPE_COMPOSITION_LAYER_QUAD, .space = xr->local,
	                               .pose = {.orientation = {0, 0, 0, 1}}, .size = {1, 1}};
	quad.subImage.swapchain = (XrSwapchain)(uintptr_t)0x5254000000ff0042ull;
	quad.subImage.imageRect.extent = (XrExtent2Di){16, 16};
	const XrCompositionLayerBaseHeader *layers[17];
	for (int i = 0; i < 17; i++)
		layers[i] = (const void *)&quad;

	f.end.layers = layers;
	f.end.layerCount = 17;
	if (!rtt_expect("xrEndFrame with 17 layers", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_LAYER_LIMIT_EXCEEDED))
		return false;
	f.end.layerCount = 1;
	if (!rtt_expect("xrEndFrame with a quad on a bad swapchain", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_HANDLE_INVALID))
		return false;
	layers[0] = (const void *)&unknown;
	if (!rtt_expect("xrEndFrame with an unknown layer type", xrEndFrame(xr->session, &f.end),
	                XR_ERROR_LAYER_INVALID))
		return false;
	f.end.layerCount = 0;
	return end_ok(xr, &f);
}

int main(void)
{
	struct rtt_xr xr;
	bool ok = rtt_create_headless(&xr) && rtt_begin(&xr) && test_call_order(&xr) &&
	          test_display_time(&xr) && test_blend_mode(&xr) && test_layers(&xr) &&
	          rtt_finish(&xr);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
