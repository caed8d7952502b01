/*
 * Recording control; see xl_control.h for the control word's layout.
 */
#include "xl_control.h"

#include "xl_clock.h"
#include "xl_files.h"
#include "xl_gpu.h"
#include "xl_log.h"
#include "xl_thread.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	ctl->no_files = !settings->trace_csv;
	ctl->dir_fd = -1;
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
	if (ctl->dir_fd >= 0)
		close(ctl->dir_fd);
	free(ctl);
}

void xl_control_set_dir(struct xl_control *ctl, int dir_fd)
{
	ctl->dir_fd = dir_fd >= 0 ? fcntl(dir_fd, F_DUPFD_CLOEXEC, 0) : -1;
}

const char *xl_control_output_dir(const struct xl_control *ctl, char *out, size_t out_size)
{
	return xl_files_dir_now(ctl->dir_fd, ctl->output_dir, out, out_size);
}

/*
 * Fills session @p id's slot before the control word makes it current.
 * The state word goes to 0 first and each field is stored with release:
 * a reader that sees one of the new values then sees the old session
 * gone (see struct xl_session_info).
 */
static void begin_session(struct xl_control *ctl, uint32_t id, bool by_toggle)
{
	struct xl_session_info *info = xl_control_session(ctl, id);

	atomic_store_explicit(&info->state, 0, memory_order_relaxed);
	atomic_store_explicit(&info->start_realtime_s,
	                      (int64_t)(xl_clock_ns(CLOCK_REALTIME) / 1000000000u),
	                      memory_order_release);
	atomic_store_explicit(&info->start_mono_ns, xl_clock_mono_ns(), memory_order_release);
	for (int side = 0; side < 2; side++) {
		atomic_store_explicit(&info->dropped[side], 0, memory_order_release);
		atomic_store_explicit(&info->no_ring[side], 0, memory_order_release);
		atomic_store_explicit(&info->calls_dropped[side], 0, memory_order_release);
		atomic_store_explicit(&info->gpu_overflow[side], 0, memory_order_release);
	}
	atomic_store_explicit(&ctl->frames_recorded, 0, memory_order_relaxed);
	atomic_store_explicit(&info->state,
	                      (uint64_t)id << XL_SLOT_ID_SHIFT | XL_TAG_PENDING |
	                              (by_toggle ? XL_SLOT_TOGGLE_START : 0),
	                      memory_order_release);
}

/* Whether session @p id's slot still holds it, after reads of its fields with acquire. */
static bool slot_still_holds(struct xl_session_info *info, uint32_t id)
{
	return xl_slot_id(atomic_load_explicit(&info->state, memory_order_acquire)) == id;
}

bool xl_control_session_start(struct xl_control *ctl, uint32_t id, int64_t *realtime_s,
                              uint64_t *mono_ns)
{
	struct xl_session_info *info = xl_control_session(ctl, id);

	if (!id || !slot_still_holds(info, id))
		return false;
	int64_t rt = atomic_load_explicit(&info->start_realtime_s, memory_order_acquire);
	uint64_t mono = atomic_load_explicit(&info->start_mono_ns, memory_order_acquire);
	if (!slot_still_holds(info, id))
		return false;
	if (realtime_s)
		*realtime_s = rt;
	if (mono_ns)
		*mono_ns = mono;
	return true;
}

bool xl_control_session_counts(struct xl_control *ctl, uint32_t id, enum xl_side_index side,
                               struct xl_session_counts *out)
{
	struct xl_session_info *info = xl_control_session(ctl, id);
	struct xl_session_counts c;

	if (!id || !slot_still_holds(info, id))
		return false;
	c.dropped = atomic_load_explicit(&info->dropped[side], memory_order_acquire);
	c.no_ring = atomic_load_explicit(&info->no_ring[side], memory_order_acquire);
	c.calls_dropped = atomic_load_explicit(&info->calls_dropped[side], memory_order_acquire);
	c.gpu_overflow = atomic_load_explicit(&info->gpu_overflow[side], memory_order_acquire);
	if (!slot_still_holds(info, id))
		return false;
	*out = c;
	return true;
}

bool xl_control_settle_tag(struct xl_control *ctl, uint32_t id, enum xl_tag_state state,
                           int err, const char *tag)
{
	struct xl_session_info *info = xl_control_session(ctl, id);
	uint64_t cur = atomic_load_explicit(&info->state, memory_order_acquire);

	if (xl_slot_id(cur) != id || xl_slot_tag_state(cur) != XL_TAG_PENDING)
		return false;
	if (state == XL_TAG_READY) {
		/* Nobody reads the words before the state says ready; a reader of
		 * an older session's tag sees them only with the new state. */
		uint64_t words[XL_TAG_MAX / 8] = {0};
		memcpy(words, tag, strnlen(tag, XL_TAG_MAX - 1));
		for (size_t i = 0; i < XL_TAG_MAX / 8; i++)
			atomic_store_explicit(&info->tag[i], words[i], memory_order_release);
	}
	uint64_t bits = (uint64_t)state |
	                ((uint64_t)(uint32_t)err << XL_SLOT_ERRNO_SHIFT & XL_SLOT_ERRNO_MASK);
	for (;;) {
		uint64_t next = (cur & ~(XL_SLOT_TAG_MASK | XL_SLOT_ERRNO_MASK)) | bits;
		if (atomic_compare_exchange_weak_explicit(&info->state, &cur, next,
		                                          memory_order_release,
		                                          memory_order_acquire))
			return true;
		if (xl_slot_id(cur) != id || xl_slot_tag_state(cur) != XL_TAG_PENDING)
			return false; /* the frame thread refilled the slot meanwhile */
	}
}

bool xl_control_session_tag(struct xl_control *ctl, uint32_t id, char *out)
{
	struct xl_session_info *info = xl_control_session(ctl, id);
	uint64_t words[XL_TAG_MAX / 8];
	uint64_t state = atomic_load_explicit(&info->state, memory_order_acquire);

	out[0] = '\0';
	if (!id || xl_slot_id(state) != id || xl_slot_tag_state(state) != XL_TAG_READY)
		return false;
	for (size_t i = 0; i < XL_TAG_MAX / 8; i++)
		words[i] = atomic_load_explicit(&info->tag[i], memory_order_acquire);
	if (!slot_still_holds(info, id))
		return false;
	memcpy(out, words, XL_TAG_MAX);
	out[XL_TAG_MAX - 1] = '\0';
	return true;
}

enum xl_merge_state xl_control_merge_state(struct xl_control *ctl, uint32_t id)
{
	struct xl_session_info *info = xl_control_session(ctl, id);

	uint64_t state = atomic_load_explicit(&info->state, memory_order_acquire);

	if (!id || xl_slot_id(state) != id)
		return XL_MERGE_NONE;
	return (enum xl_merge_state)((state & XL_SLOT_MERGE_MASK) >> XL_SLOT_MERGE_SHIFT);
}

/* Replaces the bits @p mask of session @p id's state word with @p bits; never a later session's. */
static bool update_slot(struct xl_control *ctl, uint32_t id, uint64_t mask, uint64_t bits)
{
	struct xl_session_info *info = xl_control_session(ctl, id);
	uint64_t cur = atomic_load_explicit(&info->state, memory_order_acquire);

	/* In the slot's one word, as the tag's state: never into a later session's. */
	while (id && xl_slot_id(cur) == id) {
		if (atomic_compare_exchange_weak_explicit(&info->state, &cur, (cur & ~mask) | bits,
		                                          memory_order_release,
		                                          memory_order_acquire))
			return true;
	}
	return false;
}

bool xl_control_settle_merge(struct xl_control *ctl, uint32_t id, enum xl_merge_state state)
{
	return update_slot(ctl, id, XL_SLOT_MERGE_MASK,
	                   (uint64_t)state << XL_SLOT_MERGE_SHIFT & XL_SLOT_MERGE_MASK);
}

void xl_control_files_lost(struct xl_control *ctl, uint32_t id, int err, bool merge)
{
	uint64_t mask = XL_SLOT_LOST | XL_SLOT_ERRNO_MASK | (merge ? XL_SLOT_MERGE_MASK : 0);
	uint64_t bits = XL_SLOT_LOST |
	                ((uint64_t)(uint32_t)err << XL_SLOT_ERRNO_SHIFT & XL_SLOT_ERRNO_MASK) |
	                (merge ? (uint64_t)XL_MERGE_LOST << XL_SLOT_MERGE_SHIFT : 0);
	update_slot(ctl, id, mask, bits);
}

bool xl_control_lost(struct xl_control *ctl, uint32_t id, int *err)
{
	uint64_t state = xl_control_slot_state(ctl, id);

	if (!id || xl_slot_id(state) != id || !(state & XL_SLOT_LOST))
		return false;
	*err = xl_slot_errno(state);
	return true;
}

/* Loads before the waits sleep: a transition takes nanoseconds. */
#define BUSY_SPINS 1000
/* The waits' sleep: short, for the transition that was only preempted. */
#define BUSY_SLEEP_NS 200000ull

bool xl_control_wait_idle(struct xl_control *ctl, uint64_t *word, struct xl_busy_wait *bw)
{
	while (*word & XL_BUSY) {
		if (bw->spins < BUSY_SPINS) {
			bw->spins++;
		} else {
			uint64_t now = xl_clock_mono_ns();
			if (!bw->deadline_ns)
				bw->deadline_ns = now + XL_BUSY_WAIT_NS;
			if (now >= bw->deadline_ns)
				return false;
			xl_thread_sleep_ns(BUSY_SLEEP_NS);
		}
		*word = atomic_load_explicit(&ctl->word, memory_order_acquire);
	}
	return true;
}

void xl_control_busy_gave_up(const char *who, const char *instead)
{
	xl_log_once(XL_ONCE_BUSY, "a frame thread has been inside a recording start or stop "
	            "for %llu ms (stopped in xrEndFrame: a signal handler?): %s does not wait "
	            "for it; %s", (unsigned long long)(XL_BUSY_WAIT_NS / 1000000), who, instead);
}

/*
 * Leaves the stop to the frame thread that holds the word (XL_FORCE_STOP),
 * with *@p cur the word seen; true once it is forced, false when the
 * thread let go of the word meanwhile (*@p cur has no XL_BUSY then).
 */
static bool force_stop(struct xl_control *ctl, uint64_t *cur)
{
	while (*cur & XL_BUSY) {
		if (*cur & XL_FORCE_STOP)
			return true;
		if (atomic_compare_exchange_weak_explicit(&ctl->word, cur, *cur | XL_FORCE_STOP,
		                                          memory_order_acq_rel,
		                                          memory_order_acquire)) {
			*cur |= XL_FORCE_STOP;
			return true;
		}
	}
	return false;
}

/*
 * Waits for the frame thread's transition in *@p cur to end; forces the
 * stop (said once: @p who did @p instead) when it lasts past
 * XL_BUSY_WAIT_NS. True once forced; false with *@p cur not busy. Each
 * call waits afresh: a transition that ended resets the bound.
 */
static bool wait_or_force(struct xl_control *ctl, uint64_t *cur, const char *who,
                          const char *instead)
{
	struct xl_busy_wait bw = {0};

	if (xl_control_wait_idle(ctl, cur, &bw))
		return false;
	if (!force_stop(ctl, cur))
		return false; /* it let go meanwhile */
	xl_control_busy_gave_up(who, instead);
	return true;
}

void xl_control_stop_session(struct xl_control *ctl, uint32_t id)
{
	uint64_t cur = atomic_load_explicit(&ctl->word, memory_order_relaxed);

	for (;;) {
		if (!(cur & XL_ACTIVE) || xl_control_word_id(cur) != id ||
		    (cur & (XL_REQ_STOP | XL_FORCE_STOP)))
			return;
		/* A frame thread mid-transition would carry a bit set now over to
		 * the session it is starting: wait for it (nanoseconds). */
		/* Its transition of the recording session stops it or leaves it
		 * recording (a start while recording does nothing): forced, the
		 * stop ends this session and no later one. */
		if (cur & XL_BUSY) {
			if (wait_or_force(ctl, &cur, "a stop of the recording session",
			                  "the session ends now"))
				return;
			continue;
		}
		/* Set only on the word that names the session: the frame thread
		 * that takes it applies the stop to that session. */
		if (atomic_compare_exchange_weak_explicit(&ctl->word, &cur, cur | XL_REQ_STOP,
		                                          memory_order_relaxed,
		                                          memory_order_relaxed))
			return;
	}
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

	/* What a toggle did is said by pre's writer (README: one line per
	 * start and stop by signal); it may see the next start before this
	 * stop, so the cause goes with each session, not in a count. */
	bool by_toggle = req & XL_REQ_TOGGLE;
	if (stop) {
		active = false;
		if (by_toggle)
			atomic_fetch_or_explicit(&xl_control_session(ctl, id)->state,
			                         XL_SLOT_TOGGLE_STOP, memory_order_release);
	} else if (start) {
		id++;
		begin_session(ctl, id, by_toggle);
		active = true;
	}
	return ((uint64_t)id << XL_ID_SHIFT) | (active ? XL_ACTIVE : 0);
}

uint32_t xl_control_pre_frame_slow(struct xl_control *ctl, uint64_t word)
{
	unsigned req = word & XL_REQ_MASK;
	bool active = xl_control_word_active(word);

	if (active && ctl->frame_limit &&
	    atomic_load_explicit(&ctl->frames_recorded, memory_order_relaxed) >= ctl->frame_limit)
		req |= XL_REQ_STOP;
	if (req == 0 || (word & XL_BUSY))
		return active ? xl_control_word_id(word) : 0;

	/* Only one frame thread performs a transition; the others carry on with
	 * the state they saw, without waiting. */
	if (!atomic_compare_exchange_strong_explicit(&ctl->word, &word, word | XL_BUSY,
	                                             memory_order_acquire, memory_order_relaxed))
		return xl_control_word_active(word) ? xl_control_word_id(word) : 0;

	uint64_t state = apply_requests(ctl, word, req);

	/* Publish, keeping any request that arrived while we were busy: a
	 * request bit that changed since we took the word (set anew, or a
	 * toggle flipped again) is still pending. A stop that could not wait
	 * for us (XL_FORCE_STOP) ends whatever we did, a session we began
	 * too (it ends with no record; the writers see it ended), and drops
	 * the requests, as xl_control_stop_now() does. */
	uint64_t cur = word | XL_BUSY, next;
	do {
		if (cur & XL_FORCE_STOP)
			next = state & ~(uint64_t)XL_ACTIVE;
		else
			next = state | ((cur ^ word) & XL_REQ_MASK);
	} while (!atomic_compare_exchange_weak_explicit(&ctl->word, &cur, next,
	                                                memory_order_release,
	                                                memory_order_relaxed));
	return (next & XL_ACTIVE) ? xl_control_word_id(next) : 0;
}

uint64_t xl_control_stop_now(struct xl_control *ctl)
{
	uint64_t cur = atomic_load_explicit(&ctl->word, memory_order_acquire), next;

	for (;;) {
		if (cur & XL_FORCE_STOP)
			return cur; /* left to a stuck frame thread already */
		/* A frame thread mid-transition finishes in nanoseconds, unless
		 * it is stopped there: in a signal handler, or under this very
		 * call (exit() from a handler runs the layers' destructors on
		 * the frame thread's stack). */
		if (wait_or_force(ctl, &cur, "the end of recording", "recording stops without it"))
			return cur;
		next = (uint64_t)xl_control_word_id(cur) << XL_ID_SHIFT;
		if (atomic_compare_exchange_weak_explicit(&ctl->word, &cur, next,
		                                          memory_order_acq_rel,
		                                          memory_order_acquire))
			return next;
	}
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
	if (ctl->time_limit_s > 0.0 && xl_control_word_active(word)) {
		uint32_t id = xl_control_word_id(word);
		uint64_t start_ns;
		if (xl_control_session_start(ctl, id, NULL, &start_ns) &&
		    now_mono_ns >= start_ns + (uint64_t)(ctl->time_limit_s * 1e9))
			xl_control_stop_session(ctl, id);
	}
}
