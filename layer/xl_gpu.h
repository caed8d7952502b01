/*
 * GPU timestamps on the application's queue: one side's half of the GPU
 * sandwich, for one XrSession with a Vulkan binding.
 *
 * A small ring of slots, each with a pre-recorded command buffer (reset one
 * query, write one timestamp at BOTTOM_OF_PIPE) and a fence. The frame
 * thread only submits a free slot's command buffer; the writer thread polls
 * fences without blocking, reads the query with its availability bit and
 * frees the slot. A slot is never reset while pending, and nothing on the
 * frame thread waits. Nothing but the timestamp itself is added to the
 * queue between pre's and post's timestamps.
 *
 * Some drivers (lavapipe) block in vkGetQueryPoolResults until the queue
 * drains, even for a query known to be available: with the gate closed the
 * writer can then wait for it. That is why the gate's watchdog runs on a
 * thread of its own, which makes no Vulkan call but the semaphore signal.
 *
 * Gated mode (pre side): pre's timestamp also waits on a gate that post
 * opens from the host at its first line, right after submitting its own
 * timestamp, so the target's work and both timestamps run back to back on
 * the GPU (see xl_gate.h). With the event gate each slot has its own
 * VkEvent, waited in its command buffer, set by post (or the watchdog),
 * and reset by the writer once the slot's fence has signalled.
 *
 * Bracket correction (pre side): even with nothing between them, the two
 * timestamps are some microseconds apart (the end of one submission and
 * the start of the next), and each submission of the target's adds its
 * own boundaries. So at the session's start and every
 * XL_GPU_BRACKET_PERIOD_NS after (see below), pre also submits, just
 * before its own timestamp and in the frame's mode, the same sandwich
 * around an empty submission of its own (A: timestamp; E: timestamp, a
 * 64 KiB fill of device memory, 64 bytes written for the host, timestamp;
 * B: timestamp; gated like the frame). The writer reads (B - A) - (E's own span), what a
 * submission adds to the bracket beyond what it measures itself, and
 * writes the median of the last few into pre's GPU file before the rows
 * it applies to; the merge
 * subtracts it. Only the three submissions happen on the frame thread
 * (the queue belongs to xrEndFrame there: Vulkan forbids submitting to it
 * from another thread meanwhile); they are recorded once at creation, and
 * read back by the writer.
 */
#ifndef XL_GPU_H
#define XL_GPU_H

#include "xl_bracket_track.h"
#include "xl_gate.h"
#include "xl_gpu_device.h"
#include "xl_vk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "xl_openxr.h"

#define XL_GPU_SLOTS 32
/*
 * Pre measures the bracket of an empty submission on the session's first
 * frame, then every XL_GPU_BRACKET_START_NS until it has XL_BRACKET_WINDOW
 * measurements, then every XL_GPU_BRACKET_PERIOD_NS; what it writes is the
 * median of the last XL_BRACKET_WINDOW measurements (xl_bracket_track.h).
 * One submission's latency can be far off, on a loaded CPU especially, and
 * such delays come in bursts (lavapipe under a parallel test run: 1-4.5 ms
 * on two or three consecutive frames against ~0.4 ms): measurements on
 * consecutive frames would share one burst, so the first ones are spread
 * over the session's first ~0.4 s. A measurement off the median (the GPU's
 * clocks changed, or a stray one) brings the next ones back to the start's
 * pace, so that a step in the bracket is followed within
 * XL_GPU_BRACKET_PERIOD_NS and a few XL_GPU_BRACKET_START_NS.
 */
#define XL_GPU_BRACKET_PERIOD_NS 500000000ull
#define XL_GPU_BRACKET_START_NS 50000000ull

/* One finished timestamp, as the GPU CSV records it. */
struct xl_gpu_sample {
	int64_t display_time; /* a bracket measurement's: the frame it came just before */
	int64_t frame_id;     /* the frame's id (xl_call.h), as its xrEndFrame record has it */
	uint64_t ticks;      /* masked to timestampValidBits */
	float period_ns;     /* VkPhysicalDeviceLimits::timestampPeriod */
	bool valid;
	bool gate_tripped;   /* the watchdog opened the gate on this frame */
	bool bracket;        /* not a frame: a bracket measurement (bracket_ns) */
	uint8_t valid_bits;  /* ticks wrap at 2^valid_bits (u_ticks.h); 64: never */
	uint32_t session_id;
	int64_t bracket_ns;  /* what an empty submission's sandwich read, ns */
};

/* One GPU-to-CLOCK_MONOTONIC correlation (VK_EXT_calibrated_timestamps). */
struct xl_gpu_calibration {
	uint64_t gpu_ticks;
	uint64_t monotonic_ns;
	uint64_t max_deviation_ns;
};

struct xl_gpu_slot {
	atomic_uint state;       /* enum in xl_gpu.c */
	uint32_t session_id;
	int64_t display_time;
	int64_t frame_id;
	atomic_bool invalid;     /* set by the gate's watchdog */
	VkCommandBuffer cmd;
	VkFence fence;
};

/* Pre's bracket measurement: three pre-recorded submissions, one fence. */
struct xl_gpu_bracket {
	VkCommandBuffer cmd[3]; /* A: wait, reset, timestamp; E: timestamp, writes, timestamp; B: timestamp */
	VkFence fence;          /* on B */
	VkFence e_fence;        /* on E: a target's submission signals one too */
	/* What E writes, as a target's work does: device memory, and a few
	 * bytes made visible to the host (xl_gpu.c says why). */
	VkBuffer buffer[2];
	VkDeviceMemory memory[2];
	VkEvent event;          /* A waits for it; set after B's submit, or before A's */
	atomic_uint state;      /* SLOT_FREE / SLOT_SUBMITTED (xl_gpu.c) */
	uint32_t before;        /* the frame slot (head) it was submitted just before */
	uint32_t session_id;
	uint64_t due_ns;        /* frame thread: when the next one is due */
	uint64_t last_ns;       /* frame thread: when the last one was submitted */
	uint32_t submitted;     /* frame thread: how many so far */
	/* Writer to frame thread: until then, one every XL_GPU_BRACKET_START_NS. */
	_Atomic uint64_t fast_until_ns;
	bool broken;            /* a submission failed: no more of them */
	uint8_t broken_sent;    /* of a broken one's A, E, B: how many were submitted (never collected) */
	struct xl_bracket_track track; /* writer: the measurements */
};

/* The GPU state both sides of a process share, inside the control block. */
struct xl_gpu_shared {
	struct xl_gpu_device_note vk_note; /* what pre learned of the device (enable2) */
	atomic_bool gated;                 /* the current XrSession runs in gated mode */
	struct xl_gate gate;
};

struct xl_gpu {
	struct xl_vk vk;
	XrSession session;
	VkDevice device;
	VkPhysicalDevice physical_device;
	VkQueue queue;
	VkQueryPool pool;
	VkCommandPool cmd_pool;
	struct xl_gpu_slot slots[XL_GPU_SLOTS];
	VkEvent events[XL_GPU_SLOTS]; /* the event gate's, one per slot; else null */
	struct xl_gpu_bracket bracket; /* pre only: null fence on post */
	atomic_uint head;          /* next slot to submit (written by the frame thread) */
	uint32_t tail;             /* next slot to read (writer thread) */
	uint64_t valid_mask;       /* u_ticks_mask(valid_bits) */
	unsigned valid_bits;       /* timestampValidBits: the ticks wrap at 2^valid_bits */
	float period_ns;
	struct xl_gate *gate;      /* pre in gated mode; NULL otherwise */
	struct xl_gate_watchdog watchdog; /* runs with a gate */
	bool calibrated;           /* GetCalibratedTimestamps may be used: the device lists both domains */
	atomic_int submit_error;   /* first failed VkResult, for the writer to log */
};

/* What the session's creator knows about the device (see xl_gpu_device). */
struct xl_gpu_params {
	PFN_vkGetInstanceProcAddr gipa; /* NULL: use the loader in the process */
	bool timeline;                  /* timeline semaphores enabled on the device */
	bool timeline_khr;              /* ...through VK_KHR_timeline_semaphore */
	bool calibrated;                /* VK_EXT_calibrated_timestamps enabled */
	enum xl_gate_kind gate_kind;    /* with a gate */
	bool bracket;                   /* measure the bracket (pre) */
};

/*
 * The side's current stamper, shared by the XrSession hooks (create,
 * destroy), the frame threads (stamp) and the writer thread (collect,
 * watchdog). One XrSession at a time is measured: @p session is its
 * handle, claimed (compare-and-swap from XR_NULL_HANDLE) before its state
 * is made and given back only after that state is freed, so a non-null
 * @p gpu or @p gl always belongs to it. The writer reads the pointers under
 * @p lock, which taking them out also holds. A frame thread takes no lock:
 * it compares its own session's handle with @p session first
 * (xl_gpu_holder_measures()) and touches the state only when they match.
 * Another session's frame thread may run while the measured session is
 * destroyed and its state freed; the measured session's own frames may
 * not (OpenXR: xrDestroySession is externally synchronized with every use
 * of the session), so a frame thread that matched finds the state alive
 * until it returns.
 */
struct xl_gl;
struct xl_gpu_holder {
	pthread_mutex_t lock;
	_Atomic(XrSession) session; /* the measured session, or XR_NULL_HANDLE */
	struct xl_gpu *_Atomic gpu;
	struct xl_gl *_Atomic gl;  /* OpenGL sessions instead (xl_gl.h) */
};

/*
 * Whether @p session is the one @p h measures: the only check a frame
 * thread makes before it loads @p h's pointers. Compares handles and
 * never dereferences the state, which may belong to another session being
 * destroyed on another thread. Relaxed is enough: the frames of @p session
 * begin after its xrCreateSession returned (the application's own
 * synchronization orders the claim and the state's publication before
 * them), and end before its xrDestroySession begins.
 */
static inline bool xl_gpu_holder_measures(struct xl_gpu_holder *h, XrSession session)
{
	XrSession measured = atomic_load_explicit(&h->session, memory_order_relaxed);
	/* A null handle (the application's error) never matches "none". */
	return measured == session && session != XR_NULL_HANDLE;
}

/*
 * Claims @p h for @p session before any of its state is made: false when
 * another session holds it. Two sessions created at once can then never
 * both make state (and one leak it, with its watchdog thread).
 */
static inline bool xl_gpu_holder_claim(struct xl_gpu_holder *h, XrSession session)
{
	XrSession none = XR_NULL_HANDLE;
	return atomic_compare_exchange_strong(&h->session, &none, session);
}

/*
 * Gives @p h back once the measured session's state is out of it and
 * freed. Release: the next claimant's session sees both pointers null
 * until it publishes its own.
 */
static inline void xl_gpu_holder_release(struct xl_gpu_holder *h)
{
	atomic_store_explicit(&h->session, XR_NULL_HANDLE, memory_order_release);
}

/*
 * Creates the timestamp machinery for @p session on the binding's device and
 * queue family. With @p gate non-NULL (pre side, gated mode) it also creates
 * the gate of params->gate_kind (the slots' events, or the timeline
 * semaphore) and fills in @p gate. On failure returns NULL after writing a
 * reason into @p why.
 */
struct xl_gpu *xl_gpu_create(XrSession session, const XrGraphicsBindingVulkanKHR *binding,
                             const struct xl_gpu_params *params, struct xl_gate *gate,
                             char *why, size_t why_size);

/*
 * Opens an armed gate, waits (bounded) for every submission of ours still
 * on the GPU, then destroys every Vulkan object. Objects the GPU may still
 * use after the wait (it timed out, or a broken bracket's submission has
 * no fence to tell) are left to the application's device instead, with
 * one log line; a lost device's are destroyed.
 */
void xl_gpu_destroy(struct xl_gpu *gpu);

/*
 * Waits up to @p timeout_ns for the writer to collect every submitted
 * timestamp (it polls the GPU every few ms). Not on the frame thread; never
 * touches a fence the writer may be resetting.
 */
void xl_gpu_drain(struct xl_gpu *gpu, uint64_t timeout_ns);

/*
 * Opens an armed gate, then frees the host memory only (the device is gone
 * or about to be), and gives back the loader's reference.
 */
void xl_gpu_abandon(struct xl_gpu *gpu);

/*
 * Frame thread: submits a timestamp for the frame shown at @p display_time,
 * whose id is @p frame_id, on the application's queue, behind the gate
 * when @p gated (@p thread_id: the calling thread, for the watchdog). Returns false when no slot is free (the caller counts
 * a gpu_ring_overflow) or the submission failed; after one failure it
 * submits nothing more and returns false at once.
 */
bool xl_gpu_stamp(struct xl_gpu *gpu, int64_t display_time, int64_t frame_id,
                  uint32_t session_id, bool gated, uint32_t thread_id);

/*
 * Writer thread: hands each finished sample, in submission order, to
 * @p emit (a bracket measurement before the frame it was submitted with), stopping at the first unfinished one or the first belonging to
 * a session after @p max_session. Returns true if it stopped at an
 * unfinished sample of a session up to @p max_session (more will come).
 */
bool xl_gpu_collect(struct xl_gpu *gpu, uint32_t max_session,
                        void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx);

/*
 * Calls @p lost with @p ctx and the session of each frame sample still on
 * the GPU or not yet collected: what xl_gpu_destroy() will throw away.
 * Only once no other thread collects (the writer let go of @p gpu).
 */
void xl_gpu_each_uncollected(const struct xl_gpu *gpu, void (*lost)(void *ctx, uint32_t session_id),
                             void *ctx);

/* Writer thread: how many of session @p session_id's samples are still on the GPU. */
unsigned xl_gpu_pending(const struct xl_gpu *gpu, uint32_t session_id);

/*
 * Writer thread: the bracket correction in effect now (the median pre's
 * last gpu_bracket_ns line gave) into *@p ns; false before the first
 * measurement, and on post. For a recording that starts between two
 * measurements: its file must say it before its first row.
 */
bool xl_gpu_bracket_now(const struct xl_gpu *gpu, int64_t *ns);

/* Writer thread: one GPU/CPU clock correlation; false if unavailable. */
bool xl_gpu_calibrate(struct xl_gpu *gpu, struct xl_gpu_calibration *out);

#endif /* XL_GPU_H */
