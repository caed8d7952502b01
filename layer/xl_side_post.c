/*
 * The post layer's side: the wide bracket of xrEndFrame, the control block
 * it receives from pre, and the merge when a session's files are complete.
 * Compiled into the post library only (see CMakeLists.txt).
 */
#include "xl_chain.h"
#include "xl_clock.h"
#include "xl_files.h"
#include "xl_hooks.h"
#include "xl_log.h"
#include "xl_side_frame.h"
#include "xl_thread.h"

#include "csvr.h"
#include "mem.h"
#include "merge.h"
#include "quote.h"
#include "u_names.h"

#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

const struct xl_side xl_side = {XL_SIDE_POST, U_NAMES_POST, POST_LAYER_NAME, PRE_LAYER_NAME};

/*
 * Handed over by pre just before instance creation reaches post, on the
 * thread that creates the instance: a chain's pre and post create it on
 * one thread, and two chains (two loaders) may create theirs at once.
 */
static __thread struct xl_control *attached_control;

static void attach_control(struct xl_control *ctl)
{
	/* Post's own reference: pre may be unloaded first (at process exit). */
	xl_control_ref(ctl);
	xl_control_unref(attached_control);
	attached_control = ctl;
}

/* The control block pre handed over on this thread, taken from the handoff. */
static struct xl_control *take_attached(void)
{
	struct xl_control *ctl = attached_control;

	attached_control = NULL;
	return ctl;
}

bool xl_side_waits_for_claim(void)
{
	return attached_control != NULL;
}

void xl_side_pass_through(void)
{
	struct xl_control *ctl = take_attached();

	/* Not ours to free if of another build's layout: leak the reference,
	 * as xl_side_before_create() does. */
	if (ctl && xl_control_same_build(ctl))
		xl_control_unref(ctl);
}

bool xl_side_before_create(struct xl_instance *in, const XrApiLayerCreateInfo *info)
{
	struct xl_chain_report chain;
	struct xl_control *ctl = take_attached();

	/* Inside the application the merge reads each file on one thread:
	 * fewer threads beside the app's, and no segments' memory (csvr.h).
	 * csvr_ahead_off, not csvr_ahead_min_bytes = SIZE_MAX: the calls
	 * files' format reads ahead from 1 MiB whatever that says, and did so
	 * here (six threads more a merge, two 10^5-frame calls files of 71 MB
	 * each read ahead in segments). Set here, before this instance's
	 * writer and merge threads start; a later instance's merge thread
	 * sets it true again. */
	csvr_ahead_off = true;
	/* The merge's large blocks are mappings of their own here, never
	 * malloc's: freed, a malloc'd one raises glibc's mmap and trim
	 * thresholds for the whole application, and the merges' memory then
	 * stays in whichever malloc arenas their threads got (mem.h). */
	mem_map_large = true;
	xl_chain_inspect(info->nextInfo, POST_LAYER_NAME, PRE_LAYER_NAME, &chain);
	if (chain.partner_found) {
		xl_log_loud("%s is below %s: the order is reversed, nothing will be recorded. "
		            "Use XR_ENABLE_API_LAYERS=%s:<target>:%s", PRE_LAYER_NAME,
		            POST_LAYER_NAME, PRE_LAYER_NAME, POST_LAYER_NAME);
		xl_control_unref(ctl);
		return false;
	}
	if (!ctl && xl_settings_layer_disabled(PRE_LAYER_NAME)) {
		xl_log_loud("DISABLE_%s is set: post passes every call through and records "
		            "nothing", PRE_LAYER_NAME);
		return false;
	}
	if (!ctl) {
		xl_log_loud("%s handed no control block over: it is not above %s in the layer "
		            "chain, or it monitors another instance of this process; nothing will "
		            "be recorded for this one", PRE_LAYER_NAME, POST_LAYER_NAME);
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

bool xl_side_after_create(struct xl_instance *in, const XrInstanceCreateInfo *create)
{
	(void)create;
	atomic_store(&in->ctl->post_joined, true);
	return true;
}

void xl_side_before_destroy(struct xl_instance *in)
{
	/* Normally pre has stopped already; at process exit post may come first. */
	xl_control_stop_now(in->ctl);
}

void xl_side_end(struct xl_instance *in)
{
	(void)in;
}

/* The merge's view of the output directory; see merge_session. */
struct merge_dir {
	const char *tag;
	const char *via;  /* "/proc/self/fd/<n>", what the merge's paths start with */
	const char *name; /* the directory's path as messages show it (quote_path()) */
};

static void merge_log(void *ctx, const char *message)
{
	const struct merge_dir *d = ctx;
	char line[2048];
	size_t len = 0, via_len = strlen(d->via);

	/* The user reads the directory's name, not the descriptor's. */
	for (const char *at; (at = strstr(message, d->via)) && len < sizeof(line);
	     message = at + via_len)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%.*s%s",
		                        (int)(at - message), message, d->name);
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "%s", message);
	xl_log("merge %s: %s", d->tag, line);
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

/*
 * Merges session @p id's per-side files in the output directory @p dir_fd
 * (the writer's): XL_MERGE_DONE, XL_MERGE_FAILED (logged) when it could
 * not, XL_MERGE_LOST when pre's files of it are lost (pre said why).
 */
static enum xl_merge_state merge_session_files(struct xl_control *ctl, uint32_t id,
                                               const char *tag, int dir_fd)
{
	char pre[MERGE_PATH_MAX], shown[XL_PATH_MAX], now[XL_PATH_MAX], q[QUOTE_PATH_MAX];
	struct merge_siblings sib;
	int err;

	if (!wait_for_pre(ctl, id)) {
		xl_log_once(XL_ONCE_MERGE, "session %s: the pre side did not finish its file; "
		            "run `xrlm merge` on the per-side files", tag);
		return XL_MERGE_FAILED;
	}
	if (xl_control_lost(ctl, id, &err)) {
		xl_log("session %s: not merged: pre's files of it are lost (%s; see xrlm-pre.log)",
		       tag, err == ENOENT ? "the output directory was deleted" : strerror(err));
		xl_control_files_lost(ctl, id, err, true);
		return XL_MERGE_LOST;
	}
	/* Every path goes through the directory descriptor post's writer holds:
	 * a symlink planted in the directory's path since is not followed. */
	char via[32] = "";
	if (dir_fd >= 0)
		snprintf(via, sizeof(via), "/proc/self/fd/%d", dir_fd);
	/* Named where it is now: the directory may have been renamed since. */
	struct merge_dir dir = {tag, via,
	                        xl_files_dir_shown(dir_fd, ctl->output_dir, shown, sizeof(shown))};
	if (!via[0] || access(via, X_OK) != 0)
		dir.via = ctl->output_dir; /* no /proc: the path checked at the start */
	if (u_names_side_file(pre, sizeof(pre), dir.via, U_NAMES_FRAMES, tag, U_NAMES_PRE) < 0 ||
	    merge_sibling_paths(pre, NULL, &sib) != 0) {
		xl_log_once(XL_ONCE_MERGE, "session %s: output path too long to merge", tag);
		return XL_MERGE_FAILED;
	}
	/* Every file of the session: frames, GPU and calls files. */
	struct merge_paths paths;
	merge_paths_from_siblings(&sib, pre, &paths);
	if (merge_files(&paths, sib.merged_csv, NULL, merge_log, &dir) != 0)
		return XL_MERGE_FAILED;
	char merged[MERGE_PATH_MAX];
	const char *dir_now = xl_files_dir_now(dir_fd, ctl->output_dir, now, sizeof(now));
	if (u_names_merged_file(merged, sizeof(merged), dir_now, U_NAMES_FRAMES, tag) >= 0)
		xl_log("session %s: merged into %s", tag, quote_path(q, merged));
	return XL_MERGE_DONE;
}

/*
 * Writer hook: the session's post file is complete; merge it with pre's,
 * and say how it went for pre's control thread (a `stop` waits for it).
 */
static void merge_session(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	struct xl_control *ctl = ctx;
	enum xl_merge_state state = merge_session_files(ctl, id, tag, dir_fd);
	if (state != XL_MERGE_LOST) /* files_lost settled it, with why */
		xl_control_settle_merge(ctl, id, state);
}

void (*xl_side_session_closed(void))(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	return merge_session;
}

/* Pre's creation is over: a block it handed over that was not taken is let go. */
static void detach_control(void)
{
	xl_side_pass_through();
}

bool xl_side_private_proc(const char *name, PFN_xrVoidFunction *function)
{
	if (strcmp(name, ATTACH_PROC_NAME) == 0)
		*function = (PFN_xrVoidFunction)attach_control;
	else if (strcmp(name, DETACH_PROC_NAME) == 0)
		*function = (PFN_xrVoidFunction)detach_control;
	else
		return false;
	return true;
}

/* Out of line, so that the idle path saves no registers. Its first act
 * opens post's wide bracket. */
static __attribute__((noinline)) XrResult record_frame(struct xl_instance *in, uint32_t id,
                                                       XrSession session,
                                                       const XrFrameEndInfo *info)
{
	uint64_t t_entry = xl_clock_mono_ns();
	/* First thing: the target's GPU work is done when this timestamp is
	 * written; then open pre's gate so both run back to back. */
	xl_ring_mine(&in->rings); /* registers the thread: its TID */
	stamp_gpu(in, session, info, (int64_t)xl_call_frame(in), id, xl_ring_thread_id());
	open_gate(in, session);
	struct xl_call call;
	bool claimed = xl_call_claim(in, &call, XL_FN_xrEndFrame, id);
	XrResult result = in->next.xrEndFrame(session, info);
	uint64_t t_exit = xl_clock_mono_ns();

	if (claimed)
		xl_call_publish(&call, t_entry, t_exit, result, display_time(info));
	return result;
}

XrResult xl_side_end_frame(struct xl_instance *in, XrSession session, const XrFrameEndInfo *info)
{
	struct xl_control *ctl = in->ctl;
	xl_call_end_frame(in);
	uint32_t id = xl_control_recording(ctl);
	if (__builtin_expect(!id, 1))
		return end_frame_idle(in, session, info);
	return record_frame(in, id, session, info);
}
