/*
 * Recording control shared by the two sides of one process.
 *
 * The pre side creates one xl_control per instance and hands it to the
 * post side through a private entry point of post's xrGetInstanceProcAddr at
 * instance creation (see xl_side_pre.c and xl_side_post.c). Both hold a reference: the loader may
 * unload pre before post (it does at process exit), and post's writer must
 * still be able to finish its files and the merge. Everything the frame thread needs is one 64-bit word:
 *
 *   bits 0-3  requests (toggle, start, stop, arm), set by the request
 *             sources (the toggle signal, xl_signal.c) and by pre's
 *             writer thread (time limit, delay)
 *   bit  4    busy: a frame thread is performing a transition
 *   bit  5    active: recording
 *   bits 8-   the latest session id (1, 2, ...)
 *
 * Only pre's frame thread performs transitions, at the top of its
 * xrEndFrame; post reads the active bit later in the same call, so on one
 * thread both sides start and stop on the same frame. Every other wrapped
 * function, on either side, only reads the active bit. While idle each
 * side pays one relaxed load per call.
 */
#ifndef XL_CONTROL_H
#define XL_CONTROL_H

#include "xl_live.h"
#include "xl_marks.h"
#include "xl_settings.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define XL_REQ_TOGGLE (1u << 0)
#define XL_REQ_START (1u << 1)
#define XL_REQ_STOP (1u << 2)
#define XL_REQ_ARM (1u << 3) /* note the first frame's time (delayed start) */
#define XL_REQ_MASK 0xfu
#define XL_BUSY (1u << 4)
#define XL_ACTIVE (1u << 5)
#define XL_ID_SHIFT 8

/* Sessions whose start data is kept; a writer must catch up within this many. */
#define XL_SESSION_SLOTS 64

enum xl_side_index { XL_SIDE_PRE = 0, XL_SIDE_POST = 1 };

struct xl_gpu_shared;

enum xl_tag_state { XL_TAG_PENDING = 0, XL_TAG_READY, XL_TAG_FAILED };

/* What post's merge made of a session (XL_MERGE_NONE: no rows, no merge). */
enum xl_merge_state { XL_MERGE_NONE = 0, XL_MERGE_DONE, XL_MERGE_FAILED };

/* What both sides need to know about one recording session. */
struct xl_session_info {
	_Atomic uint32_t id;          /* which session this slot holds; written last */
	int64_t start_realtime_s;     /* CLOCK_REALTIME seconds, for the file tag */
	uint64_t start_mono_ns;       /* CLOCK_MONOTONIC, for XRLM_RECORD_S */
	_Atomic uint64_t dropped[2];  /* xrEndFrame records dropped (no room), per side */
	_Atomic uint64_t no_ring[2];  /* of dropped: the thread found no ring free */
	_Atomic uint64_t calls_dropped[2]; /* records of any function dropped, per side */
	_Atomic uint64_t gpu_overflow[2]; /* GPU samples skipped: no free slot */
	/*
	 * The session's file tag, chosen by pre's writer when it creates its
	 * file (the first free "<pid>-<time>[-<n>]"), then read by post's.
	 */
	_Atomic uint32_t tag_state;   /* enum xl_tag_state */
	int tag_error;                /* XL_TAG_FAILED: pre's errno, for post's message */
	char tag[64];
	/* Set by post's merge before it settles the session (see settled). */
	_Atomic uint32_t merge_state; /* enum xl_merge_state */
};

struct xl_control {
	/* Checked by post before use: both sides must be built from one tree. */
	uint32_t abi_size;
	atomic_uint refs;

	_Atomic uint64_t word;
	_Atomic uint64_t frames_recorded; /* in the active session, counted by pre */
	_Atomic uint64_t first_frame_ns;  /* set once when XL_REQ_ARM is handled */
	_Atomic uint32_t finished[2];     /* newest session each side's writer closed */
	/*
	 * Newest session each side's writer is wholly done with: files closed
	 * and the session-closed hook returned (post: merged, or failed to).
	 * What pre's control thread waits for before answering `stop`.
	 */
	_Atomic uint32_t settled[2];
	_Atomic uint64_t session_rows;    /* rows pre wrote in its open session */
	atomic_bool post_joined;          /* post monitors the instance too */
	_Atomic uint32_t signal_toggles;  /* toggle signals received, for pre's writer */

	/* Written at pre's instance creation, read-only afterwards. */
	uint64_t frame_limit;
	double time_limit_s;
	double delay_s;
	char output_dir[XL_PATH_MAX];
	char target_layer[512];
	char app_name[128];               /* XrApplicationInfo::applicationName */

	/* Touched only by pre's writer thread. */
	bool delay_fired;

	/* GPU state of both sides, allocated with the block (see xl_gpu.h):
	 * out of this header, so that its users need no Vulkan headers. */
	struct xl_gpu_shared *gpu;

	struct xl_session_info sessions[XL_SESSION_SLOTS];

	/* For the control socket (xl_ctl_server.h): watch and mark. */
	struct xl_live live;
	struct xl_marks marks;
};

/*
 * Creates the control block for a new instance (one reference), arming the
 * start mode the settings ask for. NULL when out of memory.
 */
struct xl_control *xl_control_create(const struct xl_settings *settings);

/*
 * Whether @p ctl comes from a build with this build's layout: post checks
 * the block pre hands it (only its first member may be read before).
 */
bool xl_control_same_build(const struct xl_control *ctl);

/* Takes another reference (the post side's). */
void xl_control_ref(struct xl_control *ctl);

/* Drops a reference; the last one frees the block. */
void xl_control_unref(struct xl_control *ctl);

/* The session id in a control word. */
static inline uint32_t xl_control_word_id(uint64_t word)
{
	return (uint32_t)(word >> XL_ID_SHIFT);
}

/* The newest session id that can receive no more records, from a control word. */
static inline uint32_t xl_control_ended_id(uint64_t word)
{
	uint32_t id = xl_control_word_id(word);
	return (word & XL_ACTIVE) ? id - 1 : id;
}

/* The slot holding session @p id's start data. */
static inline struct xl_session_info *xl_control_session(struct xl_control *ctl, uint32_t id)
{
	return &ctl->sessions[id % XL_SESSION_SLOTS];
}

uint32_t xl_control_pre_frame_slow(struct xl_control *ctl, uint64_t word);

/*
 * Pre's frame-thread entry: performs any pending transition and returns the
 * session this frame is recorded in, or 0. One relaxed load while idle.
 */
static inline uint32_t xl_control_pre_frame(struct xl_control *ctl)
{
	uint64_t word = atomic_load_explicit(&ctl->word, memory_order_relaxed);
	if (__builtin_expect((word & (XL_REQ_MASK | XL_BUSY | XL_ACTIVE)) == 0, 1))
		return 0;
	return xl_control_pre_frame_slow(ctl, word);
}

/*
 * The session being recorded, or 0: the entry of every wrapper but pre's
 * xrEndFrame (post's xrEndFrame gets the session pre decided on for this
 * frame). One relaxed load and a test.
 */
static inline uint32_t xl_control_recording(struct xl_control *ctl)
{
	uint64_t word = atomic_load_explicit(&ctl->word, memory_order_relaxed);
	if (__builtin_expect(!(word & XL_ACTIVE), 1))
		return 0;
	return xl_control_word_id(word);
}

/* Asks for a start, stop or arm at the next frame (async-signal-safe). */
static inline void xl_control_request(struct xl_control *ctl, unsigned request)
{
	atomic_fetch_or_explicit(&ctl->word, request, memory_order_relaxed);
}

/*
 * Flips the pending toggle (async-signal-safe): two toggles before the next
 * frame cancel out, as "start, then stop" with no frame between should.
 */
static inline void xl_control_toggle(struct xl_control *ctl)
{
	atomic_fetch_xor_explicit(&ctl->word, XL_REQ_TOGGLE, memory_order_relaxed);
}

/*
 * Stops recording now, off the frame thread (instance destruction, process
 * exit). Pending requests are dropped. Returns the word after the change.
 */
uint64_t xl_control_stop_now(struct xl_control *ctl);

/*
 * Pre's writer thread, every poll: turns XRLM_RECORD_DELAY_S and
 * XRLM_RECORD_S into start and stop requests.
 */
void xl_control_poll_timers(struct xl_control *ctl, uint64_t now_mono_ns);

#endif /* XL_CONTROL_H */
