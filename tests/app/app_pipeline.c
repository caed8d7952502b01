/*
 * --pipeline: the frame loop split over two threads, as Unreal, Unity and
 * Godot run it. The game thread (the caller) polls events and runs
 * { xrWaitFrame; input, views, spaces } for frame N+1 while the render
 * thread runs { xrBeginFrame; render; xrEndFrame } for frame N. A frame
 * goes from one to the other through a one-slot handoff: the game thread
 * enters xrWaitFrame(N+1) as soon as it has handed frame N over, before
 * the render thread has begun it, let alone ended it; the runtime holds
 * that wait until xrBeginFrame(N), as the spec says.
 *
 * The frame functions stay externally synchronised the way the spec asks
 * of pipelined apps: each of xrWaitFrame, xrBeginFrame and xrEndFrame is
 * called from one thread only, and xrBeginFrame(N) only after
 * xrWaitFrame(N) returned (the handoff orders them).
 */
#include "app.h"

#include "app_check.h"

#include <time.h>

struct app_pipe {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct app_frame_plan slot;
	bool full;         /* slot holds a frame the render thread has not taken */
	uint64_t handed;   /* frames the game thread handed over */
	uint64_t finished; /* frames the render thread is done with */
	bool done;         /* no more frames: the render thread returns */
	bool failed;       /* the render thread failed (and returned) */
	struct app *app;
	pthread_t render;
};

/* The render thread: the next frame into @p plan; false once done. */
static bool take(struct app_pipe *p, struct app_frame_plan *plan)
{
	pthread_mutex_lock(&p->lock);
	while (!p->full && !p->done)
		pthread_cond_wait(&p->cond, &p->lock);
	bool got = p->full;
	if (got) {
		*plan = p->slot;
		p->full = false;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return got;
}

static void finish(struct app_pipe *p, bool ok)
{
	pthread_mutex_lock(&p->lock);
	p->finished++;
	p->failed = p->failed || !ok;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static void *render_main(void *arg)
{
	struct app_pipe *p = arg;
	struct app_frame_plan plan;
	while (take(p, &plan)) {
		bool ok = app_frame_render(p->app, &plan);
		finish(p, ok);
		if (!ok)
			break;
	}
	return NULL;
}

/* The game thread: hands @p plan over once the slot is free. False if the render thread failed. */
static bool hand(struct app_pipe *p, const struct app_frame_plan *plan)
{
	pthread_mutex_lock(&p->lock);
	while (p->full && !p->failed)
		pthread_cond_wait(&p->cond, &p->lock);
	bool ok = !p->failed;
	if (ok) {
		p->slot = *plan;
		p->full = true;
		p->handed++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return ok;
}

bool app_pipeline_drain(struct app_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->finished < p->handed && !p->failed)
		pthread_cond_wait(&p->cond, &p->lock);
	bool ok = !p->failed;
	pthread_mutex_unlock(&p->lock);
	return ok;
}

/*
 * After --frames frames handed: once the render thread has ended them all,
 * xrRequestExitSession (so that exactly --frames frames are ended).
 */
static bool request_exit(struct app *app)
{
	if (app->exit_requested)
		return true;
	if (!app_pipeline_drain(app->pipe))
		return false;
	app->exit_requested = true;
	return APP_XR(xrRequestExitSession(app->session));
}

/* One iteration of the game thread: events, then a frame's game half. */
static bool game_iterate(struct app *app, uint64_t *frame)
{
	if (!app_poll_events(app))
		return false;
	if (app->quit)
		return true;
	if (app->running && *frame >= app->opts.frames && !request_exit(app))
		return false;
	if (!app->running || *frame >= app->opts.frames) {
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
		return true;
	}
	struct app_frame_plan plan;
	if (!app_frame_game(app, *frame, &plan) || !hand(app->pipe, &plan))
		return false;
	(*frame)++;
	return true;
}

bool app_pipeline_run(struct app *app)
{
	struct app_pipe pipe = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
		.app = app,
	};
	if (pthread_create(&pipe.render, NULL, render_main, &pipe)) {
		app_error("pthread_create failed");
		return false;
	}
	app->pipe = &pipe;
	uint64_t frame = 0;
	bool ok = true;
	while (ok && !app->quit)
		ok = game_iterate(app, &frame);

	pthread_mutex_lock(&pipe.lock);
	pipe.done = true;
	pthread_cond_broadcast(&pipe.cond);
	pthread_mutex_unlock(&pipe.lock);
	pthread_join(pipe.render, NULL);
	app->pipe = NULL;
	pthread_cond_destroy(&pipe.cond);
	pthread_mutex_destroy(&pipe.lock);
	if (!ok || pipe.failed)
		app->failed = true;
	return !app->failed;
}
