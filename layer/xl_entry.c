/*
 * The loader's entry into the layer: negotiation, instance creation and
 * destruction, and xrGetInstanceProcAddr. Only
 * xrNegotiateLoaderApiLayerInterface is exported (see exports.map).
 *
 * Every function the next layer has is handed out wrapped (xl_wrap.h),
 * unless XRLM_FUNCTIONS leaves it out; a name the headers do not know, or
 * one the next layer has no function for, gets the next layer's answer as
 * it is. An instance the layer does not monitor (disabled, misordered, a
 * second concurrent one) gets nothing but the next layer's pointers.
 */
#include "quote.h"
#include "xl_clock.h"
#include "xl_files.h"
#include "xl_hooks.h"
#include "xl_instance.h"
#include "xl_log.h"
#include "xl_session.h"
#include "xl_thread.h"
#include "xl_wrap.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct xl_instance xl_inst;

/*
 * Whether an instance holds xl_inst, from its xrCreateInstance until it is
 * ended: taken atomically, because two loaders in one process (each with
 * its own instance) may create theirs at once, and the one monitored
 * instance must not be set up by both.
 */
static atomic_bool inst_claimed;

/* The instance monitored (XR_NULL_HANDLE: none), for other threads' lookups. */
static _Atomic(XrInstance) monitored_handle;

/*
 * The monitored instance's threads (the writer; pre's control socket), and
 * who stops them: xrDestroyInstance, the destructor at exit, or a creation
 * that failed. Claimed once: exit() (a second Ctrl-C's handler, another
 * thread's) while xrDestroyInstance stops them must not stop them again.
 */
enum run_state {
	RUN_NONE,     /* none started, or all stopped and the instance ended */
	RUN_CREATING, /* xrCreateInstance is starting them: only its thread moves on */
	RUN_STARTED,  /* all started and the instance published: an exit() stops them */
	RUN_STOPPING, /* a thread claimed the stop; it ends the instance too */
};
static _Atomic int run_state;
/* This thread is creating the instance, or claimed the stop: an exit()
 * that interrupted it must not wait for it. */
static __thread bool creating_here, stopping_here;
/* How long the destructor waits for another thread's stop (post's: the merge, seconds). */
#define STOP_WAIT_NS 30000000000ull
/* How long it waits for another thread's creation to finish (thread starts, a socket). */
#define CREATE_WAIT_NS 1000000000ull

/*
 * Claims the stop of the instance's threads, from state @p from: true for
 * the one caller that stops them.
 */
static bool claim_stop_from(int from)
{
	if (!atomic_compare_exchange_strong(&run_state, &from, RUN_STOPPING))
		return false;
	creating_here = false;
	stopping_here = true;
	return true;
}

static bool claim_stop(void)
{
	return claim_stop_from(RUN_STARTED);
}

/* Waits, at most @p ns, while another thread keeps the run state at @p state. */
static void wait_while(int state, uint64_t ns)
{
	uint64_t until = xl_clock_mono_ns() + ns;
	while (atomic_load(&run_state) == state && xl_clock_mono_ns() < until)
		xl_thread_sleep_ns(1000000);
}

/* Whether @p instance is the one monitored. */
static bool is_monitored(XrInstance instance)
{
	return instance != XR_NULL_HANDLE && instance == atomic_load(&monitored_handle);
}

/* How long a side that waits for the claim (xl_side_waits_for_claim) waits. */
#define CLAIM_WAIT_NS 1000000000ull

static bool claim_once(void)
{
	bool free_slot = false;
	return atomic_compare_exchange_strong(&inst_claimed, &free_slot, true);
}

/* Takes xl_inst for the instance being created; false: another holds it. */
static bool claim_instance(void)
{
	if (claim_once())
		return true;
	if (!xl_side_waits_for_claim())
		return false;
	uint64_t until = xl_clock_mono_ns() + CLAIM_WAIT_NS;
	while (xl_clock_mono_ns() < until) {
		xl_thread_sleep_ns(1000000);
		if (claim_once())
			return true;
	}
	return false;
}

/*
 * The next layer's xrGetInstanceProcAddr of each instance. Usually the
 * same function for every instance, but not below post with two loaders
 * in the process (each its own terminator): calling one loader's with the
 * other's instance crashes. A few instances at a time; past that, and for
 * an instance not known (yet), the latest creation's. Only the monitored
 * instance's xrDestroyInstance comes through this layer: another's entry
 * stays until its handle comes back for a new instance (the old one is
 * gone then), or its slot is the oldest taken when none is free.
 */
#define NEXT_GIPAS 16
static struct {
	_Atomic(XrInstance) instance; /* published last, XR_NULL_HANDLE: free */
	_Atomic(PFN_xrGetInstanceProcAddr) gipa;
	atomic_bool taken;
} next_gipas[NEXT_GIPAS];
static _Atomic(PFN_xrGetInstanceProcAddr) latest_gipa;
static atomic_uint next_gipa_evict; /* the slot taken next when none is free */

/* Remembers @p gipa as @p instance's next layer's. */
static void next_gipa_add(XrInstance instance, PFN_xrGetInstanceProcAddr gipa)
{
	int slot = -1;

	for (int i = 0; i < NEXT_GIPAS && slot < 0; i++)
		if (atomic_load(&next_gipas[i].instance) == instance)
			slot = i; /* a handle back: its old instance is gone */
	for (int i = 0; i < NEXT_GIPAS && slot < 0; i++) {
		bool free_slot = false;
		if (atomic_compare_exchange_strong(&next_gipas[i].taken, &free_slot, true))
			slot = i;
	}
	if (slot < 0)
		slot = (int)(atomic_fetch_add(&next_gipa_evict, 1) % NEXT_GIPAS);
	atomic_store(&next_gipas[slot].taken, true);
	atomic_store(&next_gipas[slot].instance, XR_NULL_HANDLE);
	atomic_store(&next_gipas[slot].gipa, gipa);
	atomic_store(&next_gipas[slot].instance, instance);
}

/* Forgets @p instance (destroyed). */
static void next_gipa_remove(XrInstance instance)
{
	for (int i = 0; i < NEXT_GIPAS; i++) {
		if (atomic_load(&next_gipas[i].instance) != instance)
			continue;
		atomic_store(&next_gipas[i].instance, XR_NULL_HANDLE);
		atomic_store(&next_gipas[i].taken, false);
		return;
	}
}

/* @p instance's next layer's xrGetInstanceProcAddr (NULL: none created yet). */
static PFN_xrGetInstanceProcAddr next_gipa_of(XrInstance instance)
{
	if (instance != XR_NULL_HANDLE) {
		for (int i = 0; i < NEXT_GIPAS; i++)
			if (atomic_load(&next_gipas[i].instance) == instance)
				return atomic_load(&next_gipas[i].gipa);
	}
	return atomic_load(&latest_gipa);
}

/*
 * Opens the output directory safely (see xl_files_open_dir) and the log in
 * it; says once, on stderr too, why it cannot be used. A directory the user
 * named (@p named) that cannot be used gives way to the default one, as any
 * bad setting does. From then on @p dir is the directory's resolved path,
 * the one every message names.
 */
static int open_output_dir(char *dir, size_t dir_size, bool named)
{
	char why[512], resolved[XL_PATH_MAX], refused[2 * XL_PATH_MAX + 640] = "";
	char qd[QUOTE_PATH_MAX], qw[QUOTE_PATH_MAX], qr[QUOTE_PATH_MAX];

	int dir_fd = xl_files_open_dir(dir, why, sizeof(why));
	if (dir_fd < 0 && named) {
		char def[XL_PATH_MAX];
		xl_settings_default_dir(def, sizeof(def));
		snprintf(refused, sizeof(refused),
		         "output directory %s cannot be used: %s; using the default, %s",
		         quote_path(qd, dir), quote_path(qw, why), quote_path(qr, def));
		snprintf(dir, dir_size, "%s", def);
		dir_fd = xl_files_open_dir(dir, why, sizeof(why));
	}
	char log_why[256];
	if (!xl_log_open(dir_fd, xl_side.name, log_why, sizeof(log_why)))
		xl_log_loud("log file in %s cannot be used: %s; log lines go to stderr",
		            quote_path(qd, dir), log_why);
	if (refused[0])
		xl_log_loud("%s", refused);
	if (dir_fd < 0) {
		xl_log_loud("output directory %s cannot be used: %s; nothing will be recorded",
		            quote_path(qd, dir), quote_path(qw, why));
		return -1;
	}
	if (xl_files_dir_path(dir_fd, resolved, sizeof(resolved)) && strcmp(resolved, dir) != 0) {
		xl_log("output directory %s resolves to %s", quote_path(qd, dir),
		       quote_path(qr, resolved));
		snprintf(dir, dir_size, "%s", resolved);
	}
	return dir_fd;
}

/* Settings, log and side checks, before the chain below creates the instance. */
static bool begin_instance(struct xl_instance *in, const XrApiLayerCreateInfo *info)
{
	char *dir = in->settings.output_dir, warning[256];

	memset(in, 0, sizeof(*in));
	in->pid = getpid();
	bool named = xl_settings_output_dir(dir, sizeof(in->settings.output_dir), warning,
	                                    sizeof(warning));
	in->dir_fd = open_output_dir(dir, sizeof(in->settings.output_dir), named);
	if (warning[0])
		xl_log("setting ignored: %s", warning);
	xl_settings_load(&in->settings);

	pthread_mutex_init(&in->gpu.lock, NULL);
	if (xl_ring_pool_create(&in->rings, XL_RING_CAPACITY) != 0) {
		xl_log("out of memory for the call rings: nothing will be recorded");
		return false;
	}
	in->rings_ready = true;
	return xl_side_before_create(in, info);
}

static void end_instance(struct xl_instance *in)
{
	xl_side_end(in);
	xl_session_exit_gpu(in);
	if (in->rings_ready)
		xl_ring_pool_destroy(&in->rings);
	pthread_mutex_destroy(&in->gpu.lock);
	xl_control_unref(in->ctl);
	if (in->dir_fd >= 0)
		close(in->dir_fd);
	xl_log_close();
	memset(in, 0, sizeof(*in));
	/* Its threads are stopped: a destructor waiting for that returns. */
	stopping_here = false;
	atomic_store(&run_state, RUN_NONE);
	atomic_store(&inst_claimed, false);
}

static bool resolve(XrInstance instance, const char *name, PFN_xrVoidFunction *out)
{
	PFN_xrGetInstanceProcAddr next_gipa = next_gipa_of(instance);

	*out = NULL;
	return next_gipa && next_gipa(instance, name, out) == XR_SUCCESS && *out;
}

/*
 * Fills the next layer's table with what this layer calls: the hooked
 * functions and xrGetInstanceProperties (for the log). False if it lacks one
 * that is not optional.
 */
static bool resolve_dispatch(struct xl_instance *in, XrInstance instance)
{
	const struct xl_dispatch *d = &in->next;
	enum xl_fn_id ids[XL_FN_COUNT];

	memcpy(ids, xl_hooks_ids, xl_hooks_count * sizeof(ids[0]));
	ids[xl_hooks_count] = XL_FN_xrGetInstanceProperties;
	xl_dispatch_fill(&in->next, next_gipa_of(instance), instance, ids, xl_hooks_count + 1);
	/* xrCreateVulkan*KHR are optional: only under XR_KHR_vulkan_enable2. */
	return d->xrDestroyInstance && d->xrEndFrame && d->xrGetInstanceProperties &&
	       d->xrCreateSession && d->xrDestroySession;
}

static void log_instance(struct xl_instance *in, XrInstance instance,
                         const XrInstanceCreateInfo *create)
{
	const XrApplicationInfo *app = &create->applicationInfo;
	XrInstanceProperties props = {.type = XR_TYPE_INSTANCE_PROPERTIES};
	const struct xl_settings *s = &in->settings;
	char functions[32], q[QUOTE_PATH_MAX], qa[QUOTE_PATH_MAX], qe[QUOTE_PATH_MAX];

	if (in->next.xrGetInstanceProperties(instance, &props) != XR_SUCCESS)
		snprintf(props.runtimeName, sizeof(props.runtimeName), "(unknown)");
	xl_log("instance: app \"%s\" %u, engine \"%s\" %u, API %u.%u.%u; runtime \"%s\" "
	       "%u.%u.%u; pid %d",
	       /* Name arrays an application may fill whole: bounded by them. */
	       quote_path_to(qa, sizeof(qa), app->applicationName, sizeof(app->applicationName)),
	       app->applicationVersion,
	       quote_path_to(qe, sizeof(qe), app->engineName, sizeof(app->engineName)),
	       app->engineVersion,
	       XR_VERSION_MAJOR(app->apiVersion), XR_VERSION_MINOR(app->apiVersion),
	       XR_VERSION_PATCH(app->apiVersion),
	       quote_path_to(q, sizeof(q), props.runtimeName, sizeof(props.runtimeName)),
	       XR_VERSION_MAJOR(props.runtimeVersion),
	       XR_VERSION_MINOR(props.runtimeVersion), XR_VERSION_PATCH(props.runtimeVersion),
	       (int)getpid());
	/* Bounded as in the line above: runtimeName is the structure's last member. */
	snprintf(in->runtime, sizeof(in->runtime), "%.*s %u.%u.%u",
	         (int)sizeof(props.runtimeName), props.runtimeName,
	         XR_VERSION_MAJOR(props.runtimeVersion), XR_VERSION_MINOR(props.runtimeVersion),
	         XR_VERSION_PATCH(props.runtimeVersion));
	xl_log("clock: CLOCK_MONOTONIC, 1 ns; output directory: %s",
	       quote_path(q, in->ctl->output_dir));
	xl_log("GPU mode: %s%s", xl_settings_gpu_mode_name(s->gpu_mode),
	       s->gpu_mode == XL_GPU_OFF ? " (no GPU timestamps, GPU columns stay blank)"
	       : s->gpu_mode == XL_GPU_AUTO ? " (gated where the device allows it, else sandwich)"
	                                    : "");
	snprintf(functions, sizeof(functions), "%u of %d", s->functions_count,
	         xl_settings_recordable_count());
	xl_log("functions recorded: %s", s->functions_all ? "all" : functions);
	xl_log("XRLM_TRACE: %s%s%s", s->trace_csv ? "csv" : "",
	       s->trace_csv && s->trace_lttng ? "," : "", s->trace_lttng ? "lttng" : "");
	if (xl_side.index != XL_SIDE_PRE)
		return;
	if (s->delay_s >= 0.0)
		xl_log("recording starts %.3f s after the first frame", s->delay_s);
	else if (s->record_at_start)
		xl_log("recording starts at the first frame (XRLM_RECORD=1)");
	if (s->frame_limit)
		xl_log("recording stops after %llu frames", (unsigned long long)s->frame_limit);
	if (s->time_limit_s > 0.0)
		xl_log("recording stops after %.3f s", s->time_limit_s);
}

/* Starts monitoring the instance the chain just created. */
static bool finish_instance(struct xl_instance *in, XrInstance instance,
                            const XrInstanceCreateInfo *create)
{
	if (!resolve_dispatch(in, instance)) {
		xl_log("the next layer lacks xrEndFrame or xrDestroyInstance: nothing will be recorded");
		return false;
	}
	log_instance(in, instance, create);

	struct xl_writer_config cfg = {
		.side = xl_side.index,
		.meta = {xl_side.name, xl_side.layer_name, in->ctl->target_layer, -1,
		         in->settings.phases_recorded},
		.ctl = in->ctl,
		.rings = &in->rings,
		.gpu = &in->gpu,
		.session_closed = xl_side_session_closed(),
		.ctx = in->ctl,
		.dir_fd = in->dir_fd,
		.trace_id = {xl_side.name, xl_side.layer_name, in->ctl->target_layer, in->runtime,
		             in->ctl->output_dir, (int32_t)getpid(), in->settings.trace_csv},
		.trace_lttng = in->settings.trace_lttng,
		.no_csv = !in->settings.trace_csv,
	};
	/* Before the first thread starts: an exit() on another thread from
	 * here on waits for the creation, then stops them (layer_at_exit). */
	creating_here = true;
	atomic_store(&run_state, RUN_CREATING);
	return xl_writer_start(&in->writer, &cfg) == 0 && xl_side_after_create(in, create);
}

/*
 * A creation that failed: stops what it started and ends the instance,
 * unless an exit() on another thread claimed that first (its destructor
 * does it then).
 */
static void abandon_instance(struct xl_instance *in)
{
	if (atomic_load(&run_state) != RUN_NONE && !claim_stop_from(RUN_CREATING))
		return;
	if (xl_side.index == XL_SIDE_PRE && in->ctl)
		xl_control_stop_now(in->ctl);
	xl_writer_stop(&in->writer);
	end_instance(in);
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_create_instance(const XrInstanceCreateInfo *create,
                                                          const XrApiLayerCreateInfo *info,
                                                          XrInstance *instance);

/* Layers below this one whose chain without_copies() rebuilds; past them, the rest as it is. */
#define CHAIN_COPY_MAX 16

/*
 * The chain below, @p next on, without copies of this library (nodes whose
 * create function is this one), rebuilt in @p nodes (CHAIN_COPY_MAX): a
 * loader from 1.0.30 on enables every manifest of a name it finds (a
 * manifest directory listed twice), and this library twice in one chain
 * recursed in xrGetInstanceProcAddr until the stack overflowed: the next
 * layer's entry is kept per instance, which both copies share. The nodes
 * live until the creation returns, as the loader's do. *@p skipped: how
 * many copies were left out; none: @p first itself, as the loader made it.
 * NULL when there was nothing below but copies.
 */
static const XrApiLayerNextInfo *without_copies(const XrApiLayerNextInfo *first,
                                                XrApiLayerNextInfo *nodes, unsigned *skipped)
{
	const XrApiLayerNextInfo *next = first;
	XrApiLayerNextInfo *head = NULL, *tail = NULL;
	unsigned n = 0;

	*skipped = 0;
	for (; next && n < CHAIN_COPY_MAX; next = next->next) {
		if (next->nextCreateApiLayerInstance == layer_create_instance) {
			(*skipped)++;
			continue;
		}
		nodes[n] = *next;
		nodes[n].next = NULL;
		if (tail)
			tail->next = &nodes[n];
		else
			head = &nodes[n];
		tail = &nodes[n++];
	}
	if (!*skipped)
		return first; /* the loader's own chain serves */
	if (tail)
		tail->next = (XrApiLayerNextInfo *)next; /* what did not fit, as it is */
	return head;
}

static XRAPI_ATTR XrResult XRAPI_CALL layer_create_instance(const XrInstanceCreateInfo *create,
                                                          const XrApiLayerCreateInfo *info,
                                                          XrInstance *instance)
{
	if (!info || info->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO ||
	    !info->nextInfo ||
	    info->nextInfo->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO ||
	    !info->nextInfo->nextCreateApiLayerInstance || !info->nextInfo->nextGetInstanceProcAddr)
		return XR_ERROR_INITIALIZATION_FAILED;

	XrApiLayerNextInfo nodes[CHAIN_COPY_MAX];
	unsigned copies;
	const XrApiLayerNextInfo *next = without_copies(info->nextInfo, nodes, &copies);
	if (!next)
		return XR_ERROR_INITIALIZATION_FAILED; /* nothing below but this library: no chain */
	/* The chain the rest of the creation reads (pre: the target's name). */
	XrApiLayerCreateInfo below = *info;
	below.nextInfo = (XrApiLayerNextInfo *)next;
	info = &below;
	struct xl_instance *in = &xl_inst;
	bool monitor = !xl_settings_layer_disabled(xl_side.layer_name);
	if (monitor && !claim_instance()) {
		xl_log_loud("another instance of this process is monitored: this one is passed "
		            "through");
		monitor = false;
	}
	if (monitor && !begin_instance(in, info)) {
		end_instance(in);
		monitor = false;
	}
	if (!monitor)
		xl_side_pass_through();
	/* Said once the log has its side's name (begin_instance). */
	if (copies)
		xl_log_loud("%s is in the layer chain %u more time%s below itself (its manifest found "
		            "twice?): %s left out", xl_side.layer_name, copies, copies == 1 ? "" : "s",
		            copies == 1 ? "that copy is" : "those copies are");
	atomic_store(&latest_gipa, next->nextGetInstanceProcAddr);

	XrApiLayerCreateInfo down = *info;
	down.nextInfo = next->next;
	XrResult result = next->nextCreateApiLayerInstance(create, &down, instance);
	if (XR_SUCCEEDED(result))
		next_gipa_add(*instance, next->nextGetInstanceProcAddr);
	if (!monitor)
		return result;
	if (XR_FAILED(result) || !finish_instance(in, *instance, create)) {
		abandon_instance(in);
		return result;
	}
	atomic_store(&monitored_handle, *instance);
	/* Only now may an exit() stop what the creation started. */
	creating_here = false;
	atomic_store(&run_state, RUN_STARTED);
	return result;
}

/*
 * Stops recording, finishes this side's files (post: the merge) and joins
 * the thread. Only by the caller that claimed the stop (claim_stop).
 */
static void stop_monitoring(struct xl_instance *in)
{
	atomic_store(&monitored_handle, XR_NULL_HANDLE);
	xl_side_before_destroy(in);
	xl_writer_stop(&in->writer);
}

XrResult xl_entry_destroy_instance(struct xl_instance *in, XrInstance instance)
{
	bool monitored = is_monitored(instance);
	PFN_xrDestroyInstance destroy = monitored ? in->next.xrDestroyInstance : NULL;
	if (!monitored && !resolve(instance, "xrDestroyInstance", (PFN_xrVoidFunction *)&destroy))
		return XR_ERROR_HANDLE_INVALID;
	/*
	 * Only the chain's part, for an instance not monitored; in a child the
	 * application forked, for its copy of the monitored one (the threads,
	 * descriptors, control socket and files are the parent's: joining the
	 * writer there waited for ever, and the control socket's end would
	 * have stopped the parent's and removed its socket; the copy's memory
	 * is left as it is); and when an exit() on another thread is ending
	 * the instance (layer_at_exit).
	 */
	if (!monitored || xl_instance_foreign(in) || !claim_stop()) {
		XrResult result = destroy(instance);
		next_gipa_remove(instance);
		return result;
	}
	stop_monitoring(in);
	xl_session_destroy_gpu(in);
	XrResult result = destroy(instance);
	next_gipa_remove(instance);
	xl_log("instance destroyed");
	end_instance(in);
	return result;
}

/*
 * The process is exiting (or the library is being unloaded) with an
 * instance still monitored: finish the session and its merge, as
 * xrDestroyInstance would, without touching the chain.
 *
 * Not in a child the application forked, which exits with a copy of the
 * instance: the writer and control threads are the parent's (joining them
 * would wait for ever on the copy of a condition variable), and so are the
 * files, the merge and the control socket.
 *
 * Not a second time either: when xrDestroyInstance (or a failed creation)
 * is stopping them already, this waits for it on another thread, and
 * returns at once on the stopping thread itself (exit() from a handler).
 * Nor under a creation: on another thread it waits for the creation to
 * finish first; on the creating thread itself (exit() from a handler) it
 * leaves everything to it.
 */
__attribute__((destructor)) static void layer_at_exit(void)
{
	if (atomic_load(&run_state) == RUN_NONE || xl_instance_foreign(&xl_inst) || creating_here ||
	    stopping_here)
		return;
	wait_while(RUN_CREATING, CREATE_WAIT_NS);
	if (!claim_stop()) {
		/* The merge done before the library may be unmapped. */
		wait_while(RUN_STOPPING, STOP_WAIT_NS);
		return;
	}
	xl_log("process exiting with the instance alive: finishing the recording");
	stop_monitoring(&xl_inst);
	end_instance(&xl_inst);
}

XrResult xl_entry_get_instance_proc_addr(struct xl_instance *in, XrInstance instance,
                                         const char *name, PFN_xrVoidFunction *function)
{
	if (!name || !function)
		return XR_ERROR_VALIDATION_FAILURE;
	/* Pre asks post for these with no instance, through post's own entry
	 * point; the loader passes an application's query down the chain only
	 * with an instance, which must get what the runtime answers. */
	if (instance == XR_NULL_HANDLE && xl_side_private_proc(name, function))
		return XR_SUCCESS;
	PFN_xrGetInstanceProcAddr next_gipa = next_gipa_of(instance);
	if (!next_gipa) {
		*function = NULL;
		return XR_ERROR_HANDLE_INVALID;
	}
	/* Whatever the next layer answers stands; we only swap in our wrapper. */
	XrResult result = next_gipa(instance, name, function);
	if (result != XR_SUCCESS || !*function || !is_monitored(instance))
		return result;
	PFN_xrVoidFunction wrapper = xl_wrap_function(in, xl_fn_lookup(name), *function);
	if (wrapper)
		*function = wrapper;
	return result;
}

static XrVersion negotiated_api_version(const XrNegotiateLoaderInfo *info)
{
	XrVersion v = XR_CURRENT_API_VERSION;
	return v > info->maxApiVersion ? info->maxApiVersion : v;
}

/*
 * A refused negotiation leaves the layer out of the chain, and the loader
 * says so only when XR_LOADER_DEBUG asks: each refusal says why itself,
 * in one line. No instance has opened a log yet, so the line goes to
 * stderr (and to the log too when another instance of this library has
 * one open). Once per kind while the library stays loaded (a second
 * manifest or a harness may negotiate again and again); the loader
 * unloads it after a refusal, and its next xrCreateInstance asks anew.
 */
enum refusal { REFUSED_NAME, REFUSED_STRUCTS, REFUSED_VERSIONS, REFUSED_KINDS };
static atomic_bool refusal_said[REFUSED_KINDS];
#define REFUSED_TAIL "refused: the layer is left out of the chain, and nothing is recorded"

static bool first_refusal(enum refusal kind)
{
	return !atomic_exchange(&refusal_said[kind], true);
}

/* This library's file as the loader opened it: the manifest's library_path. */
static const char *library_file(char *q)
{
	Dl_info info;

	if (dladdr((void *)library_file, &info) && info.dli_fname && info.dli_fname[0])
		return quote_path(q, info.dli_fname);
	return "this library";
}

static const char *version_shown(char *buf, size_t size, XrVersion v)
{
	snprintf(buf, size, "%u.%u.%u", XR_VERSION_MAJOR(v), XR_VERSION_MINOR(v),
	         XR_VERSION_PATCH(v));
	return buf;
}

static void refuse_structs(const XrNegotiateLoaderInfo *info,
                           const XrNegotiateApiLayerRequest *request)
{
	char in[64] = "none", req[64] = "none";

	if (!first_refusal(REFUSED_STRUCTS))
		return;
	/* Only the header, which every version of the structures begins with. */
	if (info)
		snprintf(in, sizeof(in), "type %d, version %u, size %zu", (int)info->structType,
		         info->structVersion, info->structSize);
	if (request)
		snprintf(req, sizeof(req), "type %d, version %u, size %zu",
		         (int)request->structType, request->structVersion, request->structSize);
	xl_log_loud("the loader's negotiation structures are not those this layer was built for "
	            "(loader info: %s; layer request: %s; this layer's: type %d, version %u, "
	            "size %zu; type %d, version %u, size %zu): use the Khronos OpenXR loader "
	            "(libopenxr_loader.so.1); " REFUSED_TAIL, in, req,
	            (int)XR_LOADER_INTERFACE_STRUCT_LOADER_INFO, XR_LOADER_INFO_STRUCT_VERSION,
	            sizeof(*info), (int)XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST,
	            XR_API_LAYER_INFO_STRUCT_VERSION, sizeof(*request));
}

static void refuse_name(const char *layer_name)
{
	char qn[QUOTE_PATH_MAX], ql[QUOTE_PATH_MAX];

	if (!first_refusal(REFUSED_NAME))
		return;
	/* The manifest's name, any bytes and any length: shown escaped, cut to fit. */
	xl_log_loud("the loader asked %s for layer \"%s\" (the name in its manifest), but that "
	            "library is %s, a name compiled in that no manifest changes: set that "
	            "manifest's \"name\" back to \"%s\" as shipped, and enable the layer by that "
	            "name; " REFUSED_TAIL,
	            library_file(ql), quote_path_to(qn, sizeof(qn), layer_name, (size_t)-1),
	            xl_side.layer_name, xl_side.layer_name);
}

static void refuse_versions(const XrNegotiateLoaderInfo *info)
{
	char lo[32], hi[32], ours[32];

	if (!first_refusal(REFUSED_VERSIONS))
		return;
	xl_log_loud("the loader offers layer interface %u to %u and OpenXR %s to %s, but this "
	            "layer speaks interface %u and OpenXR up to %s: use an OpenXR 1.x loader whose "
	            "ranges include these, or build the monitor against that loader's headers; "
	            REFUSED_TAIL, info->minInterfaceVersion, info->maxInterfaceVersion,
	            version_shown(lo, sizeof(lo), info->minApiVersion),
	            version_shown(hi, sizeof(hi), info->maxApiVersion),
	            XR_CURRENT_LOADER_API_LAYER_VERSION,
	            version_shown(ours, sizeof(ours), XR_CURRENT_API_VERSION));
}

/* The one exported symbol: the loader looks it up by name. */
__attribute__((visibility("default"))) XRAPI_ATTR XrResult XRAPI_CALL xrNegotiateLoaderApiLayerInterface(
	const XrNegotiateLoaderInfo *info, const char *layer_name,
	XrNegotiateApiLayerRequest *request)
{
	/* Before any instance: a refusal's line names this side, not "?". */
	xl_log_side(xl_side.name);
	if (!info || !request || info->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
	    info->structVersion != XR_LOADER_INFO_STRUCT_VERSION ||
	    info->structSize != sizeof(*info) ||
	    request->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST ||
	    request->structVersion != XR_API_LAYER_INFO_STRUCT_VERSION ||
	    request->structSize != sizeof(*request)) {
		refuse_structs(info, request);
		return XR_ERROR_INITIALIZATION_FAILED;
	}
	/* The identity is compiled in: a renamed manifest cannot rename the layer. */
	if (layer_name && strcmp(layer_name, xl_side.layer_name) != 0) {
		refuse_name(layer_name);
		return XR_ERROR_INITIALIZATION_FAILED;
	}
	if (info->minInterfaceVersion > XR_CURRENT_LOADER_API_LAYER_VERSION ||
	    info->maxInterfaceVersion < XR_CURRENT_LOADER_API_LAYER_VERSION ||
	    negotiated_api_version(info) < info->minApiVersion) {
		refuse_versions(info);
		return XR_ERROR_INITIALIZATION_FAILED;
	}

	request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
	request->layerApiVersion = negotiated_api_version(info);
	request->getInstanceProcAddr =
		(PFN_xrGetInstanceProcAddr)xl_wrap_lookup(XL_FN_xrGetInstanceProcAddr);
	request->createApiLayerInstance = layer_create_instance;
	return XR_SUCCESS;
}
