/*
 * The side's writer thread: drains the rings, collects finished GPU
 * timestamps, writes each session's per-side CSVs (frames, calls, GPU), flushes at least twice a
 * second, and tells the control block which sessions this side has
 * finished. On the pre side it also runs the recording timers
 * (XRLM_RECORD_DELAY_S, XRLM_RECORD_S).
 *
 * Started at instance creation and joined before xrDestroyInstance returns,
 * so no thread outlives the library.
 */
#ifndef XL_WRITER_H
#define XL_WRITER_H

#include "xl_control.h"
#include "xl_hook_thread.h"
#include "xl_ring.h"
#include "xl_side_csv.h"
#include "xl_trace.h"
#include "xl_thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct xl_writer_config {
	enum xl_side_index side;
	struct xl_side_csv_meta meta;
	struct xl_control *ctl;
	struct xl_ring_pool *rings;
	struct xl_gpu_holder *gpu; /* this side's GPU timestamps, if any */
	/*
	 * Called on the writer's hook thread (xl_hook_thread.h) after this
	 * side closed the files of session @p id (tag @p tag) that held at
	 * least one row, with its own copy of the output directory @p dir_fd
	 * (-1: none); never on the writer thread (a session its queue has no
	 * room for is left, its merge state settled as failed). The post
	 * side merges here. May be NULL.
	 */
	void (*session_closed)(void *ctx, uint32_t id, const char *tag, int dir_fd);
	void *ctx;
	int dir_fd; /* the output directory (the writer takes a copy), or -1 */
	struct xl_trace_ident trace_id; /* xrlm:init's fields (strings outlive the writer) */
	bool trace_lttng;               /* XRLM_TRACE holds lttng */
	bool no_csv;                    /* XRLM_TRACE lacks csv: no files */
};

/* One session's files, as the writer holds them open. */
struct xl_writer_session {
	uint32_t id;          /* 0: none */
	bool failed;          /* no files: they failed, or XRLM_TRACE lacks csv */
	const char *lost_why; /* failed: why its records are dropped; NULL: said already, or trace only */
	uint64_t lost_records; /* failed: its records dropped so far, logged at its close */
	struct xl_session_counts counts; /* its drop counts, read from its slot every pass */
	bool counts_lost;     /* its slot went to a later session: counts are the last read */
	char tag[XL_TAG_MAX];
	struct xl_csv_file csv;       /* frames-<tag>-<side>.csv: xrEndFrame */
	struct xl_csv_file calls_csv; /* calls-<tag>-<side>.csv: every recorded call */
	bool calls_failed;            /* the calls file could not be written */
	struct xl_csv_file gpu_csv; /* opened at the session's first GPU sample */
	bool gpu_failed;            /* the GPU file could not be written */
	bool gpu_submit_failed;     /* a GPU timestamp's submission failed: none are made since */
	bool gpu_gated;             /* the GPU file was opened in gated mode */
	bool gpu_tripped;           /* a frame of it had its gate forced open */
	uint64_t ended_ns;    /* when the writer first saw it ended; 0: not yet */
	bool by_signal;       /* pre: a toggle signal started it */
	bool end_said;        /* pre: its end was reported (xl_writer_files_ended) */
	int lost_err;         /* its files could not be written (errno; ENOENT: the
	                       * directory was deleted): the session is lost; 0: not */
	char lost_file[128];  /* lost_err: the name of the file that failed, or "" */
};

struct xl_writer {
	struct xl_writer_config cfg;
	pthread_t thread;
	bool started;
	atomic_bool stop;
	struct xl_sleeper sleeper; /* the poll loop's sleep; xl_writer_stop() cuts it short */

	int dir_fd;           /* output directory, -1 when it cannot be used */
	/*
	 * The session whose records come now, and the one before it, kept
	 * open LATE_CALLS_NS after it ended for the calls that were in flight
	 * on other threads then (the next session may start at the next frame).
	 */
	struct xl_writer_session cur, prev;
	uint32_t closed_id;   /* newest session this side has finished */
	uint32_t ended_seen;  /* newest session the control word said ended, at a drain */
	uint32_t tags_settled; /* pre: newest session whose tag it has settled */
	uint64_t stopping_ns; /* post: when a wait for a tag saw stop set; 0: not yet */
	uint64_t late_records; /* records that came after their session's files were closed */
	uint64_t last_flush_ns;
	bool dirty;           /* rows written since the last flush */
	bool nospace_said;    /* pre: sessions refused for lack of space, said (until they resume) */
	bool deleted_said;    /* the directory's deletion said loud (until it is made again) */
	struct xl_trace trace; /* live tracing (XRLM_TRACE=lttng) */
	struct xl_hook_thread hooks; /* runs cfg.session_closed (post: the merge) */
};

/*
 * Takes a copy of the output directory's descriptor and starts the thread. Returns 0, or -1 if the thread could not be started.
 */
int xl_writer_start(struct xl_writer *w, const struct xl_writer_config *cfg);

/*
 * Asks the thread to finish: it drains the ring, closes the open session
 * (the caller has stopped recording first) and is joined.
 */
void xl_writer_stop(struct xl_writer *w);

/*
 * The output directory as the writer's messages show it, into @p buf
 * (XL_PATH_MAX bytes): where its descriptor is now, which a rename of the
 * directory moves (xl_files_dir_shown()). Writer thread only.
 */
const char *xl_writer_dir_shown(const struct xl_writer *w, char *buf);

#endif /* XL_WRITER_H */
