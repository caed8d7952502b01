/*
 * The side's writer thread; see xl_writer.h.
 */
#include "xl_writer.h"

#include "xl_clock.h"
#include "xl_files.h"
#include "xl_fn.h"
#include "xl_side_csv.h"
#include "xl_log.h"
#include "xl_thread.h"

#include "u_locale.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POLL_ACTIVE_NS 2000000ull  /* 2 ms while recording */
#define POLL_IDLE_NS 20000000ull   /* 20 ms while idle */
#define FLUSH_EVERY_NS 500000000ull
/* How long a closing session waits for its last GPU timestamps. */
#define GPU_DRAIN_NS 250000000ull


/* A failure the side cannot recover from this session: stop recording. */
static void give_up_session(struct xl_writer *w)
{
	w->open_failed = true;
	xl_control_request(w->cfg.ctl, XL_REQ_STOP);
}

/* Tags repeat when sessions start within one second, or in an earlier
 * instance of the same process: pre then takes the first free "-<n>". */
#define MAX_TAG_SUFFIX 1000
#define TAG_WAIT_STEP_NS 1000000ull
#define TAG_WAIT_NS 5000000000ull

/* Pre: creates its file under the first free tag and publishes the tag. */
static int create_pre_file(struct xl_writer *w, struct xl_session_info *info)
{
	for (uint32_t n = 0; n < MAX_TAG_SUFFIX; n++) {
		xl_files_tag(w->open_tag, sizeof(w->open_tag), getpid(), info->start_realtime_s, n);
		if (xl_side_csv_open(&w->csv, w->dir_fd, w->open_tag, &w->cfg.meta) == 0) {
			memcpy(info->tag, w->open_tag, sizeof(info->tag));
			atomic_store_explicit(&info->tag_state, XL_TAG_READY, memory_order_release);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	int saved = errno;
	atomic_store_explicit(&info->tag_state, XL_TAG_FAILED, memory_order_release);
	errno = saved;
	return -1;
}

static bool tag_decided(void *ctx)
{
	struct xl_session_info *info = ctx;
	return atomic_load_explicit(&info->tag_state, memory_order_acquire) != XL_TAG_PENDING;
}

/* Post: waits for the tag pre chose, then creates its file under it. */
static int create_post_file(struct xl_writer *w, struct xl_session_info *info)
{
	if (!xl_thread_wait(tag_decided, info, TAG_WAIT_NS, TAG_WAIT_STEP_NS)) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (atomic_load_explicit(&info->tag_state, memory_order_acquire) != XL_TAG_READY) {
		errno = ENOENT; /* pre could not create its own file */
		return -1;
	}
	memcpy(w->open_tag, info->tag, sizeof(w->open_tag));
	return xl_side_csv_open(&w->csv, w->dir_fd, w->open_tag, &w->cfg.meta);
}

static void open_session(struct xl_writer *w, uint32_t id)
{
	struct xl_session_info *info = xl_control_session(w->cfg.ctl, id);
	int err;

	w->open_id = id;
	w->open_failed = false;
	w->dirty = false;
	w->open_tag[0] = '\0';
	/* The slot is reused every XL_SESSION_SLOTS sessions: check it is ours. */
	if (atomic_load_explicit(&info->id, memory_order_acquire) != id) {
		xl_log_once(XL_ONCE_SESSION_INFO,
		            "session %u: its start data was overwritten before this side "
		            "caught up (toggled too fast); its rows are dropped", id);
		w->open_failed = true;
		return;
	}
	if (w->dir_fd < 0)
		err = EBADF;
	else if (w->cfg.side == XL_SIDE_PRE)
		err = create_pre_file(w, info) == 0 ? 0 : errno;
	else
		err = create_post_file(w, info) == 0 ? 0 : errno;
	if (err) {
		xl_log_once(XL_ONCE_FILE_OPEN, "session %u: cannot create its %s file in %s: %s; "
		            "recording stopped", id, w->cfg.meta.side, w->cfg.ctl->output_dir,
		            err == EBADF ? "the directory is unusable" : strerror(err));
		give_up_session(w);
		return;
	}
	xl_log("session %s: recording to %s/%s", w->open_tag, w->cfg.ctl->output_dir,
	       w->csv.name);
}

struct gpu_emit_ctx {
	struct xl_writer *w;
	struct xl_gpu *gpu;
};

static void open_gpu_file(struct xl_writer *w, struct xl_gpu *gpu)
{
	struct xl_gpu_calibration cal;

	w->gpu_gated = atomic_load(&w->cfg.ctl->gpu->gated);
	if (xl_gpu_csv_open(&w->gpu_csv, w->dir_fd, w->open_tag, &w->cfg.meta,
	                    w->gpu_gated ? "gated" : "sandwich") != 0) {
		xl_log_once(XL_ONCE_FILE_OPEN, "session %s: cannot create %s: %s; GPU samples "
		            "dropped", w->open_tag, w->gpu_csv.name, strerror(errno));
		w->gpu_failed = true;
		return;
	}
	if (xl_gpu_calibrate(gpu, &cal))
		xl_gpu_csv_calibration(&w->gpu_csv, &cal);
}

/* Writes one finished GPU sample into its session's GPU file. */
static void emit_gpu_sample(void *ctx, const struct xl_gpu_sample *s)
{
	struct gpu_emit_ctx *c = ctx;
	struct xl_writer *w = c->w;

	if (s->session_id != w->open_id || w->open_failed || w->gpu_failed)
		return; /* its session's files are gone or unusable */
	if (!w->gpu_csv.file)
		open_gpu_file(w, c->gpu);
	if (w->gpu_csv.file && !xl_gpu_csv_row(&w->gpu_csv, s)) {
		xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s", w->open_tag,
		            w->gpu_csv.name, strerror(errno));
		w->gpu_failed = true;
	}
	w->dirty = true;
}

static void log_gpu_problems(struct xl_writer *w, struct xl_gpu *gpu)
{
	int err = atomic_load(&gpu->submit_error);
	if (err != VK_SUCCESS)
		xl_log_once(XL_ONCE_GPU, "vkQueueSubmit of a GPU timestamp failed (VkResult %d); "
		            "GPU samples are missing from then on", err);
	(void)w;
}

/*
 * Collects finished GPU samples up to session @p max_session. Returns true
 * while samples of those sessions are still on the GPU.
 */
static bool poll_gpu(struct xl_writer *w, uint32_t max_session)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	bool more = false;

	if (!holder)
		return false;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	if (gpu) {
		struct gpu_emit_ctx ctx = {w, gpu};
		more = xl_gpu_collect(gpu, max_session, emit_gpu_sample, &ctx);
		log_gpu_problems(w, gpu);
	}
	pthread_mutex_unlock(&holder->lock);
	return more;
}

/* Whether every GPU sample of the open session has been written. */
static bool gpu_collected(void *ctx)
{
	struct xl_writer *w = ctx;
	return !poll_gpu(w, w->open_id);
}

static void close_gpu_file(struct xl_writer *w, struct xl_session_info *info)
{
	uint64_t overflow = atomic_load(&info->gpu_overflow[w->cfg.side]);

	/* The timestamps of the session's last frames are still on the GPU. */
	xl_thread_wait(gpu_collected, w, GPU_DRAIN_NS, 1000000);
	if (w->gpu_csv.file) {
		/* The gate is re-armed only by the next XrSession's creation. */
		if (w->gpu_gated && atomic_load(&w->cfg.ctl->gpu->gate.tripped))
			xl_csv_file_text(&w->gpu_csv, "# gpu_gate_tripped=1 (the target waited for its "
			                              "own GPU work: sandwich mode from then on)\n");
		if (!xl_gpu_csv_close(&w->gpu_csv, overflow))
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: %s is incomplete", w->open_tag,
			            w->gpu_csv.name);
	} else if (overflow) {
		xl_log("session %s: %llu GPU samples skipped (all GPU slots busy)", w->open_tag,
		       (unsigned long long)overflow);
	}
	w->gpu_failed = false;
}

/* Sets the calling thread's scheduling policy (no priority: the normal ones). */
static void set_policy(pthread_t thread, int policy)
{
	struct sched_param none = {0};
	pthread_setschedparam(thread, policy, &none);
}

/*
 * Runs the session-closed hook (post: the merge, CPU-bound for up to
 * seconds) at SCHED_IDLE, so that it never takes a core from the
 * application's frame thread, then gives the merge's memory back. A stop
 * request restores the normal policy (see xl_writer_stop): an exiting
 * process must not wait for a starved merge.
 */
static void run_session_closed(struct xl_writer *w, uint32_t id)
{
	set_policy(pthread_self(), SCHED_IDLE);
	if (atomic_load(&w->stop))
		set_policy(pthread_self(), SCHED_OTHER);
	w->cfg.session_closed(w->cfg.ctx, id, w->open_tag);
	set_policy(pthread_self(), SCHED_OTHER);
	malloc_trim(0);
}

static void close_session(struct xl_writer *w)
{
	uint32_t id = w->open_id;
	struct xl_session_info *info = xl_control_session(w->cfg.ctl, id);
	uint64_t dropped = atomic_load(&info->dropped[w->cfg.side]);
	bool had_rows = false;

	if (!w->open_failed) {
		close_gpu_file(w, info);
		had_rows = w->csv.rows > 0;
		if (!xl_side_csv_close(&w->csv, dropped))
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed (disk full?); "
			            "the file is incomplete", w->open_tag, w->csv.name);
		xl_log("session %s: %llu rows, %llu dropped (ring full)", w->open_tag,
		       (unsigned long long)w->csv.rows, (unsigned long long)dropped);
		uint32_t unserved = xl_ring_pool_unserved(w->cfg.rings);
		if (unserved)
			xl_log("session %s: %u threads found none of the %d per-thread rings free: "
			       "their frames are among the dropped", w->open_tag, unserved,
			       XL_RING_THREADS);
	}
	w->open_id = 0;
	w->dirty = false; /* closing flushed everything */
	if (id > w->closed_id)
		w->closed_id = id;
	atomic_store_explicit(&w->cfg.ctl->finished[w->cfg.side], w->closed_id,
	                      memory_order_release);
	if (had_rows && w->cfg.session_closed)
		run_session_closed(w, id);
}

static void handle_record(struct xl_writer *w, const struct xl_call_record *rec)
{
	if (rec->fn != XL_FN_xrEndFrame)
		return; /* the frames file holds xrEndFrame's records alone */
	if (rec->session_id <= w->closed_id) {
		/* Only possible when two threads race a stop; see README. */
		xl_log_once(XL_ONCE_LATE_RECORD, "a frame of session %u arrived after the session "
		            "ended (xrEndFrame on two threads at a stop); it is dropped",
		            rec->session_id);
		return;
	}
	if (rec->session_id != w->open_id) {
		if (w->open_id)
			close_session(w);
		open_session(w, rec->session_id);
	}
	if (w->open_failed)
		return;
	if (!xl_side_csv_row(&w->csv, rec)) {
		xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s; recording "
		            "stopped", w->open_tag, w->csv.name, strerror(errno));
		give_up_session(w);
		return;
	}
	w->dirty = true;
}

/* One pass: drain, close what has ended, run timers, flush. Returns the word seen. */
static uint64_t writer_poll(struct xl_writer *w)
{
	/* Read the state before draining: every record of a session that had
	 * ended by then is already in the ring (release/acquire on the word). */
	uint64_t word = atomic_load_explicit(&w->cfg.ctl->word, memory_order_acquire);
	struct xl_call_record rec;
	uint64_t now;

	while (xl_ring_pool_pop(w->cfg.rings, &rec))
		handle_record(w, &rec);

	now = xl_clock_mono_ns();
	poll_gpu(w, w->open_id);

	uint32_t ended = xl_control_ended_id(word);
	if (w->open_id && w->open_id <= ended)
		close_session(w);
	if (ended > w->closed_id) {
		w->closed_id = ended;
		atomic_store_explicit(&w->cfg.ctl->finished[w->cfg.side], ended,
		                      memory_order_release);
	}

	if (w->cfg.side == XL_SIDE_PRE)
		xl_control_poll_timers(w->cfg.ctl, now);
	if (w->dirty && w->csv.file && now - w->last_flush_ns >= FLUSH_EVERY_NS) {
		if (w->gpu_csv.file)
			xl_csv_file_flush(&w->gpu_csv);
		if (!xl_csv_file_flush(&w->csv)) {
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: flushing %s failed: %s; "
			            "recording stopped", w->open_tag, w->csv.name, strerror(errno));
			give_up_session(w);
		}
		w->dirty = false;
		w->last_flush_ns = now;
	}
	return word;
}

static void *writer_main(void *arg)
{
	struct xl_writer *w = arg;

	/* Measured here, off the frame thread and off xrCreateInstance. */
	if (w->cfg.side == XL_SIDE_POST) {
		double read_ns = xl_clock_read_cost_ns();
		w->cfg.meta.bracket_correction_ns = llround(2.0 * read_ns);
		xl_log("clock read: %.1f ns; bracket correction: %lld ns", read_ns,
		       w->cfg.meta.bracket_correction_ns);
	}
	/* Numbers are written with '.' whatever the host application's locale. */
	locale_t c_locale = u_locale_c();
	locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;

	for (;;) {
		bool stopping = atomic_load(&w->stop);
		uint64_t word = writer_poll(w);
		if (stopping)
			break;
		xl_thread_sleep_ns((word & XL_ACTIVE) ? POLL_ACTIVE_NS : POLL_IDLE_NS);
	}
	if (w->open_id)
		close_session(w);

	if (c_locale)
		uselocale(old);
	return NULL;
}

int xl_writer_start(struct xl_writer *w, const struct xl_writer_config *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	atomic_init(&w->stop, false);
	w->closed_id = atomic_load(&cfg->ctl->finished[cfg->side]);
	w->dir_fd = xl_files_open_dir(cfg->ctl->output_dir);
	if (w->dir_fd < 0)
		xl_log("output directory %s cannot be used: %s; nothing will be recorded",
		       cfg->ctl->output_dir, strerror(errno));

	int err = xl_thread_start(&w->thread, writer_main, w,
	                          cfg->side == XL_SIDE_PRE ? "xrlm-pre" : "xrlm-post");
	if (err) {
		xl_log("cannot start the writer thread: %s; nothing will be recorded", strerror(err));
		if (w->dir_fd >= 0)
			close(w->dir_fd);
		w->dir_fd = -1;
		return -1;
	}
	w->started = true;
	return 0;
}

void xl_writer_stop(struct xl_writer *w)
{
	if (!w->started)
		return;
	atomic_store(&w->stop, true);
	set_policy(w->thread, SCHED_OTHER); /* a merge at SCHED_IDLE finishes now */
	pthread_join(w->thread, NULL);
	w->started = false;
	if (w->dir_fd >= 0)
		close(w->dir_fd);
	w->dir_fd = -1;
}
