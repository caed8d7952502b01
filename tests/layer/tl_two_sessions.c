/*
 * Two XrSessions of one instance (OpenXR lets a runtime allow several):
 * the XrSession hooks (layer/xl_session.c, layer/xl_gl_session.c) and the
 * frame thread's GPU steps (layer/xl_side_frame.h), against stand-ins for
 * the chain below, the Vulkan and the OpenGL timestamps.
 *
 *   other_frames    session A is measured on the GPU, B is not. A's state
 *                   is made unreadable (as if A's xrDestroySession freed it
 *                   on another thread at that moment): B's recorded and
 *                   idle xrEndFrame steps and B's xrDestroySession must
 *                   not touch it (they read A's session field, racing
 *                   A's destroy: a use after free). A's own frames stamp.
 *   one_claim       two xrCreateSession at once: only one makes GPU state
 *                   (each used to find the holder empty, both made theirs
 *                   and one leaked, with its watchdog thread).
 *   frame_ids       the calls files' frame id counts xrWaitFrame calls:
 *                   creating B while A is alive must not reset it (A's
 *                   ids went back to 0 in the middle of its recording);
 *                   a session created alone starts again from 0.
 *   frame_ids_wait_returned_before_end
 *                   xrWaitFrame(N + 1) returned before xrEndFrame(N)
 *                   began: that xrEndFrame is still frame N.
 *   gate            pre's gate armed for A's frame: B's frame leaves it
 *                   armed (it opened it early, and could race A's destroy
 *                   of the gate's event), A's frame opens it.
 *   idle_gate       the same for post's idle xrEndFrame (pre recorded the
 *                   frame, post finds recording off: a stop between the
 *                   two): A's opens the gate before the runtime gets the
 *                   frame (it went down with the queue held, until the
 *                   watchdog tripped the gate), B's leaves it armed.
 *   stress          B's frames on one thread while A is created and
 *                   destroyed on another, Vulkan and OpenGL in turn: a
 *                   sanitizer build reports the use after free (ASan) or
 *                   the unsynchronized read of A's state (TSan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_gl_session.h"
#include "xl_hooks.h"
#include "xl_log.h"
#include "xl_session.h"
#include "xl_side_frame.h"
#include "xl_thread.h"
#include "tl_thread.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

const struct xl_side xl_side = {XL_SIDE_POST, "post", POST_LAYER_NAME, PRE_LAYER_NAME};

/* ---- the GPU state's stand-ins: each lives on pages of its own, so
 * that a test can make a live one unreadable (mmap), or in the heap for
 * the sanitizers to watch (stress). */
static bool in_heap;
static bool gl_create_fails; /* xl_gl_create finds no usable GL (its why given) */
static atomic_int live_states, created_states;
static atomic_int stamps_of_a, stamps_other;
static XrSession session_a;

static size_t state_size(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	return (size + page - 1) / page * page;
}

static void *state_new(size_t size)
{
	atomic_fetch_add(&live_states, 1);
	atomic_fetch_add(&created_states, 1);
	if (in_heap)
		return calloc(1, size);
	void *p = mmap(NULL, state_size(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void state_free(void *p, size_t size)
{
	if (!p)
		return;
	atomic_fetch_sub(&live_states, 1);
	if (in_heap)
		free(p);
	else
		munmap(p, state_size(size));
}

/* Makes a live state unreadable, or readable again. */
static void state_guard(void *p, size_t size, bool guard)
{
	assert_int_equal(mprotect(p, state_size(size), guard ? PROT_NONE : PROT_READ | PROT_WRITE),
	                 0);
}

/* The first create waits here for a second one to come in, at most 2 s. */
static atomic_bool hold_create, creating, second_entered;

static void wait_for_second(void)
{
	if (!atomic_exchange(&hold_create, false))
		return;
	atomic_store(&creating, true);
	for (int i = 0; i < 2000 && !atomic_load(&second_entered); i++)
		usleep(1000);
}

static void note_create(void)
{
	if (atomic_load(&creating))
		atomic_store(&second_entered, true);
	wait_for_second();
}

struct xl_gpu *xl_gpu_create(XrSession session, const XrGraphicsBindingVulkanKHR *binding,
                             const struct xl_gpu_params *params, struct xl_gate *gate,
                             char *why, size_t why_size)
{
	(void)binding, (void)params, (void)gate, (void)why, (void)why_size;
	note_create();
	struct xl_gpu *gpu = state_new(sizeof(*gpu));
	if (gpu)
		gpu->session = session;
	return gpu;
}

void xl_gpu_destroy(struct xl_gpu *gpu)
{
	state_free(gpu, sizeof(*gpu));
}

void xl_gpu_abandon(struct xl_gpu *gpu)
{
	state_free(gpu, sizeof(*gpu));
}

void xl_gpu_drain(struct xl_gpu *gpu, uint64_t timeout_ns)
{
	(void)gpu, (void)timeout_ns;
}

/* Samples the stand-in reports as destroyed uncollected, all of session uncollected_id. */
static unsigned uncollected;
static uint32_t uncollected_id;

void xl_gpu_each_uncollected(const struct xl_gpu *gpu, void (*lost)(void *ctx, uint32_t session_id),
                             void *ctx)
{
	(void)gpu;
	for (unsigned i = 0; i < uncollected; i++)
		lost(ctx, uncollected_id);
}

/* Counts the stamps put into session A's state and into any other's. */
static void count_stamp(XrSession owner)
{
	atomic_fetch_add(owner == session_a ? &stamps_of_a : &stamps_other, 1);
}

bool xl_gpu_stamp(struct xl_gpu *gpu, int64_t display_time, int64_t frame_id,
                  uint32_t session_id, bool gated, uint32_t thread_id)
{
	(void)display_time, (void)frame_id, (void)session_id, (void)gated, (void)thread_id;
	count_stamp(gpu->session);
	return true;
}

const XrBaseInStructure *xl_gl_find_binding(const XrSessionCreateInfo *info)
{
	const XrBaseInStructure *b = info->next;
	return b && b->type == XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR ? b : NULL;
}

struct xl_gl *xl_gl_create(XrSession session, const XrBaseInStructure *binding, char *why,
                           size_t why_size)
{
	(void)binding;
	if (gl_create_fails) {
		snprintf(why, why_size, "glQueryCounter is missing");
		return NULL;
	}
	note_create();
	struct xl_gl *gl = state_new(sizeof(*gl));
	if (!gl)
		return NULL;
	gl->session = session;
	gl->window_system = "GLX";
	return gl;
}

enum xl_gl_stamp_result xl_gl_stamp(struct xl_gl *gl, int64_t display_time, int64_t frame_id,
                                    uint32_t session_id, bool post)
{
	(void)display_time, (void)frame_id, (void)session_id, (void)post;
	count_stamp(gl->session);
	return XL_GL_STAMPED;
}

bool xl_gl_idle(struct xl_gl *gl)
{
	count_stamp(gl->session);
	return true;
}

void xl_gl_finish(struct xl_gl *gl, uint64_t timeout_ns)
{
	(void)gl, (void)timeout_ns;
}

void xl_gl_destroy(struct xl_gl *gl)
{
	state_free(gl, sizeof(*gl));
}

/* ---- the chain below, and what else xl_session.c calls */
static atomic_uintptr_t next_handle = 0x1000;

XRAPI_ATTR XrResult XRAPI_CALL xl_next_xrCreateSession(XrInstance instance,
                                                       const XrSessionCreateInfo *info,
                                                       XrSession *session)
{
	(void)instance, (void)info;
	*session = (XrSession)atomic_fetch_add(&next_handle, 0x10);
	return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL xl_next_xrDestroySession(XrSession session)
{
	(void)session;
	return XR_SUCCESS;
}

XRAPI_ATTR XrResult XRAPI_CALL xl_next_xrCreateVulkanInstanceKHR(
	XrInstance instance, const XrVulkanInstanceCreateInfoKHR *info, VkInstance *vk_instance,
	VkResult *vk_result)
{
	(void)instance, (void)info, (void)vk_instance, (void)vk_result;
	return XR_ERROR_FUNCTION_UNSUPPORTED;
}

XRAPI_ATTR XrResult XRAPI_CALL xl_next_xrCreateVulkanDeviceKHR(
	XrInstance instance, const XrVulkanDeviceCreateInfoKHR *info, VkDevice *vk_device,
	VkResult *vk_result)
{
	(void)instance, (void)info, (void)vk_device, (void)vk_result;
	return XR_ERROR_FUNCTION_UNSUPPORTED;
}

XrResult xl_gpu_device_create_instance(PFN_xrCreateVulkanInstanceKHR next, XrInstance instance,
                                       const XrVulkanInstanceCreateInfoKHR *info,
                                       VkInstance *vk_instance, VkResult *vk_result,
                                       bool want_props2, struct xl_gpu_device_note *note)
{
	(void)want_props2, (void)note;
	return next(instance, info, vk_instance, vk_result);
}

XrResult xl_gpu_device_create_device(PFN_xrCreateVulkanDeviceKHR next, XrInstance instance,
                                     const XrVulkanDeviceCreateInfoKHR *info,
                                     VkDevice *vk_device, VkResult *vk_result,
                                     bool want_timeline, struct xl_gpu_device_note *note)
{
	(void)want_timeline, (void)note;
	return next(instance, info, vk_device, vk_result);
}

__thread struct xl_ring_thread xl_ring_tls __attribute__((tls_model("initial-exec")));

bool xl_ring_pool_backed(void *pool)
{
	(void)pool;
	return true;
}

bool xl_thread_wait(bool (*done)(void *ctx), void *ctx, uint64_t timeout_ns, uint64_t step_ns)
{
	(void)timeout_ns, (void)step_ns;
	return done(ctx);
}

void xl_log(const char *fmt, ...)
{
	(void)fmt;
}

void xl_log_loud(const char *fmt, ...)
{
	(void)fmt;
}

static XRAPI_ATTR XrResult XRAPI_CALL next_end_frame(XrSession session, const XrFrameEndInfo *info)
{
	(void)session, (void)info;
	return XR_SUCCESS;
}

/* ---- the instance, and the sessions' create infos */
static struct xl_instance inst;
static struct xl_gpu_shared shared;
static XrGraphicsBindingVulkanKHR vk_binding = {.type = XR_TYPE_GRAPHICS_BINDING_VULKAN_KHR};
static XrBaseInStructure gl_binding = {.type = XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR};
static const XrFrameEndInfo end_info = {.type = XR_TYPE_FRAME_END_INFO, .displayTime = 1};

static int setup(void **state)
{
	(void)state;
	struct xl_control *ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		return -1;
	memset(&inst, 0, sizeof(inst));
	inst.pid = getpid(); /* created by this process, as xrCreateInstance notes */
	memset(&shared, 0, sizeof(shared));
	ctl->gpu = &shared;
	inst.ctl = ctl;
	inst.next.xrEndFrame = next_end_frame;
	pthread_mutex_init(&inst.gpu.lock, NULL);
	in_heap = false;
	atomic_store(&live_states, 0);
	atomic_store(&created_states, 0);
	atomic_store(&stamps_of_a, 0);
	atomic_store(&stamps_other, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pthread_mutex_destroy(&inst.gpu.lock);
	free(inst.ctl);
	return 0;
}

static XrSession create(bool gl)
{
	XrSessionCreateInfo info = {.type = XR_TYPE_SESSION_CREATE_INFO,
	                            .next = gl ? (const void *)&gl_binding : &vk_binding};
	XrSession s = XR_NULL_HANDLE;
	assert_int_equal(xl_session_create(&inst, (XrInstance)1, &info, &s), XR_SUCCESS);
	return s;
}

/* One recorded xrEndFrame's GPU step and one idle xrEndFrame of @p s. */
static void frame(XrSession s)
{
	stamp_gpu(&inst, s, &end_info, 1, 1, 1);
	atomic_store_explicit(&inst.gl_in_flight, true, memory_order_relaxed);
	end_frame_idle(&inst, s, &end_info);
}

/* B's frames and destroy never read A's state: with it unreadable, no fault. */
static void other_frames(bool gl)
{
	session_a = create(gl);
	XrSession b = create(gl);
	void *a_state = gl ? (void *)atomic_load(&inst.gpu.gl) : (void *)atomic_load(&inst.gpu.gpu);
	size_t size = gl ? sizeof(struct xl_gl) : sizeof(struct xl_gpu);
	assert_non_null(a_state);
	assert_int_equal(atomic_load(&created_states), 1);

	state_guard(a_state, size, true);
	frame(b);
	assert_int_equal(xl_session_destroy(&inst, b), XR_SUCCESS);
	state_guard(a_state, size, false);
	assert_int_equal(atomic_load(&stamps_other), 0);

	/* A's own frames are measured: a stamp, and (GL) a read-back while idle. */
	frame(session_a);
	assert_int_equal(atomic_load(&stamps_of_a), gl ? 2 : 1);
	assert_int_equal(xl_session_destroy(&inst, session_a), XR_SUCCESS);
	assert_int_equal(atomic_load(&live_states), 0);
	assert_null(atomic_load(&inst.gpu.gpu));
	assert_null(atomic_load(&inst.gpu.gl));
}

static void test_other_frames_vulkan(void **state)
{
	(void)state;
	other_frames(false);
}

/*
 * An OpenGL session whose GL state cannot be made gives the claim back:
 * a second session, while the first lives on, is measured.
 */
static void test_gl_failed_gives_back(void **state)
{
	(void)state;
	gl_create_fails = true;
	XrSession first = create(true);
	gl_create_fails = false;
	assert_null(atomic_load(&inst.gpu.gl));
	XrSession second = create(true);
	struct xl_gl *gl = atomic_load(&inst.gpu.gl);
	assert_non_null(gl);
	assert_true(gl->session == second);
	assert_int_equal(xl_session_destroy(&inst, first), XR_SUCCESS);
	assert_non_null(atomic_load(&inst.gpu.gl)); /* not the first's to end */
	assert_int_equal(xl_session_destroy(&inst, second), XR_SUCCESS);
	assert_null(atomic_load(&inst.gpu.gl));
	assert_int_equal(atomic_load(&live_states), 0);
}

/*
 * The instance ends (or the process exits) with an OpenGL session alive:
 * its GL state is freed, and the claim given back.
 */
static void test_gl_instance_end(void **state)
{
	(void)state;
	for (int exiting = 0; exiting <= 1; exiting++) {
		create(true);
		assert_non_null(atomic_load(&inst.gpu.gl));
		if (exiting)
			xl_session_exit_gpu(&inst);
		else
			xl_session_destroy_gpu(&inst);
		assert_null(atomic_load(&inst.gpu.gl));
		assert_int_equal(atomic_load(&live_states), 0);
		assert_null(atomic_load(&inst.gpu.session));
	}
}

static void test_other_frames_gl(void **state)
{
	(void)state;
	other_frames(true);
}

static void *create_thread(void *arg)
{
	XrSession *s = arg;
	*s = create(false);
	return NULL;
}

/* Two creations at once, the second while the first makes its state. */
static void test_one_claim(void **state)
{
	(void)state;
	XrSession first, second;
	pthread_t t;

	atomic_store(&second_entered, false);
	atomic_store(&creating, false);
	atomic_store(&hold_create, true);
	assert_int_equal(pthread_create(&t, NULL, create_thread, &first), 0);
	while (!atomic_load(&creating))
		usleep(100);
	second = create(false);
	atomic_store(&second_entered, true); /* the first goes on: the second is done */
	assert_int_equal(pthread_join(t, NULL), 0);
	atomic_store(&creating, false);

	assert_int_equal(atomic_load(&created_states), 1);
	xl_session_destroy(&inst, second);
	xl_session_destroy(&inst, first);
	assert_int_equal(atomic_load(&live_states), 0);
}

static atomic_int gates_opened;

/* The gate's stand-in: takes the token armed, as the real one does. */
void xl_gate_open(struct xl_gate *gate)
{
	if (atomic_exchange(&gate->armed, 0))
		atomic_fetch_add(&gates_opened, 1);
}

/*
 * Pre's gate armed for session A's frame: @p end_frame of B leaves it
 * armed, of A opens it; with nothing armed, it opens nothing.
 */
static void check_gate_opened_by(void (*end_frame)(XrSession s))
{
	struct xl_gate *gate = &inst.ctl->gpu->gate;

	session_a = create(false);
	XrSession b = create(false);
	atomic_store(&gates_opened, 0);
	atomic_store(&gate->armed, 0x1234);
	end_frame(b);
	assert_int_equal(atomic_load(&gate->armed), 0x1234);
	assert_int_equal(atomic_load(&gates_opened), 0);
	end_frame(session_a);
	assert_int_equal(atomic_load(&gate->armed), 0);
	assert_int_equal(atomic_load(&gates_opened), 1);
	end_frame(session_a);
	assert_int_equal(atomic_load(&gates_opened), 1);
	xl_session_destroy(&inst, b);
	xl_session_destroy(&inst, session_a);
	assert_int_equal(atomic_load(&live_states), 0);
}

static void gate_opened(XrSession s)
{
	open_gate(&inst, s);
}

/* Only a frame of the measured session opens the gate armed for its frame. */
static void test_gate(void **state)
{
	(void)state;
	check_gate_opened_by(gate_opened);
}

static void idle_frame(XrSession s)
{
	assert_int_equal(end_frame_idle(&inst, s, &end_info), XR_SUCCESS);
}

/* So does post's idle xrEndFrame (pre recorded the frame, post did not). */
static void test_idle_gate(void **state)
{
	(void)state;
	check_gate_opened_by(idle_frame);
}

static uint64_t frame_id(void)
{
	return atomic_load(&inst.frame_count);
}

static void wait_frames(int n)
{
	for (int i = 0; i < n; i++)
		xl_call_enter(&inst, XL_FN_xrWaitFrame);
}

/* A second session leaves the first one's frame ids going on. */
static void test_frame_ids(void **state)
{
	(void)state;
	XrSession a = create(false);
	wait_frames(3);
	XrSession b = create(false);
	assert_int_equal(frame_id(), 3);
	wait_frames(1);
	assert_int_equal(xl_session_destroy(&inst, a), XR_SUCCESS);
	assert_int_equal(frame_id(), 4);
	assert_int_equal(xl_session_destroy(&inst, b), XR_SUCCESS);
	XrSession c = create(false);
	assert_int_equal(frame_id(), 0);
	assert_int_equal(xl_session_destroy(&inst, c), XR_SUCCESS);
}

/*
 * A pipelined app: a game thread waits for frame N + 1 while the render
 * thread still begins and ends frame N; a third thread polls. Each call
 * has its frame (xl_call.h), not the last xrWaitFrame's begun.
 */
static void test_frame_ids_pipelined(void **state)
{
	(void)state;
	struct xl_ring_thread game = {0}, render = {0}, poll = {0};
	XrSession a = create(false);

	ON_THREAD(game, (xl_call_enter(&inst, XL_FN_xrWaitFrame), xl_call_wait_returned(&inst)));
	ON_THREAD(game, assert_int_equal(xl_call_frame(&inst), 1)); /* its xrLocateViews */
	ON_THREAD(render, xl_call_enter(&inst, XL_FN_xrBeginFrame));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1));
	/* The game thread is in xrWaitFrame for frame 2 (it returns after
	 * this xrBeginFrame) while the render thread ends frame 1. */
	ON_THREAD(game, xl_call_enter(&inst, XL_FN_xrWaitFrame));
	ON_THREAD(game, assert_int_equal(xl_call_frame(&inst), 2));
	ON_THREAD(render, xl_call_end_frame(&inst));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1)); /* a swapchain call after */
	ON_THREAD(poll, assert_int_equal(xl_call_frame(&inst), 1)); /* no frame of its own */
	ON_THREAD(game, xl_call_wait_returned(&inst));
	ON_THREAD(poll, assert_int_equal(xl_call_frame(&inst), 2));
	ON_THREAD(render, (xl_call_enter(&inst, XL_FN_xrBeginFrame), xl_call_end_frame(&inst)));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 2));
	assert_int_equal(xl_session_destroy(&inst, a), XR_SUCCESS);

	/* A new session counts again: a thread's frame of the last one is none of it. */
	XrSession b = create(false);
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 0));
	/* An xrEndFrame before the session's first xrBeginFrame (the runtime
	 * refuses it) is frame 0 too, not the last session's last begun. */
	struct xl_ring_thread early = {0};
	ON_THREAD(early, (xl_call_end_frame(&inst), assert_int_equal(xl_call_frame(&inst), 0)));
	ON_THREAD(game, (xl_call_enter(&inst, XL_FN_xrWaitFrame), xl_call_wait_returned(&inst)));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1));
	assert_int_equal(xl_session_destroy(&inst, b), XR_SUCCESS);
	xl_ring_tls = (struct xl_ring_thread){0};
}

/* What the next layer's xrWaitFrame answers (xl_frame.c's hook calls it). */
static XrResult wait_result = XR_SUCCESS;

XRAPI_ATTR XrResult XRAPI_CALL xl_next_xrWaitFrame(XrSession session, const XrFrameWaitInfo *info,
                                                   XrFrameState *frame_state)
{
	(void)session, (void)info, (void)frame_state;
	return wait_result;
}

/* An xrWaitFrame through its wrapper's entry step and its hook, answered @p r. */
static void wait_frame(XrSession s, XrResult r)
{
	wait_result = r;
	xl_call_enter(&inst, XL_FN_xrWaitFrame);
	assert_int_equal(xl_frame_wait(&inst, s, NULL, NULL), r);
}

/*
 * The runtime lets xrWaitFrame(N + 1) return as soon as xrBeginFrame(N)
 * began: xrEndFrame(N) may begin after that return, and is still frame N
 * (the last xrBeginFrame's), as are the render thread's calls after it.
 */
static void test_frame_ids_wait_returned_before_end(void **state)
{
	(void)state;
	struct xl_ring_thread game = {0}, render = {0};
	XrSession a = create(false);

	ON_THREAD(game, wait_frame(a, XR_SUCCESS));
	ON_THREAD(render, xl_call_enter(&inst, XL_FN_xrBeginFrame));
	ON_THREAD(game, wait_frame(a, XR_SUCCESS));
	ON_THREAD(game, assert_int_equal(xl_call_frame(&inst), 2));
	ON_THREAD(render, xl_call_end_frame(&inst));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1));
	ON_THREAD(render, xl_call_enter(&inst, XL_FN_xrBeginFrame));
	ON_THREAD(render, xl_call_end_frame(&inst));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 2));
	assert_int_equal(xl_session_destroy(&inst, a), XR_SUCCESS);
	xl_ring_tls = (struct xl_ring_thread){0};
}

/*
 * A wait that failed (it may return before the frame before it began)
 * gives no xrBeginFrame its id; and a thread's frame of an instance gone
 * (its state cleared: the count's start back to 0) is none of the next
 * instance's.
 */
static void test_frame_ids_failed_wait_new_instance(void **state)
{
	(void)state;
	struct xl_ring_thread game = {0}, render = {0};
	XrSession a = create(false);

	ON_THREAD(game, wait_frame(a, XR_SUCCESS));
	ON_THREAD(game, wait_frame(a, XR_ERROR_SESSION_LOST));
	ON_THREAD(render, xl_call_enter(&inst, XL_FN_xrBeginFrame));
	ON_THREAD(render, xl_call_end_frame(&inst));
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 1));
	for (int i = 0; i < 500; i++)
		ON_THREAD(render, wait_frame(a, XR_SUCCESS));
	assert_int_equal(xl_session_destroy(&inst, a), XR_SUCCESS);

	/* What xl_entry.c's clearing of the instance does to the count. */
	atomic_store(&inst.frame_count, 0);
	atomic_store(&inst.frame_waited, 0);
	atomic_store(&inst.frame_epoch, 0);
	XrSession b = create(false);
	ON_THREAD(render, assert_int_equal(xl_call_frame(&inst), 0));
	assert_int_equal(xl_session_destroy(&inst, b), XR_SUCCESS);
	xl_ring_tls = (struct xl_ring_thread){0};
	wait_result = XR_SUCCESS;
}

static atomic_bool stress_done;

/* Session B's frames, as fast as they come, until told to stop. */
static void *b_frames(void *arg)
{
	XrSession b = (XrSession)arg;
	while (!atomic_load_explicit(&stress_done, memory_order_relaxed))
		frame(b);
	return NULL;
}

#define STRESS_NS 500000000ll

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* A created and destroyed, Vulkan and OpenGL in turn, while B ends frames. */
static void test_stress(void **state)
{
	(void)state;
	pthread_t t;
	unsigned rounds = 0;

	in_heap = true;
	session_a = XR_NULL_HANDLE;
	atomic_store(&stress_done, false);
	/* B is created while another session is measured, so that A is
	 * measured each time it comes back. */
	XrSession first = create(false);
	XrSession b = create(false);
	assert_int_equal(xl_session_destroy(&inst, first), XR_SUCCESS);
	assert_int_equal(pthread_create(&t, NULL, b_frames, (void *)b), 0);
	/* At least 200 rounds, however slow a loaded or sanitized run is. */
	for (int64_t end = now_ns() + STRESS_NS; now_ns() < end || rounds < 200; rounds++) {
		XrSession a = create(rounds & 1);
		xl_session_destroy(&inst, a);
	}
	atomic_store(&stress_done, true);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(xl_session_destroy(&inst, b), XR_SUCCESS);
	assert_int_equal(atomic_load(&live_states), 0);
	assert_int_equal(atomic_load(&stamps_other), 0);
	in_heap = false;
}

/*
 * Samples still uncollected when xrDestroySession destroys the GPU state
 * are counted as lost in their recording session's gpu_overflow, on this
 * side's count (post's here), never the other side's.
 */
static void test_lost_counted(void **state)
{
	(void)state;
	XrSession s = create(false);
	uncollected = 3;
	uncollected_id = 5;
	assert_int_equal(xl_session_destroy(&inst, s), XR_SUCCESS);
	uncollected = 0;
	struct xl_session_info *info = xl_control_session(inst.ctl, 5);
	assert_int_equal(atomic_load(&info->gpu_overflow[XL_SIDE_POST]), 3);
	assert_int_equal(atomic_load(&info->gpu_overflow[XL_SIDE_PRE]), 0);
}

/* Usage: tl_two_sessions [PATTERN] (only the tests whose name matches). */
int main(int argc, char **argv)
{
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_other_frames_vulkan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_frames_gl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gl_failed_gives_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gl_instance_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_claim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_ids_pipelined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_ids_failed_wait_new_instance, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_frame_ids_wait_returned_before_end, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_gate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_gate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stress, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_counted, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
