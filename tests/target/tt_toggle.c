/*
 * A recording stop between the monitor's two sides of one xrEndFrame (see
 * tt_toggle.h).
 */
#include "tt_toggle.h"

#include "tt_log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

/* The monitor's default XRLM_SIGNAL: the tests leave it unset. */
#define TOGGLE_SIGNAL SIGUSR2

/* Set on the second frame thread only. */
static __thread bool own_call;
/* The application's xrEndFrame calls seen so far. */
static uint64_t frames;

/* What the second frame thread ends, and how it went. */
struct second_frame {
	PFN_xrEndFrame end_frame;
	XrSession session;
	const XrFrameEndInfo *info;
	XrResult result;
};

bool tt_toggle_own_call(void)
{
	return own_call;
}

static void *second_frame_main(void *arg)
{
	struct second_frame *f = arg;

	own_call = true;
	f->result = f->end_frame(f->session, f->info);
	return NULL;
}

/*
 * The application's own xrEndFrame: the loader's, which dispatches to the
 * top of the chain. RTLD_NOLOAD: the loader that loaded us, never another.
 */
static PFN_xrEndFrame loader_end_frame(void)
{
	void *lib = dlopen("libopenxr_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!lib) {
		tt_log("libopenxr_loader.so.1 is not loaded in this process");
		return NULL;
	}
	PFN_xrEndFrame fn = (PFN_xrEndFrame)dlsym(lib, "xrEndFrame");
	if (!fn)
		tt_log("libopenxr_loader.so.1 has no xrEndFrame");
	/* The loader stays: the application holds it. */
	dlclose(lib);
	return fn;
}

void tt_toggle_frame(uint64_t at, XrSession session, const XrFrameEndInfo *info)
{
	if (__atomic_add_fetch(&frames, 1, __ATOMIC_RELAXED) != at)
		return;
	XrTime t = info ? info->displayTime : 0;
	struct second_frame f = {loader_end_frame(), session, info, XR_SUCCESS};
	if (!f.end_frame) {
		tt_log("toggle at xrEndFrame %llu: no loader's xrEndFrame; nothing done",
		       (unsigned long long)at);
		return;
	}
	/* On this thread: the handler has run when raise() returns, so the
	 * stop is pending before the second thread's frame. */
	if (raise(TOGGLE_SIGNAL) != 0) {
		tt_log("toggle at xrEndFrame %llu: raise failed; nothing done",
		       (unsigned long long)at);
		return;
	}
	pthread_t thread;
	int err = pthread_create(&thread, NULL, second_frame_main, &f);
	if (err) {
		tt_log("toggle at xrEndFrame %llu: pthread_create failed (error %d); signal raised, "
		       "no second frame", (unsigned long long)at, err);
		return;
	}
	pthread_join(thread, NULL);
	tt_log("toggle at xrEndFrame %llu (display_time=%lld): signal %d raised, a second "
	       "thread's xrEndFrame returned %d", (unsigned long long)at, (long long)t,
	       TOGGLE_SIGNAL, (int)f.result);
}
