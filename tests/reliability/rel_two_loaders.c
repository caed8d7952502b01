/*
 * Two OpenXR loaders in one process (a plugin host whose plugins each ship
 * their own copy), both creating an instance at the same moment, round
 * after round: the layer libraries are loaded once and shared, so one
 * instance a round is monitored and the other passed through; neither
 * may crash, hang or record into the other's files.
 *
 *   rel_two_loaders LOADER_A LOADER_B ROUNDS FRAMES
 *
 * LOADER_B is a copy of LOADER_A under another soname (made by the test
 * script), so that the dynamic linker loads it a second time. Prints one
 * line a round; exit 0 when every instance ran its frames.
 */
#include <openxr/openxr.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct xr {
	const char *name;
	PFN_xrGetInstanceProcAddr gipa;
	PFN_xrCreateInstance create;
	XrInstance instance;
	XrSession session;
	unsigned frames;
	pthread_barrier_t *start;
	int ok;
};

#define FN(x, name) ((PFN_##name)fn(x, #name))

static PFN_xrVoidFunction fn(struct xr *x, const char *name)
{
	PFN_xrVoidFunction f = NULL;
	if (XR_FAILED(x->gipa(x->instance, name, &f)))
		return NULL;
	return f;
}

static int open_loader(struct xr *x, const char *path)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
		return -1;
	}
	x->gipa = (PFN_xrGetInstanceProcAddr)dlsym(lib, "xrGetInstanceProcAddr");
	x->create = (PFN_xrCreateInstance)dlsym(lib, "xrCreateInstance");
	return x->gipa && x->create ? 0 : -1;
}

/* A headless session through to its first frames. */
static int begin(struct xr *x)
{
	const char *ext = XR_MND_HEADLESS_EXTENSION_NAME;
	XrInstanceCreateInfo ci = {.type = XR_TYPE_INSTANCE_CREATE_INFO,
	                           .applicationInfo = {.apiVersion = XR_MAKE_VERSION(1, 0, 0)},
	                           .enabledExtensionCount = 1, .enabledExtensionNames = &ext};
	snprintf(ci.applicationInfo.applicationName, sizeof(ci.applicationInfo.applicationName),
	         "rel_two_loaders %s", x->name);
	pthread_barrier_wait(x->start);
	if (XR_FAILED(x->create(&ci, &x->instance)))
		return -1;
	XrSystemGetInfo gi = {.type = XR_TYPE_SYSTEM_GET_INFO,
	                      .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
	XrSystemId system;
	if (XR_FAILED(FN(x, xrGetSystem)(x->instance, &gi, &system)))
		return -1;
	XrSessionCreateInfo si = {.type = XR_TYPE_SESSION_CREATE_INFO, .systemId = system};
	return XR_FAILED(FN(x, xrCreateSession)(x->instance, &si, &x->session)) ? -1 : 0;
}

/* Waits for READY, begins the session and runs x->frames frames. */
static int run_frames(struct xr *x)
{
	PFN_xrPollEvent poll = FN(x, xrPollEvent);
	PFN_xrWaitFrame wait = FN(x, xrWaitFrame);
	PFN_xrBeginFrame begin_frame = FN(x, xrBeginFrame);
	PFN_xrEndFrame end = FN(x, xrEndFrame);
	int running = 0;
	unsigned done = 0;

	for (int tries = 0; !running && tries < 10000; tries++) {
		XrEventDataBuffer ev = {.type = XR_TYPE_EVENT_DATA_BUFFER};
		while (poll(x->instance, &ev) == XR_SUCCESS) {
			const XrEventDataSessionStateChanged *sc = (const void *)&ev;
			if (ev.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED &&
			    sc->state == XR_SESSION_STATE_READY) {
				XrSessionBeginInfo bi = {
					.type = XR_TYPE_SESSION_BEGIN_INFO,
					.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
				if (XR_FAILED(FN(x, xrBeginSession)(x->session, &bi)))
					return -1;
				running = 1;
			}
			ev = (XrEventDataBuffer){.type = XR_TYPE_EVENT_DATA_BUFFER};
		}
		if (!running)
			usleep(1000);
	}
	while (running && done < x->frames) {
		XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
		XrFrameEndInfo ei = {.type = XR_TYPE_FRAME_END_INFO,
		                     .environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE};
		if (XR_FAILED(wait(x->session, NULL, &fs)) || XR_FAILED(begin_frame(x->session, NULL)))
			return -1;
		ei.displayTime = fs.predictedDisplayTime;
		if (XR_FAILED(end(x->session, &ei)))
			return -1;
		done++;
	}
	return done == x->frames ? 0 : -1;
}

static void *instance_thread(void *arg)
{
	struct xr *x = arg;

	x->ok = begin(x) == 0 && run_frames(x) == 0;
	if (x->session)
		FN(x, xrDestroySession)(x->session);
	if (x->instance)
		FN(x, xrDestroyInstance)(x->instance);
	x->session = XR_NULL_HANDLE;
	x->instance = XR_NULL_HANDLE;
	return NULL;
}

int main(int argc, char **argv)
{
	struct xr xr[2] = {{.name = "A"}, {.name = "B"}};
	pthread_barrier_t start;

	if (argc != 5) {
		fprintf(stderr, "usage: rel_two_loaders LOADER_A LOADER_B ROUNDS FRAMES\n");
		return 2;
	}
	if (open_loader(&xr[0], argv[1]) || open_loader(&xr[1], argv[2]))
		return 1;
	int rounds = atoi(argv[3]);
	pthread_barrier_init(&start, NULL, 2);
	for (int r = 1; r <= rounds; r++) {
		pthread_t t[2];
		for (int i = 0; i < 2; i++) {
			xr[i].frames = (unsigned)atoi(argv[4]);
			xr[i].start = &start;
			pthread_create(&t[i], NULL, instance_thread, &xr[i]);
		}
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		printf("round %d A=%s B=%s\n", r, xr[0].ok ? "ok" : "failed", xr[1].ok ? "ok" : "failed");
		fflush(stdout);
		if (!xr[0].ok || !xr[1].ok)
			return 1;
	}
	pthread_barrier_destroy(&start);
	return 0;
}
