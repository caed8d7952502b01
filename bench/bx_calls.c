/*
 * Per-call cost of the wrapped functions: frames of a ~30-call mix at
 * 1000 Hz (the application sleeps to the next millisecond between frames,
 * outside the timed region), each frame's calls timed as one block with
 * one clock read before and after, so no per-call bracket adds its own
 * cost. The difference of two configurations' per-call times is what the
 * layers add to one call. The mix, per frame, in an engine's order:
 * xrPollEvent (until empty: one call once the session runs), xrWaitFrame,
 * xrBeginFrame, 24 xrLocateSpace, 2 xrLocateViews, xrEndFrame = 30 calls.
 */
#include "bx_bench.h"

#include "bx_session.h"
#include "bx_stats.h"
#include "bx_time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define LOCATE_SPACES 24
#define LOCATE_VIEWS 2
/* wait, begin, end, one xrPollEvent */
#define CALLS_PER_FRAME (LOCATE_SPACES + LOCATE_VIEWS + 4)
#define PERIOD_NS 1000000ull

struct mix {
	struct bx_session *s;
	XrSpace local, view;
};

static bool create_space(XrSession session, XrReferenceSpaceType type, XrSpace *out)
{
	XrReferenceSpaceCreateInfo ci = {
		.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO,
		.referenceSpaceType = type,
		.poseInReferenceSpace = {.orientation = {0, 0, 0, 1}},
	};
	XrResult r = xrCreateReferenceSpace(session, &ci, out);
	if (XR_FAILED(r))
		fprintf(stderr, "xrlm-bench: xrCreateReferenceSpace failed: %d\n", (int)r);
	return XR_SUCCEEDED(r);
}

/* The mix's calls between xrBeginFrame and xrEndFrame; false on a failure. */
static bool locate(const struct mix *m, XrTime time)
{
	XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
	XrView views[2] = {{.type = XR_TYPE_VIEW}, {.type = XR_TYPE_VIEW}};
	XrViewState vs = {.type = XR_TYPE_VIEW_STATE};
	XrViewLocateInfo li = {XR_TYPE_VIEW_LOCATE_INFO, NULL,
	                       XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, time, m->local};
	uint32_t n;
	bool ok = true;

	for (int i = 0; i < LOCATE_SPACES; i++)
		ok &= XR_SUCCEEDED(xrLocateSpace(m->view, m->local, time, &loc));
	for (int i = 0; i < LOCATE_VIEWS; i++)
		ok &= XR_SUCCEEDED(xrLocateViews(m->s->session, &li, &vs, 2, &n, views));
	return ok;
}

/* One frame of the mix; its calls' total time into *@p ns. */
static bool frame(const struct mix *m, double *ns)
{
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	XrFrameBeginInfo bi = {.type = XR_TYPE_FRAME_BEGIN_INFO};
	XrFrameEndInfo ei = {
		.type = XR_TYPE_FRAME_END_INFO,
		.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE,
	};
	uint64_t t0 = bx_now_ns();
	bool ok = bx_session_poll(m->s) && XR_SUCCEEDED(xrWaitFrame(m->s->session, &wi, &fs)) &&
	          XR_SUCCEEDED(xrBeginFrame(m->s->session, &bi)) && locate(m, fs.predictedDisplayTime);
	ei.displayTime = fs.predictedDisplayTime;
	ok = ok && XR_SUCCEEDED(xrEndFrame(m->s->session, &ei));
	*ns = (double)(bx_now_ns() - t0);
	if (!ok)
		fprintf(stderr, "xrlm-bench: a call of the mix failed\n");
	return ok;
}

/* Sleeps to the next multiple of the period after @p start. */
static void pace(uint64_t *next)
{
	*next += PERIOD_NS;
	struct timespec ts = {(time_t)(*next / 1000000000u), (long)(*next % 1000000000u)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

bool bx_run_calls(const struct bx_opts *o)
{
	double *per_call = calloc(o->frames ? o->frames : 1, sizeof(*per_call)), ns;
	struct bx_session s = {0};
	struct mix m = {&s, XR_NULL_HANDLE, XR_NULL_HANDLE};
	bool ok = per_call && bx_session_create(&s) &&
	          create_space(s.session, XR_REFERENCE_SPACE_TYPE_LOCAL, &m.local) &&
	          create_space(s.session, XR_REFERENCE_SPACE_TYPE_VIEW, &m.view);
	uint64_t next = bx_now_ns();

	for (uint64_t i = 0; ok && i < o->warmup + o->frames; i++) {
		ok = frame(&m, &ns);
		if (i >= o->warmup)
			per_call[i - o->warmup] = ns / CALLS_PER_FRAME;
		pace(&next);
	}
	if (m.view)
		xrDestroySpace(m.view);
	if (m.local)
		xrDestroySpace(m.local);
	bx_session_destroy(&s);
	if (ok) {
		printf("calls_per_frame n=%d\n", CALLS_PER_FRAME);
		bx_print_series("call_ns", per_call, o->frames);
	}
	free(per_call);
	return ok;
}
