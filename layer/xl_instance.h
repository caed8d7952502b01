/*
 * The per-process state of one side: the XrInstance it monitors, the next
 * layer's functions, and the recording machinery. OpenXR allows one
 * instance at a time; a second concurrent one is forwarded unmonitored.
 */
#ifndef XL_INSTANCE_H
#define XL_INSTANCE_H

#include "xl_control.h"
#include "xl_fn.h"
#include "xl_gpu.h"
#include "xl_ring.h"
#include "xl_settings.h"
#include "xl_writer.h"

#include <stdbool.h>
#include <sys/types.h>
#include <unistd.h>

struct xl_instance {
	pid_t pid;           /* the process that created it: a forked child's copy is not its owner */
	struct xl_dispatch next; /* the next layer's functions */
	struct xl_settings settings;
	struct xl_control *ctl; /* pre: its own block; post: pre's, once attached */
	/* This side's OpenGL timestamps may be in flight: frames not recorded
	 * read them back (xl_side_frame.h). Beside ctl, which the idle
	 * xrEndFrame reads anyway: no other cache line for the test. */
	_Atomic bool gl_in_flight;
	struct xl_ring_pool rings; /* one ring per recording thread */
	bool rings_ready;
	struct xl_writer writer;
	struct xl_gpu_holder gpu;
	int dir_fd; /* the output directory, -1 when it cannot be used */
	/* xrWaitFrame calls in the current XrSession: the frame id (xl_call.h). */
	_Atomic uint64_t frame_count;
	/* The frame of the last xrWaitFrame that returned, and of the last
	 * xrBeginFrame: a pipelined app's render thread's (xl_call.h). */
	_Atomic uint64_t frame_waited;
	_Atomic uint64_t frame_begun;
	/* frame_count's current start (from xl_frame_epochs): a thread's
	 * frame of an earlier count (xl_ring_thread.frame) is no frame of this one. */
	_Atomic uint32_t frame_epoch;
	/* XrSessions created and not yet destroyed: frame_count starts again
	 * only with the first of them. */
	_Atomic uint32_t sessions_alive;
	char runtime[XR_MAX_RUNTIME_NAME_SIZE + 32]; /* "name major.minor.patch", for xrlm:init */
};

/* This side's one monitored instance. */
extern struct xl_instance xl_inst;

/*
 * Whether this process is not the one that created @p in: a child the
 * application forked, holding a copy of the instance. The instance's
 * threads (writer, merge, control socket) are not in it, and its
 * descriptors, control socket and files are the parent's: the entry points
 * that would touch them (xrDestroyInstance, xrCreateSession,
 * xrDestroySession) only call down the chain there. A getpid() system call:
 * not for the frame path, which in a child only fills the child's copy of
 * the rings (no thread drains them; the calls are dropped as ring full).
 */
static inline bool xl_instance_foreign(const struct xl_instance *in)
{
	return in->pid != getpid();
}

/* The layer identity of this build (xl_side_pre.c or xl_side_post.c). */
struct xl_side {
	enum xl_side_index index;
	const char *name;         /* "pre" / "post" */
	const char *layer_name;   /* XR_APILAYER_XRLM_monitor_<side> */
	const char *partner_name; /* the other side's layer name */
};
extern const struct xl_side xl_side;

/*
 * Side-specific part of xrCreateApiLayerInstance, before forwarding: checks
 * the chain and sets up (pre) or finds (post) the control block. Returns
 * whether this instance is to be monitored.
 */
bool xl_side_before_create(struct xl_instance *in, const XrApiLayerCreateInfo *info);

/*
 * Whether this side waits for the process's one monitored instance to be
 * free when another creation holds it (two loaders creating instances at
 * once): post does when pre handed it a control block on this thread, so
 * that a chain pre monitors is monitored by post too, however briefly
 * another chain's post holds the claim to say why it records nothing.
 */
bool xl_side_waits_for_claim(void);

/*
 * The instance being created on this thread is passed through, not
 * monitored (its claim timed out, or this side is disabled or could not
 * set up): post lets go of the control block pre handed it for this
 * creation, which would otherwise stay in the thread's handoff until its
 * next instance creation (and be taken by that one, should pre hand over
 * none then).
 */
void xl_side_pass_through(void);

/*
 * Side-specific part after the chain created the instance from @p create
 * (pre: checks that post monitors it too, installs the signal, starts the
 * control socket). False: do not monitor it.
 */
bool xl_side_after_create(struct xl_instance *in, const XrInstanceCreateInfo *create);

/* Side-specific part of xrDestroyInstance, before forwarding. */
void xl_side_before_destroy(struct xl_instance *in);

/*
 * Side-specific part of the end of monitoring, after the chain destroyed
 * the instance or at process exit (pre: the control socket goes).
 */
void xl_side_end(struct xl_instance *in);

/* The session-closed hook for the writer (post: merge), or NULL. */
void (*xl_side_session_closed(void))(void *ctx, uint32_t id, const char *tag, int dir_fd);

/*
 * Post answers this name from its xrGetInstanceProcAddr, so that pre can
 * hand it the control block before instance creation reaches post. It is
 * not an OpenXR function name: nothing else in the chain ever asks for it.
 * Here, beside the detach, not in xl_side_frame.h: a file that needs only
 * the handoff (tests/layer/tl_handoff.c) must not take that header's
 * static functions, which an -O0 build emits unused, with their
 * references to xl_gl.c.
 */
#define ATTACH_PROC_NAME "xrlmPrivateAttachControl"
typedef void (*xl_attach_fn)(struct xl_control *ctl);

/*
 * Post's private entry point that pre calls once its instance creation is
 * over, on the creating thread: post lets go of a control block pre handed
 * it that post's creation never took (the layer between them failed
 * xrCreateInstance without calling down). A name of its own, not a NULL
 * block to the attach: a post of an older build does not have it.
 */
#define DETACH_PROC_NAME "xrlmPrivateDetachControl"
typedef void (*xl_detach_fn)(void);

/* Answers side-private names in xrGetInstanceProcAddr; false if @p name is not one. */
bool xl_side_private_proc(const char *name, PFN_xrVoidFunction *function);

#endif /* XL_INSTANCE_H */
