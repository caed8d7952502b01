/*
 * The headless OpenXR test runtime: objects shared between its source files.
 *
 * Ownership: every object is owned by its entry in the handle table
 * (rt_handle.c); destroying a handle destroys its children first, then the
 * object itself through the destroy function given at creation.
 */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#define XR_USE_GRAPHICS_API_VULKAN 1
/* OpenGL's types need no GL header; the Xlib binding is rt_opengl.c's own. */
#define XR_USE_GRAPHICS_API_OPENGL 1
/* EGL's types too, for XR_MNDX_egl_enable's binding (rt_opengl.c). */
#include <EGL/egl.h>
#define XR_USE_PLATFORM_EGL 1
#include <vulkan/vulkan.h>
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define RT_SYSTEM_ID ((XrSystemId)1)
#define RT_VIEW_COUNT 2
#define RT_MAX_LAYERS XR_MIN_COMPOSITION_LAYERS_SUPPORTED
#define RT_SWAPCHAIN_IMAGES 3
#define RT_MAX_FORMATS 8
#define RT_DISPLAY_TIME_RING 8

#include "rt_log.h"

/* rt_time.c */

/* CLOCK_MONOTONIC in nanoseconds; also the runtime's XrTime. */
int64_t rt_now_ns(void);

/* Sleeps until the absolute CLOCK_MONOTONIC time @p deadline_ns. */
void rt_sleep_until_ns(int64_t deadline_ns);

/* Spins on the clock for @p duration_ns: simulated compositor CPU work. */
void rt_busy_wait_ns(int64_t duration_ns);

/* rt_knobs.c */

/* The fixture's environment knobs (see tests/README.md). */
struct rt_knobs {
	double frame_rate_hz;         /* XRTEST_FRAME_RATE, 0 = unpaced */
	uint64_t exit_after_frames;   /* XRTEST_EXIT_AFTER_FRAMES, 0 = never */
	uint64_t compositor_cpu_us;   /* XRTEST_COMPOSITOR_CPU_US */
	uint64_t compositor_gpu_us;   /* XRTEST_COMPOSITOR_GPU_US */
	bool compositor_gpu_wait;     /* XRTEST_COMPOSITOR_GPU_WAIT: wait for it in xrEndFrame */
	bool vk_minimal;              /* XRTEST_VK_MINIMAL: ask Vulkan for no extension */
	bool name_full;               /* XRTEST_RUNTIME_NAME_FULL: runtimeName without a NUL */
	/* XRTEST_VK_REFUSE_EXT: a Vulkan extension whose request fails
	 * xrCreateVulkanInstanceKHR/DeviceKHR (VK_ERROR_EXTENSION_NOT_PRESENT); "" = none */
	char vk_refuse_ext[VK_MAX_EXTENSION_NAME_SIZE];
};

/* Reads the knobs from the environment, one log line per bad value. */
void rt_knobs_read(struct rt_knobs *knobs);

/* rt_handle.c */

enum rt_handle_type {
	RT_HANDLE_INSTANCE = 1,
	RT_HANDLE_SESSION,
	RT_HANDLE_SPACE,
	RT_HANDLE_SWAPCHAIN,
	RT_HANDLE_ACTION_SET,
	RT_HANDLE_ACTION,
};

typedef void (*rt_destroy_fn)(void *obj);

/*
 * Registers @p obj under a fresh handle value, as a child of @p parent
 * (0 for none). Returns 0 when the table is full.
 */
uint64_t rt_handle_add(enum rt_handle_type type, void *obj, uint64_t parent, rt_destroy_fn destroy);

/*
 * rt_handle_add() for a create call: fills @p out, or destroys @p obj through
 * @p destroy and returns XR_ERROR_LIMIT_REACHED when the table is full.
 */
XrResult rt_handle_add_or_destroy(enum rt_handle_type type, void *obj, uint64_t parent,
                                  rt_destroy_fn destroy, uint64_t *out);

/*
 * The end of a create call: rt_handle_add_or_destroy(), then the new handle
 * into @p obj->handle (every object keeps its own) and into *@p out, the
 * app's output. Evaluates to the XrResult; on failure @p obj is destroyed.
 */
#define RT_HANDLE_PUBLISH(type, obj, parent, destroy, out)                                   \
	({                                                                                   \
		uint64_t h_;                                                                 \
		XrResult r_ = rt_handle_add_or_destroy(type, obj, parent, destroy, &h_);     \
		if (r_ == XR_SUCCESS)                                                        \
			*(out) = (obj)->handle = (__typeof__((obj)->handle))(uintptr_t)h_;   \
		r_;                                                                          \
	})

/*
 * A destroy call: XR_ERROR_HANDLE_INVALID unless @p handle is live and of
 * @p type, else rt_handle_destroy().
 */
XrResult rt_handle_destroy_as(uint64_t handle, enum rt_handle_type type);

/* The object behind @p handle if it is live and of @p type, else NULL. */
void *rt_handle_get(uint64_t handle, enum rt_handle_type type);

/* The parent handle given to rt_handle_add(), 0 if @p handle is not live. */
uint64_t rt_handle_parent(uint64_t handle);

/* Destroys the children of @p handle (depth first), then the object. */
void rt_handle_destroy(uint64_t handle);

#define RT_H(h) ((uint64_t)(uintptr_t)(h))

/*
 * Defines `XrResult fn(xr_type handle, obj_type **out)`: the object behind
 * @p handle if it is live and of @p handle_type, else XR_ERROR_HANDLE_INVALID.
 * One body for every object's lookup; @p qual is `static` or empty.
 */
#define RT_DEFINE_HANDLE_GET(qual, fn, xr_type, obj_type, handle_type)       \
	qual XrResult fn(xr_type handle, obj_type **out)                      \
	{                                                                     \
		*out = rt_handle_get(RT_H(handle), handle_type);              \
		return *out ? XR_SUCCESS : XR_ERROR_HANDLE_INVALID;           \
	}

/*
 * RT_DEFINE_HANDLE_GET() plus the first checks of the calls on the object:
 * `XrResult fn##_info(handle, info, type, out)`: the lookup, then
 * rt_check_struct(@p info, @p type), for a call that takes one structure;
 * `XrResult fn##_create(handle, info, type, result, out)`: the same, then
 * XR_ERROR_VALIDATION_FAILURE if @p result, the call's output, is NULL.
 */
#define RT_DEFINE_HANDLE_GET_INFO(fn, xr_type, obj_type, handle_type)                 \
	RT_DEFINE_HANDLE_GET(, fn, xr_type, obj_type, handle_type)                    \
	XrResult fn##_info(xr_type handle, const void *info, XrStructureType type,    \
	                   obj_type **out)                                            \
	{                                                                             \
		XrResult r = fn(handle, out);                                         \
		return r == XR_SUCCESS ? rt_check_struct(info, type) : r;             \
	}                                                                             \
	XrResult fn##_create(xr_type handle, const void *info, XrStructureType type,  \
	                     const void *result, obj_type **out)                      \
	{                                                                             \
		XrResult r = fn##_info(handle, info, type, out);                      \
		return r == XR_SUCCESS && !result ? XR_ERROR_VALIDATION_FAILURE : r;  \
	}

/* rt_event.c */

#define RT_EVENT_QUEUE_LEN 64

/* A fixed-size FIFO of events, owned by the instance. */
struct rt_event_queue {
	pthread_mutex_t lock;
	XrEventDataBuffer events[RT_EVENT_QUEUE_LEN];
	uint32_t head, count;
	bool lost;
};

/* Initialises an empty queue. */
void rt_event_queue_init(struct rt_event_queue *q);

/* Frees what rt_event_queue_init() set up. */
void rt_event_queue_fini(struct rt_event_queue *q);

/* Queues a copy of @p event (@p size bytes); drops it if the queue is full. */
void rt_event_push(struct rt_event_queue *q, const void *event, size_t size);

/* Drops every queued XrEventDataSessionStateChanged of @p session. */
void rt_event_drop_session(struct rt_event_queue *q, XrSession session);

/* rt_path.c */

/* Interned path strings; XrPath n is strings[n - 1]. */
struct rt_path_table {
	pthread_mutex_t lock;
	char **strings;
	uint32_t count, capacity;
};

/* Initialises an empty table. */
void rt_path_table_init(struct rt_path_table *t);

/* Frees every string and the table. */
void rt_path_table_fini(struct rt_path_table *t);

/* True if @p path is a path this table handed out. */
bool rt_path_valid(struct rt_path_table *t, XrPath path);

/* rt_instance.c */

/* One XrInstance. */
struct rt_instance {
	XrInstance handle;
	struct rt_knobs knobs;
	bool ext_vulkan_enable;
	bool ext_vulkan_enable2;
	bool ext_headless;
	bool ext_opengl_enable;        /* XR_KHR_opengl_enable (rt_opengl.c) */
	bool ext_egl_enable;           /* XR_MNDX_egl_enable (rt_opengl.c) */
	bool vk_requirements_queried;
	bool gl_requirements_queried;
	VkInstance vk_instance;        /* last one passed to xrGetVulkanGraphicsDevice*KHR */
	VkPhysicalDevice vk_physical;  /* what we answered for it */
	struct rt_event_queue events;
	struct rt_path_table paths;
	XrSession session;             /* the one live session, or XR_NULL_HANDLE */
};

/*
 * Looks up @p handle; returns XR_ERROR_HANDLE_INVALID if it is not a live
 * instance.
 */
XrResult rt_instance_get(XrInstance handle, struct rt_instance **out);

/* Checks that @p system_id is the one system this runtime offers. */
XrResult rt_instance_check_system(struct rt_instance *inst, XrSystemId system_id);

/* rt_instance_get() then rt_instance_check_system(): a system query's checks. */
XrResult rt_instance_get_system(XrInstance handle, XrSystemId system_id, struct rt_instance **out);

/*
 * rt_instance_get() then rt_check_struct(@p info, @p type): the first checks
 * of an instance call that takes one input or output structure.
 */
XrResult rt_instance_get_info(XrInstance handle, const void *info, XrStructureType type,
                              struct rt_instance **out);

/* rt_instance_get_info(), then XR_ERROR_VALIDATION_FAILURE if @p result is NULL. */
XrResult rt_instance_get_create(XrInstance handle, const void *info, XrStructureType type,
                                const void *result, struct rt_instance **out);

/* rt_vulkan.c */

/* What a session keeps of its Vulkan binding, plus the compositor's GPU work. */
struct rt_vk_session {
	VkInstance instance;
	VkPhysicalDevice physical;
	VkDevice device;
	VkQueue queue;
	uint32_t queue_family;
	float timestamp_period_ns;
	uint32_t timestamp_valid_bits;
	pthread_mutex_t lock;          /* the command pool and our submissions */
	VkCommandPool pool;
	VkCommandBuffer cmd[3];
	VkFence fence[3];
	bool fence_pending[3];
	uint32_t next_cmd;
	VkBuffer work_buffer;
	VkDeviceMemory work_memory;
	VkDeviceSize work_buffer_size;
	bool calibrated;
	double ns_per_byte;            /* measured cost of vkCmdFillBuffer */
	uint64_t work_bytes;           /* bytes filled per frame for the knob */
	VkFormat formats[RT_MAX_FORMATS];
	uint32_t format_count;
};

/* Sets up @p vk from the app's binding; checks it against @p inst. */
XrResult rt_vk_session_init(struct rt_vk_session *vk, struct rt_instance *inst,
                            const XrGraphicsBindingVulkanKHR *binding);

/* Destroys everything rt_vk_session_init() and the GPU work created. */
void rt_vk_session_fini(struct rt_vk_session *vk);

/*
 * Submits the compositor's GPU work of @p gpu_us microseconds on the app's
 * queue, and with @p wait waits for it (behind everything queued before
 * it); calibrates on first use. Only called from xrEndFrame.
 */
XrResult rt_vk_compositor_work(struct rt_vk_session *vk, uint64_t gpu_us, bool wait);

/*
 * Records @p record into a command buffer, submits it on the app's queue and
 * waits for it; for one-off work such as the swapchain's initial layouts.
 */
XrResult rt_vk_submit_and_wait(struct rt_vk_session *vk,
                               void (*record)(VkCommandBuffer cmd, void *ctx), void *ctx);

/* Finds a memory type in @p type_bits with @p props; UINT32_MAX if none. */
uint32_t rt_vk_memory_type(struct rt_vk_session *vk, uint32_t type_bits, VkMemoryPropertyFlags props);

/* rt_opengl.c: XR_KHR_opengl_enable with an Xlib/GLX or (XR_MNDX_egl_enable) EGL binding */

struct rt_gl_session;
struct rt_swapchain;

/*
 * Checks the app's XrGraphicsBindingOpenGLXlibKHR or XrGraphicsBindingEGLMNDX
 * (@p binding, told apart by its type) against
 * @p inst and keeps what a session needs of it in a new @p out.
 */
XrResult rt_gl_session_create(struct rt_instance *inst, const void *binding,
                              struct rt_gl_session **out);

/* Frees what rt_gl_session_create() made. */
void rt_gl_session_destroy(struct rt_gl_session *gl);

/* xrEnumerateSwapchainFormats of an OpenGL session (GL internal formats). */
XrResult rt_gl_enumerate_formats(uint32_t capacity, uint32_t *count_out, int64_t *formats);

/* The OpenGL checks of a swapchain's create info (format, sizes); context current. */
XrResult rt_gl_swapchain_check(const XrSwapchainCreateInfo *info);

/* Creates the swapchain's textures in the app's context, which must be current. */
XrResult rt_gl_swapchain_create_images(struct rt_swapchain *sc);

/* Deletes the textures if the context is current (else they die with it). */
void rt_gl_swapchain_destroy_images(struct rt_swapchain *sc);

/* xrEndFrame of an OpenGL session: submits the app's GL work, as a compositor must. */
void rt_gl_end_frame(struct rt_gl_session *gl);

/* Fills the app's XrSwapchainImageOpenGLKHR array (room already checked). */
XrResult rt_gl_enumerate_images(struct rt_swapchain *sc, XrSwapchainImageBaseHeader *images);

/* rt_session.c */

/* One XrSession. */
struct rt_session {
	XrSession handle;
	struct rt_instance *inst;
	bool headless;
	struct rt_vk_session vk;       /* unused when headless or OpenGL */
	struct rt_gl_session *gl;      /* OpenGL sessions only (rt_opengl.c) */
	pthread_mutex_t lock;          /* state and frame bookkeeping below */
	pthread_cond_t frame_cond;
	XrSessionState state;
	bool running;                  /* between xrBeginSession and xrEndSession */
	bool exit_requested;           /* EXITING follows xrEndSession */
	bool actions_attached;
	/* Frame loop (rt_frame.c). */
	uint64_t frames_waited, frames_begun, frames_ended;
	bool frame_in_progress;        /* begun, not yet ended */
	int64_t next_wake_ns;
	int64_t last_display_ns;
	int64_t display_ring[RT_DISPLAY_TIME_RING];
	uint32_t display_ring_next;
};

/* Looks up @p handle; XR_ERROR_HANDLE_INVALID if it is not a live session. */
XrResult rt_session_get(XrSession handle, struct rt_session **out);

/*
 * rt_session_get() then rt_check_struct(@p info, @p type): the first checks
 * of a session call that takes one input or output structure.
 */
XrResult rt_session_get_info(XrSession handle, const void *info, XrStructureType type,
                             struct rt_session **out);

/* rt_session_get_info(), then XR_ERROR_VALIDATION_FAILURE if @p result is NULL. */
XrResult rt_session_get_create(XrSession handle, const void *info, XrStructureType type,
                               const void *result, struct rt_session **out);

/* Moves to @p state and queues the XrEventDataSessionStateChanged; lock held. */
void rt_session_set_state(struct rt_session *sess, XrSessionState state);

/* Walks FOCUSED/VISIBLE/SYNCHRONIZED down to STOPPING (lock held). */
void rt_session_begin_exit(struct rt_session *sess);

/* rt_frame.c */

/* Resets the frame loop bookkeeping at xrBeginSession (lock held). */
void rt_frame_reset(struct rt_session *sess);

/* rt_swapchain.c */

/* One XrSwapchain. */
struct rt_swapchain {
	XrSwapchain handle;
	struct rt_session *sess;
	XrSwapchainCreateInfo info;    /* next pointer cleared */
	uint32_t image_count;
	VkImage images[RT_SWAPCHAIN_IMAGES];
	VkDeviceMemory memory[RT_SWAPCHAIN_IMAGES];
	uint32_t gl_textures[RT_SWAPCHAIN_IMAGES]; /* OpenGL sessions: texture names */
	bool layouts_done;             /* initial layout transition submitted */
	pthread_mutex_t lock;
	uint32_t next_acquire;
	uint32_t acquired[RT_SWAPCHAIN_IMAGES]; /* FIFO of acquired indices */
	uint32_t acquired_count;
	bool waited;                   /* acquired[0] has been waited on */
	bool ever_released;
};

/*
 * Checks that @p handle is a swapchain of @p sess with at least one
 * released image, as xrEndFrame needs; fills @p out.
 */
XrResult rt_swapchain_check_for_layer(struct rt_session *sess, XrSwapchain handle,
                                      struct rt_swapchain **out);

/* rt_space.c */

/* Checks that @p handle is a space belonging to @p sess. */
XrResult rt_space_check(struct rt_session *sess, XrSpace handle);

/* True if @p q has unit length, within the tolerance the spec allows. */
bool rt_quat_is_unit(const XrQuaternionf *q);

/* rt_action.c */

/* Checks the pose action and subaction path of a new action space. */
XrResult rt_action_check_space(struct rt_session *sess, XrAction action, XrPath subaction);

/* rt_util.c */

/*
 * The checks of the two-call idiom for an array of @p count elements that
 * the caller fills in place: writes @p count to @p count_out; sets @p fill
 * when @p out has room for all of them (capacity, not NULL) and the caller
 * should fill it. XR_SUCCESS with @p fill false: a size query.
 */
XrResult rt_two_call_begin(uint32_t capacity, uint32_t *count_out, const void *out,
                           uint32_t count, bool *fill);

/*
 * The two-call idiom for an array of @p count elements of @p elem_size:
 * writes @p count to @p count_out and copies when @p capacity allows.
 */
XrResult rt_two_call(uint32_t capacity, uint32_t *count_out, void *out, const void *src,
                     uint32_t count, size_t elem_size);

/* The two-call idiom for a NUL-terminated string. */
XrResult rt_two_call_string(uint32_t capacity, uint32_t *count_out, char *out, const char *src);

/*
 * The check every structure argument gets: XR_ERROR_VALIDATION_FAILURE
 * unless @p s is not NULL and its type member is @p type.
 */
XrResult rt_check_struct(const void *s, XrStructureType type);

/* rt_check_struct() for an optional structure: NULL passes. */
XrResult rt_check_struct_opt(const void *s, XrStructureType type);

/* True if @p s is a NUL-terminated string within @p max bytes and not empty. */
bool rt_name_ok(const char *s, size_t max);

#endif /* RT_INTERNAL_H */
