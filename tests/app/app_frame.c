/*
 * One frame of the test app, with the measured xrEndFrame in the middle:
 * CPU bracket = two CLOCK_MONOTONIC reads right around the call; GPU
 * bracket = timestamp A submitted just before the CPU bracket, B just after.
 * With --calls full the frame also reads input (before xrWaitFrame, as
 * engines poll their actions) and locates hands, head and stage (after
 * xrBeginFrame, at the predicted display time), and locates the views
 * even when it does not render. With EGL the GL state the app can see is
 * saved before and compared after xrEndFrame, outside the CPU bracket.
 *
 * With --pipeline the frame is split as engines split it: the game thread's
 * half (app_frame_game: wait, input, views, spaces) and the render thread's
 * (app_frame_render: begin, render, end), see app_pipeline.c.
 */
#include "app.h"

#include "app_check.h"
#include "app_load.h"

static bool locate_views(struct app *app, uint64_t frame, XrTime time, XrView views[2])
{
	XrViewLocateInfo li = {
		.type = XR_TYPE_VIEW_LOCATE_INFO,
		.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
		.displayTime = time,
		.space = app->space,
	};
	XrViewState state = {.type = XR_TYPE_VIEW_STATE};
	uint32_t n = 0;
	views[0] = (XrView){.type = XR_TYPE_VIEW};
	views[1] = (XrView){.type = XR_TYPE_VIEW};
	if (!APP_XR_TIMED(&app->stats, frame, APP_CALL_LOCATE_VIEWS,
	                  xrLocateViews(app->session, &li, &state, 2, &n, views)))
		return false;
	if (n != 2) {
		app_error("xrLocateViews returned %u views, not 2", n);
		return false;
	}
	return true;
}

/* Renders both eyes (located in @p views) into the swapchain and fills the projection views. */
static bool render(struct app *app, const XrView views[2], XrCompositionLayerProjectionView pv[2])
{
	struct app_swapchain *sc = &app->swapchain;
	uint32_t index;
	if (!app_swapchain_acquire(sc, &app->stats, app->frames_done, &index))
		return false;
	bool drawn = app->has_gl ? app_egl_render(&app->egl, sc->gl_images[index].image, sc->layers,
	                                          app->frames_done)
	                         : app_gpu_render(&app->gpu, sc->images[index].image, sc->layers,
	                                          app->frames_done);
	if (!drawn || !app_swapchain_release(sc, &app->stats, app->frames_done))
		return false;
	for (uint32_t eye = 0; eye < 2; eye++) {
		pv[eye] = (XrCompositionLayerProjectionView){
			.type = XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW,
			.pose = views[eye].pose,
			.fov = views[eye].fov,
			.subImage = {.swapchain = sc->handle,
			             .imageRect = {{0, 0}, {(int32_t)sc->width, (int32_t)sc->height}},
			             .imageArrayIndex = eye},
		};
	}
	return true;
}

static bool end_frame(struct app *app, const XrFrameEndInfo *info)
{
	/* The app's own load goes before timestamp A: the bracket measures
	 * what xrEndFrame adds, never the app's work. */
	if (!app_load_submit(app))
		return false;
	if (app->has_vk && !app_gpu_mark_before(&app->gpu))
		return false;
	uint64_t every = app->opts.gl_uncurrent_every;
	bool uncurrent = every && (app->frames_done + 1) % every == 0;
	struct app_gl_state gl_state;
	if (app->has_gl && !app_egl_before_end_frame(&app->egl, uncurrent, &gl_state))
		return false;
	uint64_t entry = app_now_ns();
	XrResult r = xrEndFrame(app->session, info);
	uint64_t exit = app_now_ns();
	if (!app_xr_ok(r, "xrEndFrame"))
		return false;
	if (app->has_gl && !app_egl_after_end_frame(&app->egl, uncurrent, &gl_state))
		return false;
	if (app->has_vk && !app_gpu_mark_after(&app->gpu))
		return false;
	app_stats_cpu(&app->stats, app->frames_done, entry, exit);
	if (app->frame_log && app->frame_log_len < app->opts.frames)
		app->frame_log[app->frame_log_len++] = (struct app_frame_time){
			.display_time = info->displayTime,
			.end_entry_ns = entry,
			.end_exit_ns = exit,
		};
	app->frames_done++;
	return true;
}

/*
 * The frame's composition: renders when @p rendering (both eyes, located in
 * @p views) and ends the frame at @p fs's display time.
 */
static bool submit(struct app *app, const XrFrameState *fs, bool rendering, const XrView views[2])
{
	XrCompositionLayerProjectionView pv[2];
	XrCompositionLayerProjection proj = {
		.type = XR_TYPE_COMPOSITION_LAYER_PROJECTION,
		.space = app->space,
		.viewCount = 2,
		.views = pv,
	};
	const XrCompositionLayerBaseHeader *layers[1] = {(XrCompositionLayerBaseHeader *)&proj};
	XrFrameEndInfo ei = {
		.type = XR_TYPE_FRAME_END_INFO,
		.displayTime = fs->predictedDisplayTime,
		.environmentBlendMode = app->blend_mode,
		.layers = layers,
	};
	if (rendering) {
		if (!render(app, views, pv))
			return false;
		ei.layerCount = 1;
	}
	return end_frame(app, &ei);
}

/*
 * --wait-ahead: frame @p next's xrWaitFrame, on this thread between the
 * open frame's xrBeginFrame and its xrEndFrame (the runtime returns it once
 * that xrBeginFrame began); the next app_frame() begins it.
 */
static bool wait_ahead(struct app *app, uint64_t next)
{
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	app->ahead_fs = (XrFrameState){.type = XR_TYPE_FRAME_STATE};
	if (!APP_XR_TIMED(&app->stats, next, APP_CALL_WAIT_FRAME,
	                  xrWaitFrame(app->session, &wi, &app->ahead_fs)))
		return false;
	app->ahead = true;
	return true;
}

bool app_frame(struct app *app)
{
	app_stats_frame_start(&app->stats, app->frames_done);
	/* Waiting for a free GPU slot happens here, outside every bracket. */
	if (app->has_vk && !app_gpu_begin_frame(&app->gpu, app->frames_done, &app->stats))
		return false;
	struct app_stats *st = &app->stats;
	uint64_t frame = app->frames_done;
	bool full = app->opts.calls == APP_CALLS_FULL;
	if (full && !app_input_sync(&app->input, app->session, st, frame))
		return false;
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	XrFrameBeginInfo bi = {.type = XR_TYPE_FRAME_BEGIN_INFO};
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	if (app->ahead)
		fs = app->ahead_fs; /* waited for while the last frame was open */
	else if (!APP_XR_TIMED(st, frame, APP_CALL_WAIT_FRAME, xrWaitFrame(app->session, &wi, &fs)))
		return false;
	app->ahead = false;
	if (!APP_XR_TIMED(st, frame, APP_CALL_BEGIN_FRAME, xrBeginFrame(app->session, &bi)))
		return false;
	if (full && !app_input_locate(&app->input, app->space, fs.predictedDisplayTime, st, frame))
		return false;

	bool rendering = (app->has_vk || app->has_gl) && fs.shouldRender;
	XrView views[2];
	if ((full || rendering) && !locate_views(app, frame, fs.predictedDisplayTime, views))
		return false;
	if (app->opts.wait_ahead && frame + 1 < app->opts.frames && !wait_ahead(app, frame + 1))
		return false;
	return submit(app, &fs, rendering, views);
}

bool app_frame_game(struct app *app, uint64_t frame, struct app_frame_plan *plan)
{
	struct app_stats *st = &app->stats;
	bool full = app->opts.calls == APP_CALLS_FULL;
	XrFrameWaitInfo wi = {.type = XR_TYPE_FRAME_WAIT_INFO};
	plan->frame = frame;
	plan->fs = (XrFrameState){.type = XR_TYPE_FRAME_STATE};
	if (!APP_XR_TIMED(st, frame, APP_CALL_WAIT_FRAME, xrWaitFrame(app->session, &wi, &plan->fs)))
		return false;
	/* The game's view of frame N+1 while frame N may still be rendering. */
	if (full && !app_input_sync(&app->input, app->session, st, frame))
		return false;
	XrTime time = plan->fs.predictedDisplayTime;
	plan->rendering = (app->has_vk || app->has_gl) && plan->fs.shouldRender;
	if ((full || plan->rendering) && !locate_views(app, frame, time, plan->views))
		return false;
	return !full || app_input_locate(&app->input, app->space, time, st, frame);
}

bool app_frame_render(struct app *app, const struct app_frame_plan *plan)
{
	XrFrameBeginInfo bi = {.type = XR_TYPE_FRAME_BEGIN_INFO};
	/* Begun first: the game thread's next xrWaitFrame is blocked until then. */
	if (!APP_XR_TIMED(&app->stats, plan->frame, APP_CALL_BEGIN_FRAME,
	                  xrBeginFrame(app->session, &bi)))
		return false;
	app_stats_frame_start(&app->stats, app->frames_done);
	if (app->has_vk && !app_gpu_begin_frame(&app->gpu, app->frames_done, &app->stats))
		return false;
	return submit(app, &plan->fs, plan->rendering, plan->views);
}
