/*
 * The event loop: xrPollEvent drives the session state machine (begin on
 * READY, end on STOPPING, quit on EXITING); frames run while the session
 * runs; after --frames frames the app asks to exit.
 *
 * With --threads 2 the iterations (events + one frame) alternate between
 * two threads. OpenXR wants the frame functions externally synchronised:
 * a thread runs an iteration only while it holds the turn, and the turn is
 * handed over (mutex + condvar) between iterations, outside every bracket.
 * With --threads new each iteration runs on a thread of its own, started
 * once the previous one has been joined (as a host that runs its frames or
 * sessions on short-lived threads): hundreds of threads that call OpenXR,
 * one at a time. --pipeline is app_pipeline.c's.
 */
#include "app.h"

#include "app_check.h"
#include "tc_xr.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static bool handle_state(struct app *app, XrSessionState state)
{
	app->state = state;
	switch (state) {
	case XR_SESSION_STATE_READY: {
		XrSessionBeginInfo bi = {
			.type = XR_TYPE_SESSION_BEGIN_INFO,
			.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
		};
		app->running = APP_XR(xrBeginSession(app->session, &bi));
		return app->running;
	}
	case XR_SESSION_STATE_STOPPING:
		app->running = false;
		/* No frame of the render thread may be in flight across it. */
		if (app->pipe && !app_pipeline_drain(app->pipe))
			return false;
		return APP_XR(xrEndSession(app->session));
	case XR_SESSION_STATE_EXITING:
		app->quit = true;
		return true;
	case XR_SESSION_STATE_LOSS_PENDING:
		app_error("session loss pending");
		return false;
	default:
		return true;
	}
}

bool app_poll_events(struct app *app)
{
	XrSessionState state;
	XrResult r;
	while ((r = tc_xr_next_state(app->instance, &state)) == XR_SUCCESS)
		if (!handle_state(app, state))
			return false;
	if (r == XR_EVENT_UNAVAILABLE)
		return true;
	if (r == XR_ERROR_INSTANCE_LOST)
		app_error("instance loss pending");
	else
		app_xr_ok(r, "xrPollEvent");
	return false;
}

/* How long the app waits for its forked child to exit: a hang detector. */
#define FORK_WAIT_STEPS 3000
#define FORK_WAIT_STEP_NS 10000000

/*
 * The forked child's work: with --fork-destroy, destroy the session and
 * the instance it inherited (as a child that tidies up what it got might),
 * then exit through exit(): its atexit handlers and library destructors
 * run (the monitor's among them), as they do in a real application's
 * helper process. Status 1 if a destroy failed.
 */
static _Noreturn void child_main(struct app *app)
{
	bool ok = true;
	if (app->opts.fork_destroy)
		ok = XR_SUCCEEDED(xrDestroySession(app->session)) &&
		     XR_SUCCEEDED(xrDestroyInstance(app->instance));
	exit(ok ? 0 : 1);
}

/*
 * Forks a child (child_main) and waits up to 30 s for it: false if it hung
 * (then killed) or failed. Once it has exited 0, says so on stdout
 * ("forked child PID exited").
 */
static bool fork_child(struct app *app)
{
	/* Our own buffered output, not the child's to write a second time;
	 * only ours: fflush(NULL) would also empty the stdio buffers of the
	 * libraries loaded, which a real application need not do. */
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		app_error("fork: %s", strerror(errno));
		return false;
	}
	if (pid == 0)
		child_main(app);
	for (int i = 0; i < FORK_WAIT_STEPS; i++) {
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				printf("forked child %d exited\n", (int)pid);
				fflush(stdout);
				return true;
			}
			app_error("the forked child %d ended with status 0x%x", (int)pid, status);
			return false;
		}
		nanosleep(&(struct timespec){.tv_nsec = FORK_WAIT_STEP_NS}, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	app_error("the forked child %d did not exit within 30 s (hung): killed", (int)pid);
	return false;
}

/* Events, then one frame if the session runs (else a short nap). */
static bool iterate(struct app *app)
{
	if (!app_poll_events(app))
		return false;
	if (app->quit)
		return true;
	if (!app->running) {
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
		return true;
	}
	if (!app_frame(app))
		return false;
	/* Between frames, outside every bracket: the monitor applies the
	 * toggle at the next xrEndFrame, so sessions are exactly N frames. */
	if (app->opts.toggle_every && app->frames_done % app->opts.toggle_every == 0)
		raise(SIGUSR2);
	if (app->opts.fork_at && app->frames_done == app->opts.fork_at && !fork_child(app))
		return false;
	if (app->frames_done >= app->opts.frames && !app->exit_requested) {
		app->exit_requested = true;
		return APP_XR(xrRequestExitSession(app->session));
	}
	return true;
}

/* Whose turn it is; guarded by lock. */
struct app_turn {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint32_t next;
	uint32_t threads;
	bool done;
	struct app *app;
};

struct app_worker {
	struct app_turn *turn;
	uint32_t id;
	pthread_t thread;
};

static void *worker_main(void *arg)
{
	struct app_worker *w = arg;
	struct app_turn *t = w->turn;
	for (;;) {
		pthread_mutex_lock(&t->lock);
		while (t->next != w->id && !t->done)
			pthread_cond_wait(&t->cond, &t->lock);
		bool done = t->done;
		pthread_mutex_unlock(&t->lock);
		if (done)
			return NULL;

		/* Only the turn's holder touches the app (and OpenXR) here. */
		bool ok = iterate(t->app);
		if (!ok)
			t->app->failed = true;

		pthread_mutex_lock(&t->lock);
		t->done = !ok || t->app->quit;
		t->next = (w->id + 1) % t->threads;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
	}
}

static void *new_thread_main(void *arg)
{
	struct app *app = arg;
	if (!iterate(app))
		app->failed = true;
	return NULL;
}

/* --threads new: each iteration on a new thread; the join orders the app's state. */
static bool run_new_threads(struct app *app)
{
	while (!app->failed && !app->quit) {
		pthread_t thread;
		if (pthread_create(&thread, NULL, new_thread_main, app)) {
			app_error("pthread_create failed");
			return false;
		}
		pthread_join(thread, NULL);
	}
	return !app->failed;
}

bool app_loop_run(struct app *app)
{
	if (app->opts.pipeline)
		return app_pipeline_run(app);
	if (app->opts.new_threads)
		return run_new_threads(app);

	struct app_turn turn = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
		.threads = app->opts.threads,
		.app = app,
	};
	struct app_worker workers[2] = {{&turn, 0, 0}, {&turn, 1, 0}};
	/* Worker 0 is this thread; the others are started. */
	uint32_t started = 1;
	for (; started < turn.threads; started++) {
		if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started])) {
			app_error("pthread_create failed");
			pthread_mutex_lock(&turn.lock);
			turn.done = true;
			pthread_cond_broadcast(&turn.cond);
			pthread_mutex_unlock(&turn.lock);
			app->failed = true;
			break;
		}
	}
	if (!app->failed)
		worker_main(&workers[0]);
	for (uint32_t i = 1; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	pthread_cond_destroy(&turn.cond);
	pthread_mutex_destroy(&turn.lock);
	return !app->failed;
}
