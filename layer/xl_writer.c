/*
 * The side's writer thread: its loop; see xl_writer.h. The files it writes
 * are xl_writer_files.c's.
 */
#include "xl_writer.h"

#include "u_names.h"

#include "xl_clock.h"
#include "xl_files.h"
#include "xl_fn.h"
#include "xl_log.h"
#include "xl_thread.h"
#include "xl_writer_files.h"

#include "u_locale.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define POLL_ACTIVE_NS 2000000ull  /* 2 ms while recording */
#define POLL_IDLE_NS 20000000ull   /* 20 ms while idle */
/*
 * How long a session's files stay open after it ended: a call in flight on
 * another thread when it stopped (an xrWaitFrame blocks up to a frame)
 * pushes its record when it returns.
 */
#define LATE_CALLS_NS 100000000ull

/* Tells the control block this side has finished every session up to @p ended. */
static void mark_finished(struct xl_writer *w, uint32_t ended)
{
	if (ended > w->closed_id) {
		w->closed_id = ended;
		atomic_store_explicit(&w->cfg.ctl->finished[w->cfg.side], ended,
		                      memory_order_release);
	}
}

/*
 * Closes session @p s's files, then hands the session to the
 * session-closed hook's thread (post: the merge, CPU-bound for up to
 * seconds), so that this thread goes on draining the rings meanwhile.
 * Should its queue be full (sessions end faster than the merge, at
 * SCHED_IDLE, gets CPU time for them) or no thread start, the session is
 * left for `xrlm merge`, and said so: never merged here, which would stop
 * the draining for the merge's seconds (the next session's records
 * dropped: up to 94% of them), at the normal policy, beside the merge
 * thread's own merge.
 */
static void close_session(struct xl_writer *w, struct xl_writer_session *s)
{
	uint32_t id = s->id;
	struct xl_session_counts counts;
	char q[XL_PATH_MAX];
	bool had_rows = xl_writer_files_close(w, s, &counts);
	/* Its files are complete: post's merge waits for pre's to be. */
	mark_finished(w, id);
	/* The ended session's trace ended when the next one began. */
	if (s == &w->cur)
		xl_trace_session_end(&w->trace, counts.dropped, counts.gpu_overflow);
	if (!had_rows || !w->cfg.session_closed)
		return;
	if (xl_hook_thread_post(&w->hooks, id, s->tag, w->dir_fd))
		return;
	xl_log("session %s: " U_NAMES_LEFT_UNMERGED " (%s); its files are complete: "
	       "`xrlm merge %s` merges it", s->tag,
	       w->hooks.started ? "the merge thread has " XL_HOOK_QUEUE_TEXT " sessions waiting"
	                        : "the merge thread could not start",
	       xl_writer_dir_shown(w, q));
	/* A `stop` waiting for it replies at once, pointing to `xrlm merge`. */
	xl_control_settle_merge(w->cfg.ctl, id, XL_MERGE_FAILED);
}

/*
 * The first record of session @p id: the current session has ended, and
 * is kept open for its late calls until LATE_CALLS_NS after its end (the
 * one before it, if still open, is closed now: two sessions are held at
 * most); @p id's files are opened as the current ones.
 */
static void open_next_session(struct xl_writer *w, uint32_t id)
{
	if (w->prev.id)
		close_session(w, &w->prev);
	if (w->cur.id) {
		/* The trace follows one session: it ends here, the files later. */
		xl_writer_files_ended(w, &w->cur);
		xl_writer_files_note_counts(w, &w->cur);
		xl_trace_session_end(&w->trace, w->cur.counts.dropped, w->cur.counts.gpu_overflow);
		if (!w->cur.ended_ns)
			w->cur.ended_ns = xl_clock_mono_ns();
		w->prev = w->cur;
		w->cur.id = 0;
	}
	xl_writer_files_open(w, &w->cur, id);
	xl_trace_session_begin(&w->trace, w->cur.id, w->cur.tag);
}

/*
 * A record whose session's files are closed: more than LATE_CALLS_NS after
 * its end, or after two later sessions began; or of a session that ended
 * with no record here (pre said it has no file). Dropped, and counted.
 */
static void drop_late_record(struct xl_writer *w, const struct xl_call_record *rec)
{
	w->late_records++;
	xl_log_once(XL_ONCE_LATE_RECORD, "a call of session %u (%s) returned after that "
	            "session's files were closed (%llu ms after its end, or once a second session "
	            "had begun since), or were never made (no other record of it came); it is "
	            "dropped and counted", rec->session_id,
	            rec->fn < XL_FN_COUNT ? xl_fn_names[rec->fn] : "?",
	            (unsigned long long)(LATE_CALLS_NS / 1000000));
}

/*
 * The frames session @p s has recorded on this side: its frames file's
 * rows, or with no files (XRLM_TRACE without csv) the frames it traced.
 */
static uint64_t frames_recorded(const struct xl_writer *w, const struct xl_writer_session *s)
{
	if (w->cfg.no_csv && w->trace.session_id == s->id)
		return w->trace.counts.frames;
	return s->csv.rows;
}

static void handle_record(struct xl_writer *w, const struct xl_call_record *rec)
{
	uint32_t id = rec->session_id;
	struct xl_writer_session *s;

	if (id && id == w->cur.id) {
		s = &w->cur;
	} else if (id && id == w->prev.id) {
		xl_writer_files_row(w, &w->prev, rec); /* a late call of the ended session */
		return;
	} else if (id > w->closed_id && id > w->ended_seen && id > w->cur.id && id > w->prev.id) {
		/* Not one that had ended by a drain with no record of it here:
		 * only its late calls come, and pre said it has no file. */
		open_next_session(w, id);
		s = &w->cur;
	} else {
		drop_late_record(w, rec);
		return;
	}
	xl_writer_files_row(w, s, rec);
	xl_trace_record(&w->trace, rec);
	if (rec->fn != XL_FN_xrEndFrame)
		return; /* the frames' live view and counts are xrEndFrame's */
	if (w->cfg.side == XL_SIDE_PRE)
		atomic_store_explicit(&w->cfg.ctl->session_rows, frames_recorded(w, s),
		                      memory_order_relaxed);
	xl_live_cpu(&w->cfg.ctl->live, w->cfg.side, rec->session_id, rec->display_time,
	            rec->thread_id, rec->t_entry, rec->t_exit);
}

static bool write_mark(void *ctx, unsigned at, const char *line)
{
	struct xl_writer_session **open = ctx;
	return xl_csv_file_text(&open[at]->csv, line);
}

/* Writes the user marks of the open sessions (xl_marks.h) among their rows. */
static void write_marks(struct xl_writer *w)
{
	struct xl_writer_session *open[XL_MARKS_OPEN] = {&w->prev, &w->cur};
	uint32_t ids[XL_MARKS_OPEN];

	for (int i = 0; i < XL_MARKS_OPEN; i++) {
		struct xl_writer_session *s = open[i];
		ids[i] = s->id && xl_csv_file_is_open(&s->csv) && !s->failed ? s->id : 0;
	}
	xl_marks_write(&w->cfg.ctl->marks, w->cfg.side, ids, w->closed_id, write_mark, open);
}

/*
 * Says which sessions this side is wholly done with (see xl_control.h,
 * settled): closed, and their hook returned.
 */
static void publish_settled(struct xl_writer *w)
{
	uint32_t settled = w->closed_id;
	uint32_t busy = w->cfg.session_closed ? xl_hook_thread_busy_from(&w->hooks) : 0;
	if (busy && busy - 1 < settled)
		settled = busy - 1;
	atomic_store_explicit(&w->cfg.ctl->settled[w->cfg.side], settled, memory_order_release);
}

/*
 * Closes each open session LATE_CALLS_NS after it ended, and tells the
 * control block which sessions this side has finished (not those open).
 */
static void finish_ended(struct xl_writer *w, uint64_t word, uint64_t now)
{
	uint32_t ended = xl_control_ended_id(word);

	/* The word was read before the drain: a session that ended without a
	 * record here will get none but a late call's, and pre says so now,
	 * so that post does not wait for its file. Before finished, which
	 * post takes as the end of its wait too. */
	xl_writer_files_settle_absent(w, ended);
	if (ended > w->ended_seen)
		w->ended_seen = ended;
	if (w->prev.id && now - w->prev.ended_ns >= LATE_CALLS_NS)
		close_session(w, &w->prev);
	if (w->cur.id && w->cur.id <= ended) {
		if (!w->cur.ended_ns)
			w->cur.ended_ns = now;
		if (now - w->cur.ended_ns >= LATE_CALLS_NS)
			close_session(w, &w->cur);
	}
	uint32_t done = ended;
	if (w->prev.id && w->prev.id <= done)
		done = w->prev.id - 1;
	if (w->cur.id && w->cur.id <= done)
		done = w->cur.id - 1;
	mark_finished(w, done);
}

/* One pass: drain, close what has ended, run timers, flush. Returns the word seen. */
static uint64_t writer_poll(struct xl_writer *w)
{
	/* Read the state before draining: every record of a call that returned
	 * before its session ended is then in the ring (release/acquire on the
	 * word); calls still in flight get LATE_CALLS_NS more. */
	uint64_t word = atomic_load_explicit(&w->cfg.ctl->word, memory_order_acquire);
	struct xl_call_record rec;
	uint64_t now;

	xl_ring_pool_populate(w->cfg.rings);
	while (xl_ring_pool_pop(w->cfg.rings, &rec))
		handle_record(w, &rec);
	/* After the drain: a ring goes back to the pool only empty, its
	 * exited thread's last records written to their session. */
	xl_ring_pool_reclaim(w->cfg.rings);

	now = xl_clock_mono_ns();
	xl_writer_files_note_counts(w, &w->prev);
	xl_writer_files_note_counts(w, &w->cur);
	xl_writer_files_poll_gpu(w, w->cur.id ? w->cur.id : w->prev.id);
	write_marks(w);

	finish_ended(w, word, now);

	write_marks(w); /* gives up on the marks of what just ended */
	publish_settled(w);

	if (w->cfg.side == XL_SIDE_PRE)
		xl_control_poll_timers(w->cfg.ctl, now);
	xl_writer_files_flush(w, now);
	return word;
}

static void *writer_main(void *arg)
{
	struct xl_writer *w = arg;

	/* First: an application may start recording as soon as its instance is made. */
	xl_ring_pool_populate(w->cfg.rings);
	/* Measured here, off the frame thread and off xrCreateInstance. */
	if (w->cfg.side == XL_SIDE_POST) {
		double read_ns = xl_clock_read_cost_ns();
		/* Two reads of a whole number of ns each: the merge charges a
		 * call half of it per bracket (calls_join.c), so an even
		 * correction is halved exactly (an odd one lost 0.5 ns a call). */
		w->cfg.meta.bracket_correction_ns = 2 * llround(read_ns);
		atomic_store(&w->cfg.ctl->live.bracket_correction_ns,
		             w->cfg.meta.bracket_correction_ns);
		xl_log("clock read: %.1f ns; bracket correction: %lld ns", read_ns,
		       w->cfg.meta.bracket_correction_ns);
	}
	/* Numbers are written with '.' whatever the host application's locale. */
	locale_t c_locale = u_locale_c();
	locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
	/* Here, not at instance creation: see xl_trace.h. */
	xl_trace_open(&w->trace, &w->cfg.trace_id, w->cfg.trace_lttng);

	uint64_t word;
	for (;;) {
		bool stopping = atomic_load(&w->stop);
		word = writer_poll(w);
		if (stopping)
			break;
		xl_sleeper_sleep_ns(&w->sleeper, (word & XL_ACTIVE) ? POLL_ACTIVE_NS : POLL_IDLE_NS);
	}
	if (w->prev.id)
		close_session(w, &w->prev);
	if (w->cur.id)
		close_session(w, &w->cur);
	if (w->late_records)
		xl_log("%llu calls returned after their session's files were closed: dropped",
		       (unsigned long long)w->late_records);
	/* Recording has stopped (see xl_writer_stop): every session is over. */
	xl_writer_files_settle_absent(w, xl_control_ended_id(word));
	mark_finished(w, xl_control_ended_id(word));
	write_marks(w);
	publish_settled(w);
	xl_trace_close(&w->trace);

	if (c_locale)
		uselocale(old);
	return NULL;
}

const char *xl_writer_dir_shown(const struct xl_writer *w, char *buf)
{
	return xl_files_dir_shown(w->dir_fd, w->cfg.ctl->output_dir, buf, XL_PATH_MAX);
}

int xl_writer_start(struct xl_writer *w, const struct xl_writer_config *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	atomic_init(&w->stop, false);
	w->closed_id = atomic_load(&cfg->ctl->finished[cfg->side]);
	w->ended_seen = w->closed_id;
	w->tags_settled = w->closed_id;
	w->dir_fd = cfg->dir_fd >= 0 ? fcntl(cfg->dir_fd, F_DUPFD_CLOEXEC, 0) : -1;

	if (cfg->session_closed)
		xl_hook_thread_init(&w->hooks, cfg->session_closed, cfg->ctx);
	int err = xl_sleeper_init(&w->sleeper);
	if (!err) {
		err = xl_thread_start(&w->thread, writer_main, w,
		                      cfg->side == XL_SIDE_PRE ? "xrlm-pre" : "xrlm-post");
		if (err)
			xl_sleeper_destroy(&w->sleeper);
	}
	if (err) {
		xl_log("cannot start the writer thread: %s; nothing will be recorded", strerror(err));
		if (cfg->session_closed)
			xl_hook_thread_stop(&w->hooks);
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
	xl_sleeper_wake(&w->sleeper); /* a sleeping loop makes its last pass now */
	pthread_join(w->thread, NULL);
	xl_sleeper_destroy(&w->sleeper);
	if (w->cfg.session_closed) {
		/* The sessions handed over, the last one's too, finish now: then
		 * every closed session is settled. */
		xl_hook_thread_stop(&w->hooks);
		atomic_store_explicit(&w->cfg.ctl->settled[w->cfg.side], w->closed_id,
		                      memory_order_release);
	}
	w->started = false;
	if (w->dir_fd >= 0)
		close(w->dir_fd);
	w->dir_fd = -1;
}
