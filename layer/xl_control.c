/*
 * Recording control; see xl_control.h for the control word's layout.
 */
#include "xl_control.h"

#include "xl_clock.h"
#include "xl_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The control block and its GPU part in one allocation: one free. */
struct control_alloc {
	struct xl_control ctl;
	struct xl_gpu_shared gpu;
};

struct xl_control *xl_control_create(const struct xl_settings *settings)
{
	struct control_alloc *block = calloc(1, sizeof(*block));
	uint64_t word = 0;

	if (!block)
		return NULL;
	struct xl_control *ctl = &block->ctl;
	ctl->abi_size = sizeof(*block);
	ctl->gpu = &block->gpu;
	atomic_init(&ctl->refs, 1);
	xl_live_init(&ctl->live);
	xl_marks_init(&ctl->marks);
	ctl->frame_limit = settings->frame_limit;
	ctl->time_limit_s = settings->time_limit_s;
	/* A delay of 0 starts at the first frame, as XRLM_RECORD=1 does: armed,
	 * it would wait for the writer's next look at the clock, and an
	 * unpaced app's first frames would run before it. */
	ctl->delay_s = settings->delay_s > 0.0 ? settings->delay_s : -1.0;
	snprintf(ctl->output_dir, sizeof(ctl->output_dir), "%s", settings->output_dir);
	if (settings->delay_s > 0.0)
		word = XL_REQ_ARM;
	else if (settings->delay_s == 0.0 || settings->record_at_start)
		word = XL_REQ_START;
	atomic_init(&ctl->word, word);
	return ctl;
}

bool xl_control_same_build(const struct xl_control *ctl)
{
	return ctl->abi_size == sizeof(struct control_alloc);
}

void xl_control_ref(struct xl_control *ctl)
{
	atomic_fetch_add(&ctl->refs, 1);
}

void xl_control_unref(struct xl_control *ctl)
{
	if (!ctl || atomic_fetch_sub(&ctl->refs, 1) != 1)
		return;
	xl_live_fini(&ctl->live);
	xl_marks_fini(&ctl->marks);
	free(ctl);
}

/* Fills session @p id's slot before the control word makes it current. */
static void begin_session(struct xl_control *ctl, uint32_t id)
{
	struct xl_session_info *info = xl_control_session(ctl, id);

	atomic_store_explicit(&info->id, 0, memory_order_relaxed);
	info->start_realtime_s = (int64_t)(xl_clock_ns(CLOCK_REALTIME) / 1000000000u);
	info->start_mono_ns = xl_clock_mono_ns();
	atomic_store_explicit(&info->dropped[0], 0, memory_order_relaxed);
	atomic_store_explicit(&info->dropped[1], 0, memory_order_relaxed);
	atomic_store_explicit(&info->no_ring[0], 0, memory_order_relaxed);
	atomic_store_explicit(&info->no_ring[1], 0, memory_order_relaxed);
	atomic_store_explicit(&info->calls_dropped[0], 0, memory_order_relaxed);
	atomic_store_explicit(&info->calls_dropped[1], 0, memory_order_relaxed);
	atomic_store_explicit(&info->gpu_overflow[0], 0, memory_order_relaxed);
	atomic_store_explicit(&info->gpu_overflow[1], 0, memory_order_relaxed);
	atomic_store_explicit(&info->tag_state, XL_TAG_PENDING, memory_order_relaxed);
	atomic_store_explicit(&info->merge_state, XL_MERGE_NONE, memory_order_relaxed);
	atomic_store_explicit(&ctl->frames_recorded, 0, memory_order_relaxed);
	atomic_store_explicit(&info->id, id, memory_order_release);
}

/* Applies request bits @p req to the state in @p word; returns the new state. */
static uint64_t apply_requests(struct xl_control *ctl, uint64_t word, unsigned req)
{
	bool active = word & XL_ACTIVE;
	uint32_t id = xl_control_word_id(word);
	bool start = false, stop = false;

	if (req & XL_REQ_TOGGLE) {
		stop = active;
		start = !active;
	}
	if ((req & XL_REQ_START) && !active)
		start = true;
	if ((req & XL_REQ_STOP) && active)
		stop = true;
	if (req & XL_REQ_ARM)
		atomic_store_explicit(&ctl->first_frame_ns, xl_clock_mono_ns(),
		                      memory_order_relaxed);

	if (stop)
		active = false;
	else if (start) {
		id++;
		begin_session(ctl, id);
		active = true;
	}
	return ((uint64_t)id << XL_ID_SHIFT) | (active ? XL_ACTIVE : 0);
}

uint32_t xl_control_pre_frame_slow(struct xl_control *ctl, uint64_t word)
{
	unsigned req = word & XL_REQ_MASK;
	bool active = word & XL_ACTIVE;

	if (active && ctl->frame_limit &&
	    atomic_load_explicit(&ctl->frames_recorded, memory_order_relaxed) >= ctl->frame_limit)
		req |= XL_REQ_STOP;
	if (req == 0 || (word & XL_BUSY))
		return active ? xl_control_word_id(word) : 0;

	/* Only one frame thread performs a transition; the others carry on with
	 * the state they saw, without waiting. */
	if (!atomic_compare_exchange_strong_explicit(&ctl->word, &word, word | XL_BUSY,
	                                             memory_order_acquire, memory_order_relaxed))
		return (word & XL_ACTIVE) ? xl_control_word_id(word) : 0;

	uint64_t state = apply_requests(ctl, word, req);

	/* Publish, keeping any request that arrived while we were busy: a
	 * request bit that changed since we took the word (set anew, or a
	 * toggle flipped again) is still pending. */
	uint64_t cur = word | XL_BUSY, next;
	do {
		next = state | ((cur ^ word) & XL_REQ_MASK);
	} while (!atomic_compare_exchange_weak_explicit(&ctl->word, &cur, next,
	                                                memory_order_release,
	                                                memory_order_relaxed));
	return (state & XL_ACTIVE) ? xl_control_word_id(state) : 0;
}

uint64_t xl_control_stop_now(struct xl_control *ctl)
{
	uint64_t cur = atomic_load_explicit(&ctl->word, memory_order_acquire), next;
	do {
		/* A frame thread mid-transition finishes in nanoseconds. */
		while (cur & XL_BUSY)
			cur = atomic_load_explicit(&ctl->word, memory_order_acquire);
		next = (uint64_t)xl_control_word_id(cur) << XL_ID_SHIFT;
	} while (!atomic_compare_exchange_weak_explicit(&ctl->word, &cur, next,
	                                                memory_order_acq_rel,
	                                                memory_order_acquire));
	return next;
}

void xl_control_poll_timers(struct xl_control *ctl, uint64_t now_mono_ns)
{
	uint64_t word = atomic_load_explicit(&ctl->word, memory_order_acquire);

	if (ctl->delay_s >= 0.0 && !ctl->delay_fired) {
		uint64_t first = atomic_load_explicit(&ctl->first_frame_ns, memory_order_relaxed);
		if (first && now_mono_ns >= first + (uint64_t)(ctl->delay_s * 1e9)) {
			ctl->delay_fired = true;
			xl_control_request(ctl, XL_REQ_START);
		}
	}
	if (ctl->time_limit_s > 0.0 && (word & XL_ACTIVE)) {
		uint32_t id = xl_control_word_id(word);
		struct xl_session_info *info = xl_control_session(ctl, id);
		if (atomic_load_explicit(&info->id, memory_order_acquire) == id &&
		    now_mono_ns >= info->start_mono_ns + (uint64_t)(ctl->time_limit_s * 1e9))
			xl_control_request(ctl, XL_REQ_STOP);
	}
}
