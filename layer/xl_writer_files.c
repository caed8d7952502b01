/*
 * The files of the session the writer has open; see xl_writer_files.h.
 */
#include "xl_writer_files.h"

#include "xl_files.h"
#include "xl_fn.h"
#include "xl_gl.h"
#include "xl_log.h"
#include "xl_thread.h"
#include "u_ticks.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
	info->tag_error = saved;
	atomic_store_explicit(&info->tag_state, XL_TAG_FAILED, memory_order_release);
	errno = saved;
	return -1;
}

static bool tag_decided(void *ctx)
{
	struct xl_session_info *info = ctx;
	return atomic_load_explicit(&info->tag_state, memory_order_acquire) != XL_TAG_PENDING;
}

/* Post: waits for the tag pre chose, then creates its file under it.
 * -2 (errno: pre's) when pre could not create its own. */
static int create_post_file(struct xl_writer *w, struct xl_session_info *info)
{
	if (!xl_thread_wait(tag_decided, info, TAG_WAIT_NS, TAG_WAIT_STEP_NS)) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (atomic_load_explicit(&info->tag_state, memory_order_acquire) != XL_TAG_READY) {
		errno = info->tag_error;
		return -2;
	}
	memcpy(w->open_tag, info->tag, sizeof(w->open_tag));
	return xl_side_csv_open(&w->csv, w->dir_fd, w->open_tag, &w->cfg.meta);
}

/*
 * XRLM_TRACE without csv: the session gets its tag, for the trace's events,
 * and no file (rows, GPU samples and footers are skipped as for a session
 * whose files failed, without stopping the recording). Pre takes the tag's
 * first form: with no file to collide with, two sessions that start within
 * one second share it and are told apart by their session id.
 */
static void name_session_only(struct xl_writer *w, struct xl_session_info *info)
{
	if (w->cfg.side == XL_SIDE_PRE) {
		xl_files_tag(w->open_tag, sizeof(w->open_tag), getpid(), info->start_realtime_s, 0);
		memcpy(info->tag, w->open_tag, sizeof(info->tag));
		atomic_store_explicit(&info->tag_state, XL_TAG_READY, memory_order_release);
	} else if (xl_thread_wait(tag_decided, info, TAG_WAIT_NS, TAG_WAIT_STEP_NS) &&
	           atomic_load_explicit(&info->tag_state, memory_order_acquire) == XL_TAG_READY) {
		memcpy(w->open_tag, info->tag, sizeof(w->open_tag));
	}
	w->open_failed = true;
}

/*
 * The output directory was deleted while the app ran (its descriptor still
 * points at the dead inode): make it again, as safely as at the start, and
 * move the log there. Files already written with it are gone.
 */
static void recreate_dir(struct xl_writer *w)
{
	char why[512];

	close(w->dir_fd);
	w->dir_fd = xl_files_open_dir(w->cfg.ctl->output_dir, why, sizeof(why));
	if (w->dir_fd < 0) {
		xl_log_loud("output directory %s was deleted and cannot be made again: %s; "
		            "recording stopped", w->cfg.ctl->output_dir, why);
		return;
	}
	xl_log_reopen(w->dir_fd);
	xl_log_loud("output directory %s was deleted while the application ran: made it again",
	            w->cfg.ctl->output_dir);
}

/*
 * Pre: one line on stderr when a toggle signal started or stopped the
 * session, said here and not in the handler (no stdio there). A session
 * the signal started and something else ended (a limit, the exit) says
 * "stopped" without the cause.
 */
static void report_toggle(struct xl_writer *w, bool opening)
{
	if (w->cfg.side != XL_SIDE_PRE)
		return;
	uint32_t toggles = atomic_load_explicit(&w->cfg.ctl->signal_toggles, memory_order_relaxed);
	bool signalled = toggles != w->toggles_seen;
	w->toggles_seen = toggles;
	if (opening) {
		w->by_signal = signalled;
		if (signalled)
			xl_log_loud("recording started by signal: session %s", w->open_tag);
	} else if (signalled || w->by_signal) {
		xl_log_loud("recording stopped%s: session %s", signalled ? " by signal" : "",
		            w->open_tag);
	}
}

/* The calls file, under the tag the frames file got; the frames go on without it. */
static void open_calls_file(struct xl_writer *w)
{
	w->calls_failed = xl_calls_csv_open(&w->calls_csv, w->dir_fd, w->open_tag,
	                                    &w->cfg.meta) != 0;
	if (w->calls_failed)
		xl_log_once(XL_ONCE_FILE_OPEN, "session %s: cannot create its calls file in %s: "
		            "%s; only xrEndFrame is recorded (frames file)", w->open_tag,
		            w->cfg.ctl->output_dir, strerror(errno));
}

/* Closes the calls file with its footer: @p dropped counts every function's drops. */
static void close_calls_file(struct xl_writer *w, uint64_t dropped)
{
	if (!xl_csv_file_is_open(&w->calls_csv))
		return;
	if (!xl_side_csv_close(&w->calls_csv, dropped))
		xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed (disk full?); "
		            "the file is incomplete", w->open_tag, w->calls_csv.name);
	xl_log("session %s: %llu calls recorded, %llu dropped", w->open_tag,
	       (unsigned long long)w->calls_csv.rows, (unsigned long long)dropped);
}

void xl_writer_files_open(struct xl_writer *w, uint32_t id)
{
	struct xl_session_info *info = xl_control_session(w->cfg.ctl, id);

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
	if (w->cfg.no_csv) {
		name_session_only(w, info);
		return;
	}
	if (w->dir_fd >= 0 && xl_files_dir_deleted(w->dir_fd))
		recreate_dir(w);
	if (w->dir_fd < 0) {
		/* Why was said once, when the directory was refused or lost. */
		give_up_session(w);
		return;
	}
	int rc = w->cfg.side == XL_SIDE_PRE ? create_pre_file(w, info) : create_post_file(w, info);
	int err = rc == 0 ? 0 : errno;
	if (err) {
		xl_log_once(XL_ONCE_FILE_OPEN, "session %u: cannot create its %s file in %s: %s%s; "
		            "recording stopped", id, w->cfg.meta.side, w->cfg.ctl->output_dir,
		            rc == -2 ? "pre could not create its own file there: " : "",
		            strerror(err));
		give_up_session(w);
		return;
	}
	xl_log("session %s: recording to %s/%s", w->open_tag, w->cfg.ctl->output_dir,
	       w->csv.name);
	open_calls_file(w);
	report_toggle(w, true);
}

struct gpu_emit_ctx {
	struct xl_writer *w;
	struct xl_gpu *gpu; /* a Vulkan session's, or NULL */
	struct xl_gl *gl;   /* an OpenGL session's, or NULL */
};

/*
 * The width of the side's current GPU clock, for a GPU file opened
 * without a sample: its Vulkan queue's timestampValidBits; OpenGL's
 * nanoseconds, or no stamper left, 64. Takes the holder's lock, which a
 * sample's emit already holds: only for a file opened without one.
 */
static unsigned current_valid_bits(struct xl_writer *w)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	unsigned bits = U_TICKS_BITS_MAX;

	if (!holder)
		return bits;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	if (gpu && !atomic_load(&holder->gl))
		bits = gpu->valid_bits;
	pthread_mutex_unlock(&holder->lock);
	return bits;
}

/*
 * Opens the session's GPU file; @p c NULL (no sample came): no clock
 * correlation line, the clock named after the side's current GPU state.
 */
static void open_gpu_file(struct xl_writer *w, const struct gpu_emit_ctx *c)
{
	struct xl_gpu_calibration cal;
	bool gl = c ? c->gl != NULL : w->cfg.gpu && atomic_load(&w->cfg.gpu->gl) != NULL;
	/* The readers subtract ticks modulo this width (README "GPU files"). */
	unsigned bits = !c ? current_valid_bits(w) : gl ? U_TICKS_BITS_MAX : c->gpu->valid_bits;

	w->gpu_gated = !gl && atomic_load(&w->cfg.ctl->gpu->gated);
	if (xl_gpu_csv_open(&w->gpu_csv, w->dir_fd, w->open_tag, &w->cfg.meta,
	                    gl ? "opengl" : "vulkan", w->gpu_gated ? "gated" : "sandwich",
	                    bits) != 0) {
		xl_log_once(XL_ONCE_FILE_OPEN, "session %s: cannot create %s: %s; GPU samples "
		            "dropped", w->open_tag, w->gpu_csv.name, strerror(errno));
		w->gpu_failed = true;
		return;
	}
	if (c && (c->gl ? xl_gl_calibration(c->gl, &cal) : xl_gpu_calibrate(c->gpu, &cal)))
		xl_gpu_csv_calibration(&w->gpu_csv, &cal);
}

/* A clock correlation for the trace's GPU events (xl_trace_calibrate_fn). */
static bool trace_calibrate(void *ctx, struct xl_gpu_calibration *out)
{
	const struct gpu_emit_ctx *c = ctx;
	return c->gl ? xl_gl_calibration(c->gl, out) : xl_gpu_calibrate(c->gpu, out);
}

/* Writes one finished GPU sample into its session's GPU file (and traces it). */
static void emit_gpu_sample(void *ctx, const struct xl_gpu_sample *s)
{
	struct gpu_emit_ctx *c = ctx;
	struct xl_writer *w = c->w;

	/* A bracket measurement is no frame: only the GPU file carries it. */
	if (!s->bracket)
		xl_trace_gpu(&w->trace, s, trace_calibrate, c);
	if (s->session_id != w->open_id || w->open_failed || w->gpu_failed)
		return; /* its session's files are gone or unusable */
	if (!xl_csv_file_is_open(&w->gpu_csv))
		open_gpu_file(w, c);
	if (xl_csv_file_is_open(&w->gpu_csv) && !xl_gpu_csv_row(&w->gpu_csv, s)) {
		xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s", w->open_tag,
		            w->gpu_csv.name, strerror(errno));
		w->gpu_failed = true;
	}
	if (s->valid && !s->bracket)
		xl_live_gpu(&w->cfg.ctl->live, w->cfg.side, s->session_id, s->display_time, s->ticks,
		            s->valid_bits, s->period_ns);
	w->dirty = true;
}

static void log_gpu_problems(struct xl_writer *w, struct xl_gpu *gpu)
{
	int err = atomic_load(&gpu->submit_error);
	if (err == VK_SUCCESS)
		return;
	xl_log_once(XL_ONCE_GPU, "vkQueueSubmit of a GPU timestamp failed (VkResult %d); "
	            "no more are submitted, and the GPU samples are missing from then on", err);
	w->gpu_submit_failed = true;
}

bool xl_writer_files_poll_gpu(struct xl_writer *w, uint32_t max_session)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	bool more = false;

	if (!holder)
		return false;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	if (gpu) {
		struct gpu_emit_ctx ctx = {w, gpu, NULL};
		more = xl_gpu_collect(gpu, max_session, emit_gpu_sample, &ctx);
		log_gpu_problems(w, gpu);
	}
	struct xl_gl *gl = atomic_load(&holder->gl);
	if (gl) {
		struct gpu_emit_ctx ctx = {w, NULL, gl};
		more |= xl_gl_collect(gl, max_session, emit_gpu_sample, &ctx);
	}
	pthread_mutex_unlock(&holder->lock);
	return more;
}

/* The open session's samples still on the GPU: lost once its file is closed. */
static unsigned gpu_pending(struct xl_writer *w)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	unsigned n = 0;

	if (!holder)
		return 0;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	if (gpu)
		n = xl_gpu_pending(gpu, w->open_id);
	/* OpenGL: read back only by frames, which a stopped recording no longer stamps. */
	struct xl_gl *gl = atomic_load(&holder->gl);
	if (gl)
		n += xl_gl_pending(gl);
	pthread_mutex_unlock(&holder->lock);
	return n;
}

/* Whether every GPU sample of the open session has been written. */
static bool gpu_collected(void *ctx)
{
	struct xl_writer *w = ctx;
	return !xl_writer_files_poll_gpu(w, w->open_id);
}

static void close_gpu_file(struct xl_writer *w, struct xl_session_info *info)
{
	uint64_t skipped = atomic_load(&info->gpu_overflow[w->cfg.side]);

	/* The timestamps of the session's last frames are still on the GPU. */
	xl_thread_wait(gpu_collected, w, GPU_DRAIN_NS, 1000000);
	/* Both are lost samples: the file's count says how many, not why. */
	unsigned late = gpu_pending(w);
	uint64_t overflow = skipped + late;
	/* Every sample was skipped: the file then holds just the count, so that
	 * the merged summary says what was lost. */
	if (!xl_csv_file_is_open(&w->gpu_csv) && overflow && !w->gpu_failed)
		open_gpu_file(w, NULL);
	if (xl_csv_file_is_open(&w->gpu_csv)) {
		/* The gate is re-armed only by the next XrSession's creation. */
		if (w->gpu_gated && atomic_load(&w->cfg.ctl->gpu->gate.tripped))
			xl_csv_file_text(&w->gpu_csv, "# gpu_gate_tripped=1 (the target did not call "
			                              "down in time: sandwich mode from then on)\n");
		if (!xl_gpu_csv_close(&w->gpu_csv, overflow))
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: %s is incomplete", w->open_tag,
			            w->gpu_csv.name);
	}
	if (overflow)
		xl_log("session %s: %llu GPU samples lost: %llu skipped (%s), %u "
		       "still on the GPU %llu ms after the session ended%s", w->open_tag,
		       (unsigned long long)overflow, (unsigned long long)skipped,
		       w->gpu_submit_failed ? "all GPU slots busy, or after the failed submission"
		                            : "all GPU slots busy, or uncollected at xrDestroySession",
		       late,
		       (unsigned long long)(GPU_DRAIN_NS / 1000000),
		       w->gpu_failed ? "" : "; counted in the GPU file's gpu_ring_overflow");
	w->gpu_failed = false;
	w->gpu_submit_failed = false;
}

/*
 * A session given up (a file could not be written, or not every one
 * opened): whatever is open is closed as it is, without its footer, so
 * that no descriptor outlives the session.
 */
static void abandon_files(struct xl_writer *w)
{
	xl_csv_file_close(&w->csv, NULL);
	xl_csv_file_close(&w->calls_csv, NULL);
	xl_csv_file_close(&w->gpu_csv, NULL);
	w->gpu_failed = false;
	w->gpu_submit_failed = false;
}

bool xl_writer_files_close(struct xl_writer *w)
{
	uint32_t id = w->open_id;
	struct xl_session_info *info = xl_control_session(w->cfg.ctl, id);
	uint64_t dropped = atomic_load(&info->dropped[w->cfg.side]);
	bool had_rows = false;

	if (w->open_failed) {
		abandon_files(w);
	} else {
		close_gpu_file(w, info);
		had_rows = w->csv.rows > 0;
		if (!xl_side_csv_close(&w->csv, dropped))
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed (disk full?); "
			            "the file is incomplete", w->open_tag, w->csv.name);
		uint64_t no_ring = atomic_load(&info->no_ring[w->cfg.side]);
		xl_log("session %s: %llu rows, %llu dropped (%llu ring full, %llu no ring free)",
		       w->open_tag, (unsigned long long)w->csv.rows, (unsigned long long)dropped,
		       (unsigned long long)(dropped - no_ring), (unsigned long long)no_ring);
		close_calls_file(w, atomic_load(&info->calls_dropped[w->cfg.side]));
		report_toggle(w, false);
		uint32_t unserved = xl_ring_pool_unserved(w->cfg.rings);
		if (unserved)
			xl_log("session %s: %u threads found none of the %d per-thread rings free: "
			       "their frames are among the dropped", w->open_tag, unserved,
			       XL_RING_THREADS);
	}
	w->open_id = 0;
	w->ended_ns = 0;
	w->dirty = false; /* closing flushed everything */
	if (id > w->closed_id)
		w->closed_id = id;
	atomic_store_explicit(&w->cfg.ctl->finished[w->cfg.side], w->closed_id,
	                      memory_order_release);
	return had_rows;
}

/* The calls file failed: the frames file goes on without it. */
static void calls_file_failed(struct xl_writer *w)
{
	xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s; calls no longer "
	            "recorded", w->open_tag, w->calls_csv.name, strerror(errno));
	w->calls_failed = true;
}

void xl_writer_files_row(struct xl_writer *w, const struct xl_call_record *rec)
{
	if (w->open_failed)
		return;
	if (!w->calls_failed && !xl_calls_csv_row(&w->calls_csv, rec))
		calls_file_failed(w);
	w->dirty = true;
	if (rec->fn != XL_FN_xrEndFrame)
		return; /* the frames file holds xrEndFrame's records alone */
	if (!xl_side_csv_row(&w->csv, rec)) {
		xl_log_once(XL_ONCE_RECORDING_STOPPED, "session %s: writing %s failed: %s; recording "
		            "stopped", w->open_tag, w->csv.name, strerror(errno));
		give_up_session(w);
		return;
	}
	w->dirty = true;
}

void xl_writer_files_flush(struct xl_writer *w, uint64_t now)
{
	if (!w->dirty || !xl_csv_file_is_open(&w->csv) || now - w->last_flush_ns < FLUSH_EVERY_NS)
		return;
	if (xl_csv_file_is_open(&w->gpu_csv))
		xl_csv_file_flush(&w->gpu_csv);
	if (xl_csv_file_is_open(&w->calls_csv) && !w->calls_failed && !xl_csv_file_flush(&w->calls_csv))
		calls_file_failed(w);
	if (!xl_csv_file_flush(&w->csv)) {
		xl_log_once(XL_ONCE_RECORDING_STOPPED, "session %s: flushing %s failed: %s; "
		            "recording stopped", w->open_tag, w->csv.name, strerror(errno));
		give_up_session(w);
	}
	w->dirty = false;
	w->last_flush_ns = now;
}
