/*
 * A recorded call's steps on the calling thread, shared by every wrapper
 * (xl_wrap.c) and by xrEndFrame's own bracket (xl_side_pre.c,
 * xl_side_post.c): the frame id, the claim of a ring record and its
 * publication. Only clock reads, atomics and the ring push happen here.
 *
 * The frame id is this side's count of xrWaitFrame calls in the current
 * XrSession (0 before the first; the count starts again when a session is
 * created while no other is alive: two sessions at once share one count,
 * which never goes back). A call carries the id current when it began;
 * xrWaitFrame counts itself first, so its own record carries the frame it
 * starts.
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
 * The wrapper's entry step for function @p fn: xrWaitFrame counts a frame
 * (the only work on an idle path besides the test below); then the session
 * being recorded, or 0: one relaxed load of the control word and a test.
 */
static inline uint32_t xl_call_enter(struct xl_instance *in, enum xl_fn_id fn)
{
	if (fn == XL_FN_xrWaitFrame)
		atomic_fetch_add_explicit(&in->frame_count, 1, memory_order_relaxed);
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
	c->frame_id = (int64_t)atomic_load_explicit(&in->frame_count, memory_order_relaxed);
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
