/*
 * The pre layer's side: the narrow bracket of xrEndFrame, the chain check
 * from above, the control block it creates and hands to post, the toggle
 * signal. Compiled into the pre library only (see CMakeLists.txt).
 */
#include "xl_chain.h"
#include "xl_clock.h"
#include "xl_ctl_server.h"
#include "xl_hooks.h"
#include "quote.h"
#include "xl_log.h"
#include "xl_side_frame.h"
#include "xl_signal.h"
#include "u_names.h"

#include <stdio.h>

const struct xl_side xl_side = {XL_SIDE_PRE, U_NAMES_PRE, PRE_LAYER_NAME, POST_LAYER_NAME};

/* The control socket of the monitored instance, or NULL (XRLM_CONTROL=off, unusable). */
static struct xl_ctl_server *ctl_server;

/*
 * Post's xrGetInstanceProcAddr, while this thread's instance creation has
 * handed post a block post may not have taken yet; else NULL.
 */
static __thread PFN_xrGetInstanceProcAddr handed_to;

static bool attach_post(PFN_xrGetInstanceProcAddr post_gipa, struct xl_control *ctl)
{
	PFN_xrVoidFunction fn = NULL;

	if (!post_gipa || post_gipa(XR_NULL_HANDLE, ATTACH_PROC_NAME, &fn) != XR_SUCCESS || !fn)
		return false;
	((xl_attach_fn)fn)(ctl);
	handed_to = post_gipa;
	return true;
}

/*
 * The creation is over: post lets go of the block if its creation never
 * took it (the target failed without calling down), else it would keep
 * post's reference for ever.
 */
static void detach_post(void)
{
	PFN_xrVoidFunction fn = NULL;
	PFN_xrGetInstanceProcAddr post_gipa = handed_to;

	handed_to = NULL;
	if (post_gipa && post_gipa(XR_NULL_HANDLE, DETACH_PROC_NAME, &fn) == XR_SUCCESS && fn)
		((xl_detach_fn)fn)();
}

bool xl_side_before_create(struct xl_instance *in, const XrApiLayerCreateInfo *info)
{
	struct xl_chain_report chain;
	char q[QUOTE_PATH_MAX]; /* a layer's name as the log shows it: a manifest gave it */

	if (xl_settings_layer_disabled(POST_LAYER_NAME)) {
		xl_log_loud("DISABLE_%s is set: pre cannot measure the target alone, so nothing "
		            "will be recorded (unset it, or disable pre too)", POST_LAYER_NAME);
		return false;
	}
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
		            "together as one target", chain.between, quote_path(q, chain.between_names));

	in->ctl = xl_control_create(&in->settings);
	if (!in->ctl) {
		xl_log("out of memory for the control block: nothing will be recorded");
		return false;
	}
	snprintf(in->ctl->target_layer, sizeof(in->ctl->target_layer), "%s", chain.between_names);
	xl_control_set_dir(in->ctl, in->dir_fd);
	if (!attach_post(chain.partner_gipa, in->ctl)) {
		xl_log_loud("%s did not accept the control block (a different build?): nothing "
		            "will be recorded", POST_LAYER_NAME);
		return false;
	}
	xl_log("target layer: %s", quote_path(q, chain.between_names));
	return true;
}

bool xl_side_waits_for_claim(void)
{
	return false;
}

void xl_side_pass_through(void)
{
	/* Pre keeps no handoff: it hands its block over, post holds it. */
}

bool xl_side_after_create(struct xl_instance *in, const XrInstanceCreateInfo *create)
{
	detach_post();
	/* Post joins while the chain below creates the instance: by now it has. */
	if (!atomic_load(&in->ctl->post_joined)) {
		xl_log_loud("%s took the control block but does not monitor this instance (see its "
		            "messages): nothing will be recorded", POST_LAYER_NAME);
		return false;
	}
	/* Bounded by its array, as log_instance() reads it: an application
	 * that fills all of it leaves no NUL there. */
	snprintf(in->ctl->app_name, sizeof(in->ctl->app_name), "%.*s",
	         (int)sizeof(create->applicationInfo.applicationName),
	         create->applicationInfo.applicationName);
	xl_signal_install(in->ctl, in->settings.signal, in->settings.signal_name);
	if (in->settings.control)
		ctl_server = xl_ctl_server_create(in->ctl);
	else
		xl_log("control socket: off (XRLM_CONTROL=off)");
	return true;
}

void xl_side_before_destroy(struct xl_instance *in)
{
	xl_signal_remove();
	xl_control_stop_now(in->ctl);
}

void xl_side_end(struct xl_instance *in)
{
	(void)in;
	detach_post(); /* a creation that failed: on its thread, still pending */
	xl_ctl_server_destroy(ctl_server);
	ctl_server = NULL;
}

void (*xl_side_session_closed(void))(void *ctx, uint32_t id, const char *tag, int dir_fd)
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
	struct xl_call call;
	if (!xl_call_claim(in, &call, XL_FN_xrEndFrame, id))
		return in->next.xrEndFrame(session, info);
	if (ctl->frame_limit)
		atomic_fetch_add_explicit(&ctl->frames_recorded, 1, memory_order_relaxed);
	/* Just before the target: its GPU work lands after this timestamp. */
	stamp_gpu(in, session, info, call.frame_id, id, call.tid);

	/* Loaded before the clock read: on a cold frame its cache miss would
	 * otherwise fall inside the bracket, counted as the target's. */
	PFN_xrEndFrame next = in->next.xrEndFrame;
	uint64_t t_entry = xl_clock_mono_ns();
	XrResult result = next(session, info);
	uint64_t t_exit = xl_clock_mono_ns();

	/* Post opens the gate; a target that returned without calling down
	 * (a dropped or refused frame) left it closed, and the GPU waiting
	 * behind it. Opened here, now that the target's work for the frame
	 * is done: else the next frame's would replace it, unopened. */
	open_gate(in, session);
	xl_call_publish(&call, t_entry, t_exit, result, display_time(info));
	return result;
}

XrResult xl_side_end_frame(struct xl_instance *in, XrSession session, const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	xl_call_end_frame(in);
	uint32_t id = xl_control_pre_frame(ctl);
	if (__builtin_expect(!id, 1))
		return end_frame_idle(in, session, info);
	return record_frame(in, id, session, info);
}
