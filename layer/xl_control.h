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
 *   bit  6    forced stop: a stop that could not wait for the busy frame
 *             thread (stopped mid-transition: in a signal handler, or one
 *             that called exit()); only with busy. The session is over
 *             for every reader, and the frame thread, should it ever
 *             return, publishes its transition stopped.
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
#define XL_FORCE_STOP (1u << 6)
#define XL_ID_SHIFT 8

/*
 * How long anyone but the frame thread waits for its transition (XL_BUSY)
 * to end: nanoseconds normally; a thread stopped inside it (a signal
 * handler that blocks, or calls exit() and runs the layers' destructors on
 * that very stack) never ends it. As xl_signal.c's drain: bounded.
 */
#define XL_BUSY_WAIT_NS 100000000ull

/* Sessions whose start data is kept; a writer must catch up within this many. */
#define XL_SESSION_SLOTS 64

enum xl_side_index { XL_SIDE_PRE = 0, XL_SIDE_POST = 1 };

struct xl_gpu_shared;

/*
 * Where a session's file tag stands: pre's writer settles it once, for
 * every session that starts, as soon as it knows; post's waits for that
 * before it makes its own files under the tag.
 */
enum xl_tag_state {
	XL_TAG_PENDING = 0,
	XL_TAG_READY,  /* pre made its file under the tag */
	XL_TAG_FAILED, /* pre could not make its file (its errno in the state word) */
	XL_TAG_NONE,   /* pre has no file: none of the session's records reached its
	                * writer (all dropped), or it has no usable directory */
};

/*
 * A slot's state word (struct xl_session_info::state): which session the
 * slot holds and where that session's tag stands, in one word, so that no
 * side takes one session's tag for another's when the slot is reused.
 */
#define XL_SLOT_TAG_MASK 0x3ull        /* enum xl_tag_state */
#define XL_SLOT_TOGGLE_START (1ull << 2) /* a toggle (the signal) started the session */
#define XL_SLOT_TOGGLE_STOP (1ull << 3)  /* a toggle stopped it */
#define XL_SLOT_MERGE_SHIFT 4          /* enum xl_merge_state, bits 4-5 */
#define XL_SLOT_MERGE_MASK (0x3ull << XL_SLOT_MERGE_SHIFT)
/* A side's files of the session could not be written (or the directory was
 * deleted): nothing to merge; the errno (ENOENT: deleted) in bits 8-31. */
#define XL_SLOT_LOST (1ull << 6)
#define XL_SLOT_ERRNO_SHIFT 8          /* XL_TAG_FAILED, XL_SLOT_LOST: the errno, bits 8-31 */
#define XL_SLOT_ERRNO_MASK (0xffffffull << XL_SLOT_ERRNO_SHIFT)
#define XL_SLOT_ID_SHIFT 32            /* the session id; 0 while the slot is refilled */

/* A session's tag: "<pid>-<YYYYmmddTHHMMSS>[-<n>]" and its NUL. */
#define XL_TAG_MAX 64

/* What post's merge made of a session (XL_MERGE_NONE: no rows, no merge;
 * XL_MERGE_LOST: its files, a side's at least, are lost: XL_SLOT_LOST). */
enum xl_merge_state { XL_MERGE_NONE = 0, XL_MERGE_DONE, XL_MERGE_FAILED, XL_MERGE_LOST };

/*
 * What both sides need to know about one recording session.
 *
 * Pre's frame thread refills a slot for a new session whenever one starts,
 * whoever still reads it: a writer that fell XL_SESSION_SLOTS sessions
 * behind finds a later session there. So every field but the counters the
 * frame threads add to is read through the functions below, which read it
 * with acquire and then check that the state word still names the session:
 * the slot's writers store with release, so a read that saw a later
 * session's value also sees that session's state word.
 */
struct xl_session_info {
	_Atomic uint64_t state;       /* XL_SLOT_*: the session id and its tag's state */
	_Atomic int64_t start_realtime_s; /* CLOCK_REALTIME seconds, for the file tag */
	_Atomic uint64_t start_mono_ns;   /* CLOCK_MONOTONIC, for XRLM_RECORD_S */
	_Atomic uint64_t dropped[2];  /* xrEndFrame records dropped (no room), per side */
	_Atomic uint64_t no_ring[2];  /* of dropped: the thread found no ring free */
	_Atomic uint64_t calls_dropped[2]; /* records of any function dropped, per side */
	_Atomic uint64_t gpu_overflow[2]; /* GPU samples skipped: no free slot */
	/* XL_TAG_READY: the tag pre's writer chose when it created its file
	 * (the first free "<pid>-<time>[-<n>]"), eight bytes a word. */
	_Atomic uint64_t tag[XL_TAG_MAX / 8];
	/* What post's merge made of the session is in the state word
	 * (XL_SLOT_MERGE_*), set before it settles the session (see settled). */
};

/* The drop counts of one side of a session (its footers' numbers). */
struct xl_session_counts {
	uint64_t dropped;       /* xrEndFrame records: the frames file's */
	uint64_t no_ring;       /* of dropped: the thread found no ring free */
	uint64_t calls_dropped; /* records of any function: the calls file's */
	uint64_t gpu_overflow;  /* GPU samples: the GPU file's */
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
	_Atomic uint64_t session_rows;    /* frames pre recorded in its open session (see no_files) */
	/*
	 * The last time a side's files failed for lack of space (ENOSPC,
	 * EDQUOT): CLOCK_MONOTONIC ns, 0 none; the bytes then free on the
	 * directory's filesystem, and the errno. Pre makes no session's files
	 * until space is freed or a while has passed (xl_writer_files.c).
	 */
	_Atomic uint64_t nospace_ns;
	_Atomic uint64_t nospace_free;
	atomic_int nospace_errno;
	atomic_bool post_joined;          /* post monitors the instance too */

	/* Written at pre's instance creation, read-only afterwards. */
	uint64_t frame_limit;
	double time_limit_s;
	double delay_s;
	char output_dir[XL_PATH_MAX];
	/* Pre's copy of the output directory's descriptor, or -1: where the
	 * directory is now, should it be renamed (xl_control_output_dir()). */
	int dir_fd;
	char target_layer[512];
	char app_name[128];               /* XrApplicationInfo::applicationName */
	bool no_files;                    /* XRLM_TRACE lacks csv: sessions go to the trace alone */

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

/*
 * Keeps a copy of the output directory's descriptor @p dir_fd (-1: none),
 * for xl_control_output_dir(). At instance creation, before any thread
 * reads the block.
 */
void xl_control_set_dir(struct xl_control *ctl, int dir_fd);

/*
 * The output directory's path now, into @p out (or output_dir, where it
 * cannot be looked up): a directory renamed while the application runs
 * is named by its new path. Not on the frame thread (a /proc lookup).
 */
const char *xl_control_output_dir(const struct xl_control *ctl, char *out, size_t out_size);

/* The session id in a control word. */
static inline uint32_t xl_control_word_id(uint64_t word)
{
	return (uint32_t)(word >> XL_ID_SHIFT);
}

/* Whether a control word has a session recording (not one a forced stop ended). */
static inline bool xl_control_word_active(uint64_t word)
{
	return (word & (XL_ACTIVE | XL_FORCE_STOP)) == XL_ACTIVE;
}

/* The newest session id that can receive no more records, from a control word. */
static inline uint32_t xl_control_ended_id(uint64_t word)
{
	uint32_t id = xl_control_word_id(word);
	return xl_control_word_active(word) ? id - 1 : id;
}

/* The slot holding session @p id's start data. */
static inline struct xl_session_info *xl_control_session(struct xl_control *ctl, uint32_t id)
{
	return &ctl->sessions[id % XL_SESSION_SLOTS];
}

/* The session id in a slot's state word. */
static inline uint32_t xl_slot_id(uint64_t state)
{
	return (uint32_t)(state >> XL_SLOT_ID_SHIFT);
}

/* The tag's state in a slot's state word. */
static inline enum xl_tag_state xl_slot_tag_state(uint64_t state)
{
	return (enum xl_tag_state)(state & XL_SLOT_TAG_MASK);
}

/* Pre's errno in the state word of a slot whose tag failed. */
static inline int xl_slot_errno(uint64_t state)
{
	return (int)((state & XL_SLOT_ERRNO_MASK) >> XL_SLOT_ERRNO_SHIFT);
}

/* Session @p id's state word; its id is another session's when the slot was reused. */
static inline uint64_t xl_control_slot_state(struct xl_control *ctl, uint32_t id)
{
	return atomic_load_explicit(&xl_control_session(ctl, id)->state, memory_order_acquire);
}

/*
 * Session @p id's start times into @p realtime_s and @p mono_ns (either
 * may be NULL). False when its slot holds another session.
 */
bool xl_control_session_start(struct xl_control *ctl, uint32_t id, int64_t *realtime_s,
                              uint64_t *mono_ns);

/* Side @p side's drop counts of session @p id; false when its slot holds another session. */
bool xl_control_session_counts(struct xl_control *ctl, uint32_t id, enum xl_side_index side,
                               struct xl_session_counts *out);

/*
 * Pre's writer: settles session @p id's tag, once: XL_TAG_READY with its
 * @p tag, XL_TAG_FAILED with pre's @p err, or XL_TAG_NONE. False, and
 * nothing changed, when its slot holds another session (or the tag was
 * settled already).
 */
bool xl_control_settle_tag(struct xl_control *ctl, uint32_t id, enum xl_tag_state state,
                           int err, const char *tag);

/*
 * Session @p id's tag into @p out (XL_TAG_MAX bytes); false, with "" in
 * @p out, until pre settled it as ready, or when its slot holds another session.
 */
bool xl_control_session_tag(struct xl_control *ctl, uint32_t id, char *out);

/* What post's merge made of session @p id; XL_MERGE_NONE when its slot holds another session. */
enum xl_merge_state xl_control_merge_state(struct xl_control *ctl, uint32_t id);

/*
 * Post's merge: records what it made of session @p id, unless the slot
 * holds a later session by now (a merge may take seconds). False then.
 */
bool xl_control_settle_merge(struct xl_control *ctl, uint32_t id, enum xl_merge_state state);

/*
 * A side's files of session @p id are lost (@p err: why; ENOENT: the
 * output directory was deleted): marks its slot XL_SLOT_LOST, and with
 * @p merge the merge's state XL_MERGE_LOST (post: there is nothing to
 * merge). Before the side says it finished the session.
 */
void xl_control_files_lost(struct xl_control *ctl, uint32_t id, int err, bool merge);

/* Whether a side's files of session @p id are lost, with why in @p err. */
bool xl_control_lost(struct xl_control *ctl, uint32_t id, int *err);

/*
 * Asks for a stop at the next frame if session @p id is still the one
 * recording (a writer giving up on that session's files): a session that
 * has ended is not followed by a stop of a later, healthy one. When a
 * frame thread stays in its transition past XL_BUSY_WAIT_NS, the stop is
 * forced instead (XL_FORCE_STOP, said once in the log).
 */
void xl_control_stop_session(struct xl_control *ctl, uint32_t id);

/* Where a bounded wait for the frame thread's transition stands; zeroed before the first. */
struct xl_busy_wait {
	unsigned spins;
	uint64_t deadline_ns; /* set at the first sleep */
};

/*
 * Waits until a frame thread's transition ends: reloads *@p word until it
 * has no XL_BUSY, and returns true. Spins a little, then sleeps in short
 * steps; false, with *@p word still busy, once XL_BUSY_WAIT_NS have passed
 * since @p bw's first sleep (at once on later calls with the same @p bw).
 */
bool xl_control_wait_idle(struct xl_control *ctl, uint64_t *word, struct xl_busy_wait *bw);

/*
 * Says in the log, once, that @p who gave up waiting for a frame thread
 * stuck in its transition, and what it did instead (@p instead).
 */
void xl_control_busy_gave_up(const char *who, const char *instead);

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
	if (__builtin_expect(!xl_control_word_active(word), 1))
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
 * Never waits longer than XL_BUSY_WAIT_NS for a frame thread's transition:
 * past that the stop is forced (the word keeps XL_BUSY, with
 * XL_FORCE_STOP), said once in the log; at once when it is forced already.
 */
uint64_t xl_control_stop_now(struct xl_control *ctl);

/*
 * Pre's writer thread, every poll: turns XRLM_RECORD_DELAY_S and
 * XRLM_RECORD_S into start and stop requests.
 */
void xl_control_poll_timers(struct xl_control *ctl, uint64_t now_mono_ns);

#endif /* XL_CONTROL_H */
