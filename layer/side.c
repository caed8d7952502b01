/*
 * Everything that differs between the pre and the post layer, selected at
 * compile time by XRLM_SIDE_PRE (1 = pre, 0 = post). The rest of layer/ is
 * the same code in both libraries.
 *
 * The CPU sandwich: pre brackets only its call to the next layer (narrow);
 * post brackets everything from its first line to just before it publishes
 * its record (wide). Then pre − post is the target's cost: the runtime and
 * post's own bookkeeping cancel out, all but the clock reads' own share,
 * which post measures and the merge subtracts (bracket_correction_ns).
 * Both sides claim their ring slot where its cost cancels: pre outside its
 * bracket, post inside its own.
 */
#include "xl_chain.h"
#include "xl_clock.h"
#include "xl_hooks.h"
#include "xl_instance.h"
#include "xl_log.h"
#include "xl_thread.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#if !XRLM_SIDE_PRE
#include "merge.h"
#include "u_names.h"
#endif

#define PRE_LAYER_NAME "XR_APILAYER_XRLM_monitor_pre"
#define POST_LAYER_NAME "XR_APILAYER_XRLM_monitor_post"

/*
 * Post answers this name from its xrGetInstanceProcAddr, so that pre can
 * hand it the control block before instance creation reaches post. It is
 * not an OpenXR function name: nothing else in the chain ever asks for it.
 */
#define ATTACH_PROC_NAME "xrlmPrivateAttachControl"
typedef void (*xl_attach_fn)(struct xl_control *ctl);

static inline void count_drop(struct xl_control *ctl, uint32_t id)
{
	atomic_fetch_add_explicit(&xl_control_session(ctl, id)->dropped[xl_side.index], 1,
	                          memory_order_relaxed);
}

static inline XrTime display_time(const XrFrameEndInfo *info)
{
	/* A NULL info is the application's error: the chain below reports it. */
	return info ? info->displayTime : 0;
}

/* Fills a claimed record with this frame's bracket and hands it to the writer. */
static inline void publish(struct xl_ring *ring, struct xl_call_record *rec,
                           const XrFrameEndInfo *info, uint64_t t_entry, uint64_t t_exit,
                           uint32_t tid, uint32_t id, XrResult result)
{
	rec->t_entry = t_entry;
	rec->t_exit = t_exit;
	rec->frame_id = rec->display_time = display_time(info);
	rec->thread_id = tid;
	rec->session_id = id;
	rec->result = result;
	rec->fn = XL_FN_xrEndFrame;
	xl_ring_publish(ring);
}

/* The calling thread's next record, or NULL (no ring left for it, or full). */
static inline struct xl_call_record *claim(struct xl_ring *ring)
{
	return ring ? xl_ring_claim(ring) : NULL;
}

/*
 * Submits this side's GPU timestamp for the frame when the session has a
 * Vulkan binding: pre's waits behind the gate in gated mode.
 */
static inline void stamp_gpu(struct xl_instance *in, XrSession session,
                             const XrFrameEndInfo *info, uint32_t id, uint32_t tid)
{
	struct xl_control *ctl = in->ctl;
	struct xl_gpu *gpu = atomic_load_explicit(&in->gpu.gpu, memory_order_relaxed);
	if (!gpu || gpu->session != session)
		return;
	bool gated = gpu->gate && !atomic_load_explicit(&ctl->gpu->gate.tripped, memory_order_relaxed);
	if (!xl_gpu_stamp(gpu, display_time(info), id, gated, tid))
		atomic_fetch_add_explicit(&xl_control_session(ctl, id)->gpu_overflow[xl_side.index],
		                          1, memory_order_relaxed);
}

#if XRLM_SIDE_PRE
/* ------------------------------------------------------------------ pre */

const struct xl_side xl_side = {XL_SIDE_PRE, "pre", PRE_LAYER_NAME, POST_LAYER_NAME};

static bool attach_post(PFN_xrGetInstanceProcAddr post_gipa, struct xl_control *ctl)
{
	PFN_xrVoidFunction fn = NULL;

	if (!post_gipa || post_gipa(XR_NULL_HANDLE, ATTACH_PROC_NAME, &fn) != XR_SUCCESS || !fn)
		return false;
	((xl_attach_fn)fn)(ctl);
	return true;
}

bool xl_side_before_create(struct xl_instance *in, const XrApiLayerCreateInfo *info)
{
	struct xl_chain_report chain;

	xl_chain_inspect(info->nextInfo, PRE_LAYER_NAME, POST_LAYER_NAME, &chain);
	if (!chain.partner_found) {
		xl_log_loud("%s is not below %s in the layer chain (missing, or enabled above it): "
		            "nothing will be recorded. Enable them around the target: "
		            "XR_ENABLE_API_LAYERS=%s:<target>:%s", POST_LAYER_NAME, PRE_LAYER_NAME,
		            PRE_LAYER_NAME, POST_LAYER_NAME);
		return false;
	}
	if (chain.between == 0)
		xl_log_loud("no layer between pre and post: target_us will measure only the "
		            "monitor's own floor");
	else if (chain.between > 1)
		xl_log_loud("%u layers between pre and post (%s): their costs are reported "
		            "together as one target", chain.between, chain.between_names);

	in->ctl = xl_control_create(&in->settings);
	if (!in->ctl) {
		xl_log("out of memory for the control block: nothing will be recorded");
		return false;
	}
	snprintf(in->ctl->target_layer, sizeof(in->ctl->target_layer), "%s", chain.between_names);
	if (!attach_post(chain.partner_gipa, in->ctl)) {
		xl_log_loud("%s did not accept the control block (a different build?): nothing "
		            "will be recorded", POST_LAYER_NAME);
		return false;
	}
	xl_log("target layer: %s", chain.between_names);
	return true;
}

void xl_side_after_create(struct xl_instance *in)
{
	xl_control_install_signal(in->ctl, in->settings.signal, in->settings.signal_name);
}

void xl_side_before_destroy(struct xl_instance *in)
{
	xl_control_remove_signal();
	xl_control_stop_now(in->ctl);
}

void (*xl_side_session_closed(void))(void *ctx, uint32_t id, const char *tag)
{
	return NULL;
}

bool xl_side_private_proc(const char *name, PFN_xrVoidFunction *function)
{
	(void)name;
	(void)function;
	return false;
}

/* Out of line, so that the idle path saves no registers: a few instructions. */
static __attribute__((noinline)) XrResult record_frame(struct xl_instance *in, uint32_t id,
                                                       XrSession session,
                                                       const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	struct xl_ring *ring = xl_ring_mine(&in->rings);
	struct xl_call_record *rec = claim(ring);
	if (!rec) {
		count_drop(ctl, id);
		return in->next.xrEndFrame(session, info);
	}
	if (ctl->frame_limit)
		atomic_fetch_add_explicit(&ctl->frames_recorded, 1, memory_order_relaxed);
	uint32_t tid = xl_ring_thread_id();
	/* Just before the target: its GPU work lands after this timestamp. */
	stamp_gpu(in, session, info, id, tid);

	uint64_t t_entry = xl_clock_mono_ns();
	XrResult result = in->next.xrEndFrame(session, info);
	uint64_t t_exit = xl_clock_mono_ns();

	publish(ring, rec, info, t_entry, t_exit, tid, id, result);
	return result;
}

XrResult xl_side_end_frame(struct xl_instance *in, XrSession session, const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	uint32_t id = xl_control_pre_frame(ctl);
	if (__builtin_expect(!id, 1))
		return in->next.xrEndFrame(session, info);
	return record_frame(in, id, session, info);
}

#else
/* ----------------------------------------------------------------- post */

const struct xl_side xl_side = {XL_SIDE_POST, "post", POST_LAYER_NAME, PRE_LAYER_NAME};

/* Handed over by pre just before instance creation reaches post. */
static struct xl_control *_Atomic attached_control;

static void attach_control(struct xl_control *ctl)
{
	/* Post's own reference: pre may be unloaded first (at process exit). */
	xl_control_ref(ctl);
	xl_control_unref(atomic_exchange(&attached_control, ctl));
}

bool xl_side_before_create(struct xl_instance *in, const XrApiLayerCreateInfo *info)
{
	struct xl_chain_report chain;
	struct xl_control *ctl = atomic_exchange(&attached_control, NULL);

	xl_chain_inspect(info->nextInfo, POST_LAYER_NAME, PRE_LAYER_NAME, &chain);
	if (chain.partner_found) {
		xl_log_loud("%s is below %s: the order is reversed, nothing will be recorded. "
		            "Use XR_ENABLE_API_LAYERS=%s:<target>:%s", PRE_LAYER_NAME,
		            POST_LAYER_NAME, PRE_LAYER_NAME, POST_LAYER_NAME);
		xl_control_unref(ctl);
		return false;
	}
	if (!ctl) {
		xl_log_loud("%s is not above %s in the layer chain: nothing will be recorded",
		            PRE_LAYER_NAME, POST_LAYER_NAME);
		return false;
	}
	if (!xl_control_same_build(ctl)) {
		xl_log_loud("%s comes from a different build than %s: nothing will be recorded",
		            PRE_LAYER_NAME, POST_LAYER_NAME);
		/* Not ours to free: a block of another layout. Leak the reference. */
		return false;
	}
	in->ctl = ctl;
	return true;
}

void xl_side_after_create(struct xl_instance *in)
{
	(void)in;
}

void xl_side_before_destroy(struct xl_instance *in)
{
	/* Normally pre has stopped already; at process exit post may come first. */
	xl_control_stop_now(in->ctl);
}

static void merge_log(void *ctx, const char *message)
{
	xl_log("merge %s: %s", (const char *)ctx, message);
}

/* How long the merge waits for pre's writer to finish the same session. */
#define PRE_FINISH_TIMEOUT_NS 10000000000ull

struct pre_finished_ctx {
	struct xl_control *ctl;
	uint32_t id;
};

static bool pre_finished(void *ctx)
{
	struct pre_finished_ctx *c = ctx;
	return atomic_load_explicit(&c->ctl->finished[XL_SIDE_PRE], memory_order_acquire) >= c->id;
}

static bool wait_for_pre(struct xl_control *ctl, uint32_t id)
{
	struct pre_finished_ctx ctx = {ctl, id};
	return xl_thread_wait(pre_finished, &ctx, PRE_FINISH_TIMEOUT_NS, 2000000);
}

/* Writer hook: the session's post file is complete; merge it with pre's. */
static void merge_session(void *ctx, uint32_t id, const char *tag)
{
	struct xl_control *ctl = ctx;
	char pre[MRG_PATH_MAX];
	struct mrg_siblings sib;

	if (!wait_for_pre(ctl, id)) {
		xl_log_once(XL_ONCE_MERGE, "session %s: the pre side did not finish its file; "
		            "run `xrlm merge` on the per-side files", tag);
		return;
	}
	if (u_names_side_file(pre, sizeof(pre), ctl->output_dir, U_NAMES_FRAMES, tag, "pre") < 0 ||
	    mrg_sibling_paths(pre, NULL, &sib) != 0) {
		xl_log_once(XL_ONCE_MERGE, "session %s: output path too long to merge", tag);
		return;
	}
	struct mrg_paths paths = {
		.pre_csv = pre,
		.post_csv = sib.post_csv,
		.gpu_pre_csv = sib.gpu_pre_csv[0] ? sib.gpu_pre_csv : NULL,
		.gpu_post_csv = sib.gpu_post_csv[0] ? sib.gpu_post_csv : NULL,
	};
	if (mrg_merge_files(&paths, sib.merged_csv, NULL, merge_log, (void *)tag) == 0)
		xl_log("session %s: merged into %s", tag, sib.merged_csv);
}

void (*xl_side_session_closed(void))(void *ctx, uint32_t id, const char *tag)
{
	return merge_session;
}

bool xl_side_private_proc(const char *name, PFN_xrVoidFunction *function)
{
	if (strcmp(name, ATTACH_PROC_NAME) != 0)
		return false;
	*function = (PFN_xrVoidFunction)attach_control;
	return true;
}

/* Out of line, so that the idle path saves no registers. Its first act
 * opens post's wide bracket. */
static __attribute__((noinline)) XrResult record_frame(struct xl_instance *in, uint32_t id,
                                                       XrSession session,
                                                       const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	uint64_t t_entry = xl_clock_mono_ns();
	/* First thing: the target's GPU work is done when this timestamp is
	 * written; then open pre's gate so both run back to back. */
	struct xl_ring *ring = xl_ring_mine(&in->rings);
	uint32_t tid = xl_ring_thread_id();
	stamp_gpu(in, session, info, id, tid);
	xl_gate_open(&ctl->gpu->gate);
	struct xl_call_record *rec = claim(ring);
	XrResult result = in->next.xrEndFrame(session, info);
	uint64_t t_exit = xl_clock_mono_ns();

	if (!rec) {
		count_drop(ctl, id);
		return result;
	}
	publish(ring, rec, info, t_entry, t_exit, tid, id, result);
	return result;
}

XrResult xl_side_end_frame(struct xl_instance *in, XrSession session, const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	uint32_t id = xl_control_post_frame(ctl);
	if (__builtin_expect(!id, 1))
		return in->next.xrEndFrame(session, info);
	return record_frame(in, id, session, info);
}

#endif
