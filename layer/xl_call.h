/*
 * A recorded call's steps on the calling thread, shared by every wrapper
 * (xl_wrap.c) and by xrEndFrame's own bracket (xl_side_pre.c,
 * xl_side_post.c): the frame id, the claim of a ring record and its
 * publication. Only clock reads, atomics and the ring push happen here.
 *
 * The frame ids count this side's xrWaitFrame calls in the current
 * XrSession (0 before the first; the count starts again when a session is
 * created while no other is alive: two sessions at once share one count,
 * which never goes back). Which frame a call belongs to follows the
 * runtime's own handshake, so that a pipelined app (a game thread waiting
 * for frame N + 1 while its render thread still ends frame N) has each
 * call in its frame: xrWaitFrame takes a new id as it begins; xrBeginFrame
 * the id of the last xrWaitFrame that returned (the runtime lets the next
 * one return only after this xrBeginFrame); xrEndFrame the last
 * xrBeginFrame's; any other call its own thread's last xrWaitFrame's,
 * xrBeginFrame's or xrEndFrame's, or on a thread that made none, the last
 * xrWaitFrame's that returned. A single-threaded loop gets the count of
 * xrWaitFrame calls so far, as before.
 */
#ifndef XL_CALL_H
#define XL_CALL_H

#include "xl_instance.h"

/* One call being recorded: its claimed record and what goes into it. */
struct xl_call {
	struct xl_ring *ring;
	struct xl_call_record *rec;
	uint32_t session_id;
	uint32_t tid;
	int64_t frame_id;
	uint16_t fn;
};

/*
 * The starts of a frame count in this process (xl_frame.c), never reset,
 * not even with the instance's state: so that a thread's frame of an
 * instance or session gone is never taken for one of the current count.
 */
extern _Atomic uint32_t xl_frame_epochs;

/* Frame @p frame is the calling thread's, from its xrWaitFrame, xrBeginFrame or xrEndFrame. */
static inline void xl_call_thread_frame(struct xl_instance *in, uint64_t frame)
{
	xl_ring_tls.frame = frame;
	xl_ring_tls.frame_epoch = atomic_load_explicit(&in->frame_epoch, memory_order_relaxed);
}

/* xrBeginFrame begins: its frame is the last xrWaitFrame's that returned. */
static inline void xl_call_begin_frame(struct xl_instance *in)
{
	uint64_t frame = atomic_load_explicit(&in->frame_waited, memory_order_relaxed);
	atomic_store_explicit(&in->frame_begun, frame, memory_order_relaxed);
	xl_call_thread_frame(in, frame);
}

/* xrEndFrame begins: its frame is the last xrBeginFrame's. Both sides' xrEndFrame hooks call it first. */
static inline void xl_call_end_frame(struct xl_instance *in)
{
	xl_call_thread_frame(in, atomic_load_explicit(&in->frame_begun, memory_order_relaxed));
}

/* xrWaitFrame returned (its hook, xl_frame.c): its frame is the one xrBeginFrame takes next. */
static inline void xl_call_wait_returned(struct xl_instance *in)
{
	atomic_store_explicit(&in->frame_waited, xl_ring_tls.frame, memory_order_relaxed);
}

/* The frame of a call the calling thread makes now (see the top). */
static inline uint64_t xl_call_frame(struct xl_instance *in)
{
	if (xl_ring_tls.frame_epoch == atomic_load_explicit(&in->frame_epoch, memory_order_relaxed))
		return xl_ring_tls.frame;
	return atomic_load_explicit(&in->frame_waited, memory_order_relaxed);
}

/*
 * The wrapper's entry step for function @p fn: xrWaitFrame counts a frame
 * and xrBeginFrame takes one (the only work on an idle path besides the
 * test below; @p fn is a constant there); then the session being
 * recorded, or 0: one relaxed load of the control word and a test.
 */
static inline uint32_t xl_call_enter(struct xl_instance *in, enum xl_fn_id fn)
{
	if (fn == XL_FN_xrWaitFrame)
		xl_call_thread_frame(in, atomic_fetch_add_explicit(&in->frame_count, 1,
		                                                   memory_order_relaxed) + 1);
	else if (fn == XL_FN_xrBeginFrame)
		xl_call_begin_frame(in);
	return xl_control_recording(in->ctl);
}

/* Whether XRLM_FUNCTIONS selects function @p fn. */
static inline bool xl_call_selected(const struct xl_instance *in, enum xl_fn_id fn)
{
	return xl_settings_function_selected(&in->settings, fn);
}

/*
 * Counts a call of session @p id that found no record (full ring, nested
 * call, or @p no_ring: no ring free for its thread, told apart in the log).
 */
static inline void xl_call_count_drop(struct xl_control *ctl, uint32_t id, enum xl_fn_id fn,
                                      bool no_ring)
{
	struct xl_session_info *info = xl_control_session(ctl, id);
	atomic_fetch_add_explicit(&info->calls_dropped[xl_side.index], 1, memory_order_relaxed);
	if (fn != XL_FN_xrEndFrame)
		return;
	atomic_fetch_add_explicit(&info->dropped[xl_side.index], 1, memory_order_relaxed);
	if (no_ring)
		atomic_fetch_add_explicit(&info->no_ring[xl_side.index], 1, memory_order_relaxed);
}

/*
 * Claims the calling thread's next record for a call of @p fn in session
 * @p id and notes the thread and frame id. False (the drop counted) when
 * there is none: no ring left for the thread, its ring full, or a call of
 * this side already open on the thread (a callback re-entering the chain
 * from the top).
 */
static inline bool xl_call_claim(struct xl_instance *in, struct xl_call *c, enum xl_fn_id fn,
                                 uint32_t id)
{
	c->ring = xl_ring_mine(&in->rings);
	c->rec = c->ring ? xl_ring_claim(c->ring) : NULL;
	if (!c->rec) {
		xl_call_count_drop(in->ctl, id, fn, !c->ring);
		return false;
	}
	c->session_id = id;
	c->tid = xl_ring_thread_id();
	c->frame_id = (int64_t)xl_call_frame(in);
	c->fn = (uint16_t)fn;
	return true;
}

/* Fills the claimed record and hands it to the writer. */
static inline void xl_call_publish(struct xl_call *c, uint64_t t_entry, uint64_t t_exit,
                                   XrResult result, int64_t display_time)
{
	struct xl_call_record *rec = c->rec;
	rec->t_entry = t_entry;
	rec->t_exit = t_exit;
	rec->frame_id = c->frame_id;
	rec->display_time = display_time;
	rec->thread_id = c->tid;
	rec->session_id = c->session_id;
	rec->result = result;
	rec->fn = c->fn;
	xl_ring_publish(c->ring);
}

#endif /* XL_CALL_H */
