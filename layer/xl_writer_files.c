/*
 * The files of the sessions the writer has open; see xl_writer_files.h.
 */
#include "xl_writer_files.h"

#include "quote.h"
#include "xl_clock.h"
#include "xl_files.h"
#include "xl_fn.h"
#include "xl_gl.h"
#include "xl_log.h"
#include "xl_thread.h"
#include "u_ticks.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define FLUSH_EVERY_NS 500000000ull
/* How long a closing session waits for its last GPU timestamps. */
#define GPU_DRAIN_NS 250000000ull
/*
 * After a session's files failed for lack of space, pre makes no session's
 * files until this much more is free on the directory's filesystem than
 * then (one file's buffer), or NOSPACE_RETRY_NS have passed (a quota,
 * which statvfs does not see, may have been raised).
 */
#define NOSPACE_FREED (64 * 1024ull)
#define NOSPACE_RETRY_NS 10000000000ull

static bool lack_of_space(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

/* Bytes free to this user on the output directory's filesystem (0: unknown). */
static uint64_t dir_free(const struct xl_writer *w)
{
	struct statvfs v;
	return fstatvfs(w->dir_fd, &v) == 0 ? (uint64_t)v.f_bavail * v.f_frsize : 0;
}

/* A session's files failed with @p err: for lack of space, pre makes no more for a while. */
static void note_failure(struct xl_writer *w, int err)
{
	struct xl_control *ctl = w->cfg.ctl;

	if (!lack_of_space(err))
		return;
	atomic_store(&ctl->nospace_free, dir_free(w));
	atomic_store(&ctl->nospace_errno, err);
	atomic_store(&ctl->nospace_ns, xl_clock_mono_ns());
}

/*
 * Pre, at a session's start: whether its files are not to be made, a
 * session's files having failed for lack of space lately (note_failure).
 * Says so once until sessions are recorded again; @p err: why.
 */
static bool space_refused(struct xl_writer *w, int *err)
{
	struct xl_control *ctl = w->cfg.ctl;
	char q[XL_PATH_MAX];
	uint64_t since = atomic_load(&ctl->nospace_ns);

	if (!since)
		return false;
	*err = atomic_load(&ctl->nospace_errno);
	if (xl_clock_mono_ns() - since >= NOSPACE_RETRY_NS ||
	    dir_free(w) >= atomic_load(&ctl->nospace_free) + NOSPACE_FREED) {
		atomic_compare_exchange_strong(&ctl->nospace_ns, &since, 0);
		w->nospace_said = false;
		return false;
	}
	if (!w->nospace_said)
		xl_log_loud("sessions are not recorded for now: the files of one could not be "
		            "written in %s: %s; recording resumes at the first start once %llu KiB "
		            "more are free there, or %llu s after the failure",
		            xl_writer_dir_shown(w, q), strerror(*err),
		            (unsigned long long)(NOSPACE_FREED / 1024),
		            (unsigned long long)(NOSPACE_RETRY_NS / 1000000000ull));
	w->nospace_said = true;
	return true;
}

/*
 * A failure the side cannot recover from this session: stop recording, if
 * the session still is the one recording (a writer that fell behind must
 * not stop a later, healthy session for an old one's failure).
 */
static void give_up_session(struct xl_writer *w, struct xl_writer_session *s,
                            const char *lost_why)
{
	s->failed = true;
	s->lost_why = lost_why;
	xl_control_stop_session(w->cfg.ctl, s->id);
}

/* Notes that session @p s's file @p f could not be written (errno): its first failure is kept. */
static void mark_lost(struct xl_writer *w, struct xl_writer_session *s,
                      const struct xl_csv_file *f)
{
	int err = errno;
	if (!s->lost_err) {
		s->lost_err = err ? err : EIO;
		snprintf(s->lost_file, sizeof(s->lost_file), "%s", f->name);
	}
	note_failure(w, err);
}

/* Session @p s's file @p f could not be written (errno): the session is lost. */
static void lose_session(struct xl_writer *w, struct xl_writer_session *s,
                         const struct xl_csv_file *f)
{
	mark_lost(w, s, f);
	give_up_session(w, s, "its files failed");
}

/*
 * The open session's slot holds a later session: this side fell
 * XL_SESSION_SLOTS sessions behind, and the session's tag (and with it the
 * other side's files) can no longer be told from the later one's. Its
 * records are dropped, and counted, rather than written under a tag that
 * may be another session's.
 */
static void skip_taken_session(struct xl_writer_session *s)
{
	xl_log_once(XL_ONCE_SESSION_INFO,
	            "session %u: its slot was taken by a later session before this side "
	            "caught up (toggled too fast); its records are dropped and counted",
	            s->id);
	s->failed = true;
	s->lost_why = "its slot was taken by a later session before this side caught up";
}

/*
 * Post: pre has no file for the open session (none of its records reached
 * pre's writer, or pre cannot write in the directory): nothing to merge
 * post's file with, so its records are dropped, and counted.
 */
static void skip_session_without_pre(struct xl_writer *w, struct xl_writer_session *s)
{
	char q[XL_PATH_MAX];

	xl_log_once(XL_ONCE_SESSION_INFO,
	            "session %u: pre has no file for it (none of its records reached pre's "
	            "writer, or pre cannot write in %s: see xrlm-pre.log); post's records of it "
	            "are dropped and counted", s->id, xl_writer_dir_shown(w, q));
	s->failed = true;
	s->lost_why = "pre has no file for it";
}

/* Tags repeat when sessions start within one second, or in an earlier
 * instance of the same process: pre then takes the first free "-<n>". */
#define MAX_TAG_SUFFIX 1000
#define TAG_WAIT_STEP_NS 1000000ull
/* Pre settles a tag within a poll of knowing: this bounds a stuck pre. */
#define TAG_WAIT_NS 5000000000ull
/* All of post's waits for tags once its writer is asked to finish
 * (xrDestroyInstance, the exit): pre's writer is joined before by then. */
#define TAG_WAIT_STOPPING_NS 500000000ull

/* How making a session's file went. */
enum open_result {
	OPEN_OK,
	OPEN_FAILED,     /* errno: this side's */
	OPEN_PRE_FAILED, /* post: pre could not make its own file (errno: pre's) */
	OPEN_TAKEN,      /* the session's slot holds a later session */
	OPEN_NO_PRE,     /* post: pre has no file for the session */
};

/* Pre: creates its file under the first free tag and publishes the tag. */
static enum open_result create_pre_file(struct xl_writer *w, struct xl_writer_session *s,
                                        int64_t realtime_s)
{
	for (uint32_t n = 0; n < MAX_TAG_SUFFIX; n++) {
		xl_files_tag(s->tag, sizeof(s->tag), getpid(), realtime_s, n);
		if (xl_side_csv_open(&s->csv, w->dir_fd, s->tag, &w->cfg.meta) != 0) {
			if (errno != EEXIST)
				break;
			continue;
		}
		if (xl_control_settle_tag(w->cfg.ctl, s->id, XL_TAG_READY, 0, s->tag))
			return OPEN_OK;
		/* The slot was refilled while the file was made: post can no
		 * longer learn this tag, and the file would stay alone. */
		xl_csv_file_close(&s->csv, NULL);
		unlinkat(w->dir_fd, s->csv.name, 0);
		return OPEN_TAKEN;
	}
	int saved = errno;
	xl_control_settle_tag(w->cfg.ctl, s->id, XL_TAG_FAILED, saved, NULL);
	errno = saved;
	return OPEN_FAILED;
}

/* What post waits for: session id's tag settled, or its slot taken. */
struct tag_wait {
	struct xl_control *ctl;
	uint32_t id;
	uint64_t state; /* the slot's state word last seen */
};

static bool tag_settled(void *ctx)
{
	struct tag_wait *t = ctx;

	/* Pre settles every session before it says it finished it: read in
	 * this order, a tag still pending then is one pre will never settle. */
	bool pre_past = atomic_load_explicit(&t->ctl->finished[XL_SIDE_PRE],
	                                     memory_order_acquire) >= t->id;
	t->state = xl_control_slot_state(t->ctl, t->id);
	return pre_past || xl_slot_id(t->state) != t->id ||
	       xl_slot_tag_state(t->state) != XL_TAG_PENDING;
}

/*
 * How long post may still wait for a tag: TAG_WAIT_NS, and once its writer
 * is finishing, what is left of TAG_WAIT_STOPPING_NS for all tags together.
 */
static uint64_t tag_wait_ns(struct xl_writer *w)
{
	if (!w->stopping_ns && atomic_load(&w->stop))
		w->stopping_ns = xl_clock_mono_ns();
	if (!w->stopping_ns)
		return TAG_WAIT_NS;
	uint64_t spent = xl_clock_mono_ns() - w->stopping_ns;
	return spent < TAG_WAIT_STOPPING_NS ? TAG_WAIT_STOPPING_NS - spent : 0;
}

/*
 * Post: waits until pre settled session @p id's tag, and takes it into
 * s->tag. OPEN_OK, OPEN_TAKEN, OPEN_NO_PRE, OPEN_PRE_FAILED (errno:
 * pre's), or OPEN_FAILED (ETIMEDOUT).
 */
static enum open_result wait_for_tag(struct xl_writer *w, struct xl_writer_session *s)
{
	uint32_t id = s->id;
	struct tag_wait t = {w->cfg.ctl, id, 0};

	if (!xl_thread_wait(tag_settled, &t, tag_wait_ns(w), TAG_WAIT_STEP_NS) &&
	    !tag_settled(&t)) {
		errno = ETIMEDOUT;
		return OPEN_FAILED;
	}
	if (xl_slot_id(t.state) != id)
		return OPEN_TAKEN;
	switch (xl_slot_tag_state(t.state)) {
	case XL_TAG_READY:
		break;
	case XL_TAG_FAILED:
		errno = xl_slot_errno(t.state);
		return OPEN_PRE_FAILED;
	case XL_TAG_PENDING: /* pre passed it unsettled: it has nothing of it */
	case XL_TAG_NONE:
		return OPEN_NO_PRE;
	}
	/* Read with its session's id checked: a tag is never another session's. */
	return xl_control_session_tag(w->cfg.ctl, id, s->tag) ? OPEN_OK : OPEN_TAKEN;
}

/* Post: waits for the tag pre chose, then creates its file under it. */
static enum open_result create_post_file(struct xl_writer *w, struct xl_writer_session *s)
{
	enum open_result r = wait_for_tag(w, s);
	if (r != OPEN_OK)
		return r;
	if (xl_side_csv_open(&s->csv, w->dir_fd, s->tag, &w->cfg.meta) != 0)
		return OPEN_FAILED;
	return OPEN_OK;
}

/*
 * XRLM_TRACE without csv: the session gets its tag, for the trace's events,
 * and no file (rows, GPU samples and footers are skipped as for a session
 * whose files failed, without stopping the recording). Pre takes the tag's
 * first form: with no file to collide with, two sessions that start within
 * one second share it and are told apart by their session id.
 */
static void name_session_only(struct xl_writer *w, struct xl_writer_session *s,
                              int64_t realtime_s)
{
	if (w->cfg.side == XL_SIDE_PRE) {
		xl_files_tag(s->tag, sizeof(s->tag), getpid(), realtime_s, 0);
		if (!xl_control_settle_tag(w->cfg.ctl, s->id, XL_TAG_READY, 0, s->tag))
			s->tag[0] = '\0';
	} else if (wait_for_tag(w, s) != OPEN_OK) {
		s->tag[0] = '\0';
	}
	s->failed = true;
}

/*
 * The output directory was deleted while the app ran (its descriptor still
 * points at the dead inode): make it again, as safely as at the start, and
 * move the log there. Files already written with it are gone.
 */
static void recreate_dir(struct xl_writer *w)
{
	char why[512], qd[QUOTE_PATH_MAX], qw[QUOTE_PATH_MAX];

	close(w->dir_fd);
	w->dir_fd = xl_files_open_dir(w->cfg.ctl->output_dir, why, sizeof(why));
	const char *dir = quote_path(qd, w->cfg.ctl->output_dir);
	if (w->dir_fd < 0) {
		xl_log_loud("output directory %s was deleted and cannot be made again: %s; "
		            "recording stopped", dir, quote_path(qw, why));
		return;
	}
	xl_log_reopen(w->dir_fd);
	w->deleted_said = false; /* a later deletion is said again */
	xl_log_loud("output directory %s was deleted while the application ran: made it again",
	            dir);
}

/*
 * Pre: one line on stderr when a toggle signal started or stopped the
 * session, said here and not in the handler (no stdio there). A session
 * the signal started and something else ended (a limit, the exit) says
 * "stopped" without the cause. The frame thread that started or stopped
 * the session noted the cause in its slot: by the time the writer sees
 * the session end, the next one may have been started by the next signal.
 */
static void report_toggle(struct xl_writer *w, struct xl_writer_session *s, bool opening)
{
	if (w->cfg.side != XL_SIDE_PRE)
		return;
	uint64_t state = xl_control_slot_state(w->cfg.ctl, s->id);
	/* A slot a later session took says nothing more: taken as no signal. */
	bool signalled = xl_slot_id(state) == s->id &&
	                 (state & (opening ? XL_SLOT_TOGGLE_START : XL_SLOT_TOGGLE_STOP));
	if (opening) {
		s->by_signal = signalled;
		if (signalled)
			xl_log_loud("recording started by signal: session %s", s->tag);
	} else if (signalled || s->by_signal) {
		xl_log_loud("recording stopped%s: session %s", signalled ? " by signal" : "",
		            s->tag);
	}
}

/* The calls file, under the tag the frames file got; the frames go on without it. */
static void open_calls_file(struct xl_writer *w, struct xl_writer_session *s)
{
	char q[XL_PATH_MAX];

	s->calls_failed = xl_calls_csv_open(&s->calls_csv, w->dir_fd, s->tag,
	                                    &w->cfg.meta) != 0;
	if (!s->calls_failed)
		return;
	const char *why = strerror(errno); /* before the lookup of the directory */
	xl_log_once(XL_ONCE_FILE_OPEN, "session %s: cannot create its calls file in %s: "
	            "%s; only xrEndFrame is recorded (frames file)", s->tag,
	            xl_writer_dir_shown(w, q), why);
}

/*
 * Removes the closed file @p f of the session if nothing of it reached the
 * disk (its writes failed from the first): an empty file is no record, and
 * would fail the merge. Returns whether no such file is left (none made).
 */
static bool remove_if_empty(struct xl_writer *w, const struct xl_csv_file *f)
{
	struct stat st;

	if (!f->ino)
		return true; /* this side made no file under the name */
	if (fstatat(w->dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT;
	if (st.st_ino != f->ino || !S_ISREG(st.st_mode) || st.st_size != 0)
		return false;
	return unlinkat(w->dir_fd, f->name, 0) == 0;
}

/* Closes the calls file with its footer: @p dropped counts every function's drops. */
static void close_calls_file(struct xl_writer *w, struct xl_writer_session *s, uint64_t dropped)
{
	if (!xl_csv_file_is_open(&s->calls_csv))
		return;
	if (!xl_side_csv_close(&s->calls_csv, dropped)) {
		int err = errno;
		/* The frames file merges alone, without an empty calls file. */
		bool removed = remove_if_empty(w, &s->calls_csv);
		if (!s->calls_failed)
			xl_log("session %s: writing %s failed: %s; %s", s->tag, s->calls_csv.name,
			       strerror(err), removed ? "nothing of it was written: removed"
			                              : "the file is incomplete");
	}
	xl_log("session %s: %llu calls recorded, %llu dropped", s->tag,
	       (unsigned long long)s->calls_csv.rows, (unsigned long long)dropped);
}

void xl_writer_files_settle_absent(struct xl_writer *w, uint32_t upto)
{
	if (w->cfg.side != XL_SIDE_PRE || upto <= w->tags_settled)
		return;
	/* Older slots hold later sessions by now: nobody waits on them. */
	uint32_t from = w->tags_settled + 1;
	if (upto - from >= XL_SESSION_SLOTS)
		from = upto - XL_SESSION_SLOTS + 1;
	for (uint32_t id = from; id <= upto; id++)
		xl_control_settle_tag(w->cfg.ctl, id, XL_TAG_NONE, 0, NULL);
	w->tags_settled = upto;
}

/* Makes session @p s's files; on failure says why (once) and gives the session up. */
static void open_files(struct xl_writer *w, struct xl_writer_session *s)
{
	uint32_t id = s->id;
	int64_t realtime_s;
	char q[XL_PATH_MAX];

	/* The slot is reused every XL_SESSION_SLOTS sessions: check it is ours. */
	if (!xl_control_session_start(w->cfg.ctl, id, &realtime_s, NULL)) {
		skip_taken_session(s);
		return;
	}
	if (w->cfg.no_csv) {
		name_session_only(w, s, realtime_s);
		return;
	}
	if (w->dir_fd >= 0 && xl_files_dir_deleted(w->dir_fd))
		recreate_dir(w);
	if (w->dir_fd < 0) {
		/* Why was said once, when the directory was refused or lost;
		 * no line per session either (it may go to the app's stderr). */
		give_up_session(w, s, NULL);
		return;
	}
	int err;
	if (w->cfg.side == XL_SIDE_PRE && space_refused(w, &err)) {
		/* Post learns it from the tag; nothing more said per session. */
		xl_control_settle_tag(w->cfg.ctl, id, XL_TAG_FAILED, err, NULL);
		give_up_session(w, s, NULL);
		return;
	}
	enum open_result r = w->cfg.side == XL_SIDE_PRE ? create_pre_file(w, s, realtime_s)
	                                                : create_post_file(w, s);
	if (r == OPEN_TAKEN || r == OPEN_NO_PRE) {
		s->tag[0] = '\0';
		if (r == OPEN_TAKEN)
			skip_taken_session(s);
		else
			skip_session_without_pre(w, s);
		return;
	}
	if (r != OPEN_OK) {
		err = errno;
		if (r == OPEN_FAILED)
			note_failure(w, err);
		xl_log_once(XL_ONCE_FILE_OPEN, "session %u: cannot create its %s file in %s: %s%s; "
		            "recording stopped", id, w->cfg.meta.side,
		            xl_writer_dir_shown(w, q),
		            r == OPEN_PRE_FAILED ? "pre could not create its own file there: " : "",
		            strerror(err));
		/* Pre's failure: its records are pre's concern, not counted per session here. */
		give_up_session(w, s, r == OPEN_PRE_FAILED ? NULL : "its files failed");
		return;
	}
	xl_log("session %s: recording to %s/%s", s->tag, xl_writer_dir_shown(w, q), s->csv.name);
	open_calls_file(w, s);
	report_toggle(w, s, true);
}

/* The session's files are open, or will never be: pre settles its tag, if it did not. */
static void files_opened(struct xl_writer *w, uint32_t id)
{
	if (w->cfg.side != XL_SIDE_PRE)
		return;
	xl_control_settle_tag(w->cfg.ctl, id, XL_TAG_NONE, 0, NULL);
	w->tags_settled = id;
}

void xl_writer_files_open(struct xl_writer *w, struct xl_writer_session *s, uint32_t id)
{
	/* Earlier sessions it never opened had none of their records here. */
	xl_writer_files_settle_absent(w, id - 1);
	memset(s, 0, sizeof(*s));
	s->id = id;
	open_files(w, s);
	files_opened(w, id);
}

void xl_writer_files_ended(struct xl_writer *w, struct xl_writer_session *s)
{
	if (s->id && !s->failed && !s->end_said) {
		s->end_said = true;
		report_toggle(w, s, false);
	}
}

void xl_writer_files_note_counts(struct xl_writer *w, struct xl_writer_session *s)
{
	if (s->id && !s->counts_lost &&
	    !xl_control_session_counts(w->cfg.ctl, s->id, w->cfg.side, &s->counts))
		s->counts_lost = true;
}

struct gpu_emit_ctx {
	struct xl_writer *w;
	struct xl_gpu *gpu; /* a Vulkan session's, or NULL */
	struct xl_gl *gl;   /* an OpenGL session's, or NULL */
};

/*
 * The width of the side's current GPU clock, for a GPU file opened
 * without a sample: its Vulkan queue's timestampValidBits, or the GL
 * context's GL_QUERY_COUNTER_BITS (64 until a recorded frame read it); no
 * stamper left, 64. Takes the holder's lock, which a sample's emit
 * already holds: only for a file opened without one.
 */
static unsigned current_valid_bits(struct xl_writer *w)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	unsigned bits = U_TICKS_BITS_MAX;

	if (!holder)
		return bits;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	struct xl_gl *gl = atomic_load(&holder->gl);
	if (gl)
		bits = xl_gl_valid_bits(gl);
	else if (gpu)
		bits = gpu->valid_bits;
	pthread_mutex_unlock(&holder->lock);
	return bits;
}

/*
 * Whether a recording whose first GPU sample is of the frame @p first
 * (INT64_MAX: none; a bracket measurement's is the frame it came just
 * before) ran in gated mode: the
 * XrSession's mode, unless its gate tripped before that frame (sandwich
 * from then on). A recording its trip falls in began gated: it says so,
 * and where the trip came.
 */
static bool gated_from(const struct xl_gpu_shared *g, int64_t first)
{
	if (!atomic_load(&g->gated))
		return false;
	if (!atomic_load(&g->gate.tripped))
		return true;
	return first != INT64_MAX && atomic_load(&g->gate.tripped_display_time) >= first;
}

/*
 * Opens the session's GPU file, @p first the display time of its first
 * sample (INT64_MAX: none; gated_from()); @p c NULL (no sample came): no
 * clock correlation line, the clock named after the side's current GPU
 * state.
 */
static void open_gpu_file(struct xl_writer *w, struct xl_writer_session *s,
                          const struct gpu_emit_ctx *c, int64_t first)
{
	struct xl_gpu_calibration cal;
	bool gl = c ? c->gl != NULL : w->cfg.gpu && atomic_load(&w->cfg.gpu->gl) != NULL;
	/* The readers subtract ticks modulo this width (README "GPU files"). */
	unsigned bits = !c ? current_valid_bits(w) : gl ? xl_gl_valid_bits(c->gl) : c->gpu->valid_bits;

	s->gpu_gated = !gl && gated_from(w->cfg.ctl->gpu, first);
	if (xl_gpu_csv_open(&s->gpu_csv, w->dir_fd, s->tag, &w->cfg.meta,
	                    gl ? "opengl" : "vulkan", s->gpu_gated ? "gated" : "sandwich",
	                    bits) != 0) {
		xl_log_once(XL_ONCE_FILE_OPEN, "session %s: cannot create %s: %s; GPU samples "
		            "dropped", s->tag, s->gpu_csv.name, strerror(errno));
		s->gpu_failed = true;
		return;
	}
	if (c && (c->gl ? xl_gl_calibration(c->gl, &cal) : xl_gpu_calibrate(c->gpu, &cal)))
		xl_gpu_csv_calibration(&s->gpu_csv, &cal);
}

/* A clock correlation for the trace's GPU events (xl_trace_calibrate_fn). */
static bool trace_calibrate(void *ctx, struct xl_gpu_calibration *out)
{
	const struct gpu_emit_ctx *c = ctx;
	return c->gl ? xl_gl_calibration(c->gl, out) : xl_gpu_calibrate(c->gpu, out);
}

/* The writer's open session @p id (the current one, or the ended one in its grace), or NULL. */
static struct xl_writer_session *session_of(struct xl_writer *w, uint32_t id)
{
	if (id && id == w->cur.id)
		return &w->cur;
	if (id && id == w->prev.id)
		return &w->prev;
	return NULL;
}

/*
 * The bracket correction in effect, at the top of a recording that starts
 * between two measurements (pre measures every 0.5 s per XrSession, not per
 * recording): else its rows up to the next one would read uncorrected.
 */
static void carry_bracket(struct xl_writer_session *s, const struct gpu_emit_ctx *c)
{
	struct xl_gpu_sample line = {.bracket = true, .session_id = s->id};

	if (c->gpu && xl_csv_file_is_open(&s->gpu_csv) && xl_gpu_bracket_now(c->gpu, &line.bracket_ns))
		xl_gpu_csv_row(&s->gpu_csv, &line);
}

/* Writes one finished GPU sample into its session's GPU file (and traces it). */
static void emit_gpu_sample(void *ctx, const struct xl_gpu_sample *sample)
{
	struct gpu_emit_ctx *c = ctx;
	struct xl_writer *w = c->w;
	struct xl_writer_session *s = session_of(w, sample->session_id);

	/* A bracket measurement is no frame: only the GPU file carries it. The
	 * trace takes what its session's files still take, the ended one's too. */
	if (!sample->bracket && s)
		xl_trace_gpu(&w->trace, sample, trace_calibrate, c);
	if (!s && !sample->bracket)
		xl_log_once(XL_ONCE_GPU_LATE, "a GPU sample of session %u came after its files "
		            "were closed: lost, and not counted in them (OpenGL reads results back "
		            "2-8 frames late: a recording shorter than that, as a toggle every "
		            "frame makes, loses its GPU values)", (unsigned)sample->session_id);
	if (!s || s->failed || s->gpu_failed)
		return; /* its session's files are gone or unusable */
	if (!xl_csv_file_is_open(&s->gpu_csv)) {
		open_gpu_file(w, s, c, sample->display_time);
		if (!sample->bracket)
			carry_bracket(s, c);
	}
	s->gpu_tripped |= sample->gate_tripped;
	if (xl_csv_file_is_open(&s->gpu_csv) && !xl_gpu_csv_row(&s->gpu_csv, sample)) {
		xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s", s->tag,
		            s->gpu_csv.name, strerror(errno));
		s->gpu_failed = true;
	}
	if (sample->valid && !sample->bracket)
		xl_live_gpu(&w->cfg.ctl->live, w->cfg.side, sample->session_id,
		            sample->display_time, sample->ticks, sample->valid_bits, sample->period_ns);
	w->dirty = true;
}

static void log_gpu_problems(struct xl_writer *w, struct xl_gpu *gpu)
{
	int err = atomic_load(&gpu->submit_error);
	if (err == VK_SUCCESS)
		return;
	xl_log_once(XL_ONCE_GPU, "vkQueueSubmit of a GPU timestamp failed (VkResult %d); "
	            "no more are submitted, and the GPU samples are missing from then on", err);
	w->cur.gpu_submit_failed = true;
	w->prev.gpu_submit_failed = true;
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

/* Session @p s's samples still on the GPU: lost once its file is closed. */
static unsigned gpu_pending(struct xl_writer *w, struct xl_writer_session *s)
{
	struct xl_gpu_holder *holder = w->cfg.gpu;
	unsigned n = 0;

	if (!holder)
		return 0;
	pthread_mutex_lock(&holder->lock);
	struct xl_gpu *gpu = atomic_load(&holder->gpu);
	if (gpu)
		n = xl_gpu_pending(gpu, s->id);
	/* OpenGL: read back only by frames, which a stopped recording no longer
	 * stamps. With a later session recording they did read this one's
	 * back during its grace: those in flight are the later session's. */
	struct xl_gl *gl = atomic_load(&holder->gl);
	if (gl && !(s == &w->prev && w->cur.id))
		n += xl_gl_pending(gl);
	pthread_mutex_unlock(&holder->lock);
	return n;
}

/* A closing session: whether every GPU sample of it has been written. */
struct gpu_drain {
	struct xl_writer *w;
	struct xl_writer_session *s;
};

static bool gpu_collected(void *ctx)
{
	struct gpu_drain *d = ctx;
	return !xl_writer_files_poll_gpu(d->w, d->s->id);
}

static void close_gpu_file(struct xl_writer *w, struct xl_writer_session *s, uint64_t skipped)
{
	struct gpu_drain drain = {w, s};

	/* The timestamps of the session's last frames are still on the GPU. */
	xl_thread_wait(gpu_collected, &drain, GPU_DRAIN_NS, 1000000);
	/* Both are lost samples: the file's count says how many, not why. */
	unsigned late = gpu_pending(w, s);
	uint64_t overflow = skipped + late;
	/* Every sample was skipped: the file then holds just the count, so that
	 * the merged summary says what was lost. */
	if (!xl_csv_file_is_open(&s->gpu_csv) && overflow && !s->gpu_failed)
		open_gpu_file(w, s, NULL, INT64_MAX);
	if (xl_csv_file_is_open(&s->gpu_csv)) {
		/* This recording's trip, not an earlier one's (the gate is
		 * re-armed only by the next XrSession's creation). A plain
		 * key=value line, as the header's others are. */
		if (s->gpu_gated && s->gpu_tripped)
			xl_csv_file_text(&s->gpu_csv, "# gpu_gate_tripped=1\n");
		if (!xl_gpu_csv_close(&s->gpu_csv, overflow))
			xl_log_once(XL_ONCE_FILE_WRITE, "session %s: %s is incomplete", s->tag,
			            s->gpu_csv.name);
	}
	if (overflow)
		xl_log("session %s: %llu GPU samples lost: %llu skipped (%s), %u "
		       "still on the GPU %llu ms after the session ended%s", s->tag,
		       (unsigned long long)overflow, (unsigned long long)skipped,
		       s->gpu_submit_failed ? "all GPU slots busy, or after the failed submission"
		                            : "all GPU slots busy, or uncollected at xrDestroySession",
		       late,
		       (unsigned long long)(GPU_DRAIN_NS / 1000000),
		       s->gpu_failed ? "" : "; counted in the GPU file's gpu_ring_overflow");
}

/*
 * A session given up (a file could not be written, or not every one
 * opened): whatever is open is closed as it is, without its footer, so
 * that no descriptor outlives the session; a file nothing reached is
 * removed. Returns whether every file of it was removed.
 */
static bool abandon_files(struct xl_writer *w, struct xl_writer_session *s)
{
	bool all = true;
	struct xl_csv_file *files[] = {&s->csv, &s->calls_csv, &s->gpu_csv};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (xl_csv_file_is_open(files[i]))
			xl_csv_file_close(files[i], NULL);
		all &= remove_if_empty(w, files[i]);
	}
	return all;
}

/*
 * Says that session @p s is lost (its files could not be written, or the
 * directory was deleted), and tells the control block: post merges
 * nothing of it, and a `stop` says why.
 */
static void say_lost(struct xl_writer *w, struct xl_writer_session *s, bool removed)
{
	char q[XL_PATH_MAX];

	if (s->lost_err == ENOENT) {
		if (!w->deleted_said)
			xl_log_loud("output directory %s was deleted: session %s lost",
			            xl_writer_dir_shown(w, q), s->tag);
		else
			xl_log("output directory %s was deleted: session %s lost",
			       xl_writer_dir_shown(w, q), s->tag);
		w->deleted_said = true;
	} else {
		xl_log("session %s: its files could not be written (%s: %s): the session is lost, "
		       "not merged; %s", s->tag, s->lost_file[0] ? s->lost_file : "?",
		       strerror(s->lost_err),
		       removed ? "its files, which held nothing, are removed"
		               : "what its files hold is kept");
	}
	xl_control_files_lost(w->cfg.ctl, s->id, s->lost_err, w->cfg.side == XL_SIDE_POST);
}

bool xl_writer_files_close(struct xl_writer *w, struct xl_writer_session *s,
                           struct xl_session_counts *counts)
{
	uint32_t id = s->id;
	bool had_rows = false;

	/* Last read now, the session's calls all returned: unless its slot
	 * went to a later session first, whose counts are not this one's. */
	xl_writer_files_note_counts(w, s);
	const struct xl_session_counts *c = &s->counts;
	/* Written into a directory deleted since: gone with it. */
	if (s->tag[0] && w->dir_fd >= 0 && xl_files_dir_deleted(w->dir_fd) &&
	    (!s->failed || s->lost_err)) {
		s->lost_err = ENOENT;
		give_up_session(w, s, NULL);
	}
	if (s->failed) {
		bool removed = abandon_files(w, s);
		if (s->lost_err)
			say_lost(w, s, removed);
		if (s->lost_why && s->lost_records)
			xl_log("session %u: %llu records dropped: %s", id,
			       (unsigned long long)s->lost_records, s->lost_why);
	} else {
		if (s->counts_lost)
			xl_log_once(XL_ONCE_SESSION_INFO, "session %s: its slot was taken by a later "
			            "session before this side closed it (toggled too fast): its footers "
			            "count the drops seen until then", s->tag);
		close_gpu_file(w, s, c->gpu_overflow);
		if (!xl_side_csv_close(&s->csv, c->dropped)) {
			/* Its last rows could not be written: the session is lost. */
			mark_lost(w, s, &s->csv);
			s->failed = true;
			say_lost(w, s, abandon_files(w, s));
		} else {
			had_rows = s->csv.rows > 0;
			xl_log("session %s: %llu rows, %llu dropped (%llu ring full, %llu no ring free)",
			       s->tag, (unsigned long long)s->csv.rows,
			       (unsigned long long)c->dropped,
			       (unsigned long long)(c->dropped - c->no_ring),
			       (unsigned long long)c->no_ring);
			close_calls_file(w, s, c->calls_dropped);
			xl_writer_files_ended(w, s);
		}
	}
	if (counts)
		*counts = *c;
	/* Its other fields stay: none is read while its id is 0, and the
	 * next session opened in its place starts cleared (or is a copy). */
	s->id = 0;
	if (!w->cur.id && !w->prev.id)
		w->dirty = false; /* closing flushed everything */
	return had_rows;
}

/* The calls file failed: the frames file goes on without it. */
static void calls_file_failed(struct xl_writer_session *s)
{
	xl_log_once(XL_ONCE_FILE_WRITE, "session %s: writing %s failed: %s; calls no longer "
	            "recorded", s->tag, s->calls_csv.name, strerror(errno));
	s->calls_failed = true;
}

void xl_writer_files_row(struct xl_writer *w, struct xl_writer_session *s,
                         const struct xl_call_record *rec)
{
	if (s->failed) {
		s->lost_records++;
		return;
	}
	if (!s->calls_failed && !xl_calls_csv_row(&s->calls_csv, rec))
		calls_file_failed(s);
	w->dirty = true;
	if (rec->fn != XL_FN_xrEndFrame)
		return; /* the frames file holds xrEndFrame's records alone */
	if (!xl_side_csv_row(&s->csv, rec)) {
		lose_session(w, s, &s->csv);
		xl_log_once(XL_ONCE_RECORDING_STOPPED, "session %s: writing %s failed: %s; recording "
		            "stopped", s->tag, s->csv.name, strerror(s->lost_err));
		return;
	}
	w->dirty = true;
}

/* Flushes session @p s's open files. */
static void flush_session(struct xl_writer *w, struct xl_writer_session *s)
{
	if (!s->id || !xl_csv_file_is_open(&s->csv))
		return;
	if (xl_csv_file_is_open(&s->gpu_csv))
		xl_csv_file_flush(&s->gpu_csv);
	if (xl_csv_file_is_open(&s->calls_csv) && !s->calls_failed && !xl_csv_file_flush(&s->calls_csv))
		calls_file_failed(s);
	if (!xl_csv_file_flush(&s->csv)) {
		lose_session(w, s, &s->csv);
		xl_log_once(XL_ONCE_RECORDING_STOPPED, "session %s: flushing %s failed: %s; "
		            "recording stopped", s->tag, s->csv.name, strerror(s->lost_err));
	}
}

void xl_writer_files_flush(struct xl_writer *w, uint64_t now)
{
	if (!w->dirty || (!w->cur.id && !w->prev.id) || now - w->last_flush_ns < FLUSH_EVERY_NS)
		return;
	flush_session(w, &w->prev);
	flush_session(w, &w->cur);
	w->dirty = false;
	w->last_flush_ns = now;
}
