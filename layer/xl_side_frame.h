/*
 * What the two sides share of their xrEndFrame hooks (xl_side_pre.c,
 * xl_side_post.c): the layer names, the private attach entry point, and the
 * frame thread's small steps, inline so that each bracket's code is laid
 * out as one function.
 *
 * The CPU sandwich: pre brackets only its call to the next layer (narrow);
 * post brackets everything from its first line to just before it publishes
 * its record (wide). Then pre − post is the target's cost: the runtime and
 * post's own bookkeeping cancel out, all but the clock reads' own share,
 * which post measures and the merge subtracts (bracket_correction_ns).
 * Both sides claim their record where its cost cancels: pre outside its
 * bracket, post inside its own. Every other function's wrapper brackets
 * the same way (xl_wrap.c); xrEndFrame's adds the GPU timestamps.
 */
#ifndef XL_SIDE_FRAME_H
#define XL_SIDE_FRAME_H

#include "xl_call.h"
#include "xl_gl.h"

#define PRE_LAYER_NAME "XR_APILAYER_XRLM_monitor_pre"
#define POST_LAYER_NAME "XR_APILAYER_XRLM_monitor_post"

static inline XrTime display_time(const XrFrameEndInfo *info)
{
	/* A NULL info is the application's error: the chain below reports it. */
	return info ? info->displayTime : 0;
}

static inline void count_gpu_overflow(struct xl_control *ctl, uint32_t id)
{
	atomic_fetch_add_explicit(&xl_control_session(ctl, id)->gpu_overflow[xl_side.index], 1,
	                          memory_order_relaxed);
}

/* OpenGL sessions (xl_gl.h), the measured one's frame: post flushes its timestamp out. */
static inline void stamp_gl(struct xl_instance *in, const XrFrameEndInfo *info, int64_t frame_id,
                            uint32_t id)
{
	struct xl_gl *gl = atomic_load_explicit(&in->gpu.gl, memory_order_relaxed);
	if (!gl)
		return;
	if (xl_gl_stamp(gl, display_time(info), frame_id, id, xl_side.index == XL_SIDE_POST) ==
	    XL_GL_OVERFLOW)
		count_gpu_overflow(in->ctl, id);
	if (!atomic_load_explicit(&in->gl_in_flight, memory_order_relaxed))
		atomic_store_explicit(&in->gl_in_flight, true, memory_order_relaxed);
}

/*
 * An xrEndFrame not recorded while this side's OpenGL timestamps may still
 * be in flight (the recording stopped): GL results can only be read on the
 * frame thread, so this one reads them back (xl_gl_idle) until none is
 * left, then forwards. Out of line: the idle path only tests the flag.
 */
static __attribute__((noinline)) XrResult end_frame_gl_in_flight(struct xl_instance *in,
                                                                  XrSession session,
                                                                  const XrFrameEndInfo *info)
{
	/* Another XrSession's frame leaves the flag for the GL session's, and
	 * only tests the pointer: that session's destroy may be freeing it. */
	bool mine = xl_gpu_holder_measures(&in->gpu, session);
	struct xl_gl *gl = atomic_load_explicit(&in->gpu.gl, memory_order_relaxed);
	if (!gl || (mine && !xl_gl_idle(gl)))
		atomic_store_explicit(&in->gl_in_flight, false, memory_order_relaxed);
	return in->next.xrEndFrame(session, info);
}

/*
 * Opens pre's GPU gate after a frame of @p session, unless another XrSession
 * is the one measured: the token armed is that session's frame's, and its
 * gate's objects go with that session's destroy (a frame of another one
 * would open it early, or race its destroy).
 */
static inline void open_gate(struct xl_instance *in, XrSession session)
{
	XrSession measured = atomic_load_explicit(&in->gpu.session, memory_order_relaxed);

	if (measured != XR_NULL_HANDLE && measured != session)
		return;
	xl_gate_open(&in->ctl->gpu->gate);
}

/*
 * The idle xrEndFrame: forwards, through the GL read-back while timestamps
 * are in flight. Post first opens a gate pre armed for this frame: pre
 * recorded it but post finds recording off (a stop between the two
 * sides' checks, a forced stop), and the runtime below may wait for the
 * queue the gate holds. One relaxed load (behind two pointers) when
 * nothing is armed.
 */
static inline XrResult end_frame_idle(struct xl_instance *in, XrSession session,
                                      const XrFrameEndInfo *info)
{
	if (xl_side.index == XL_SIDE_POST &&
	    __builtin_expect(atomic_load_explicit(&in->ctl->gpu->gate.armed, memory_order_relaxed) != 0,
	                     0))
		open_gate(in, session);
	if (__builtin_expect(atomic_load_explicit(&in->gl_in_flight, memory_order_relaxed), 0))
		return end_frame_gl_in_flight(in, session, info);
	return in->next.xrEndFrame(session, info);
}

/*
 * Submits this side's GPU timestamp for frame @p frame_id when the session
 * has a Vulkan binding (pre's waits behind the gate in gated mode), or an
 * OpenGL one. The sample carries the frame's id, so that whatever comes of
 * it (a live trace's event) needs no match with the frame's record.
 */
static inline void stamp_gpu(struct xl_instance *in, XrSession session,
                             const XrFrameEndInfo *info, int64_t frame_id, uint32_t id,
                             uint32_t tid)
{
	struct xl_control *ctl = in->ctl;
	/* The handle first, no pointer followed: as cheap as the state's own
	 * session field was, and safe while another session's goes. */
	if (!xl_gpu_holder_measures(&in->gpu, session))
		return;
	struct xl_gpu *gpu = atomic_load_explicit(&in->gpu.gpu, memory_order_relaxed);
	if (!gpu) {
		stamp_gl(in, info, frame_id, id);
		return;
	}
	bool gated = gpu->gate && !atomic_load_explicit(&ctl->gpu->gate.tripped, memory_order_relaxed);
	if (!xl_gpu_stamp(gpu, display_time(info), frame_id, id, gated, tid))
		count_gpu_overflow(ctl, id);
}

#endif /* XL_SIDE_FRAME_H */
