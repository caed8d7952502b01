/*
 * `xrlm trace`'s output: Chrome's Trace Event JSON (the format Perfetto UI
 * and chrome://tracing open), written event by event with nothing kept in
 * memory but the set of tracks seen (for their names). Times are written in
 * microseconds with nanosecond decimals; events outside the window
 * [from_ns, to_ns] are left out.
 */
#ifndef XRLM_TRACE_OUT_H
#define XRLM_TRACE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The processes of a trace: each side, and the target between them. */
enum trace_pid { TRACE_PID_PRE = 1, TRACE_PID_POST = 2, TRACE_PID_TARGET = 3 };
/* The GPU track's thread id in each process (0 is never an application thread). */
#define TRACE_TID_GPU 0
/* Tracks named at the end; more are written unnamed. */
#define TRACE_MAX_TRACKS 4096

struct trace_out {
	FILE *f;
	int64_t from_ns, to_ns; /* the window */
	uint64_t events; /* written so far, the metadata events included */
	struct {
		int pid;
		uint64_t tid;
	} tracks[TRACE_MAX_TRACKS];
	unsigned track_count;
};

/* Starts the document on @p f: '{"traceEvents":['. */
void trace_out_begin(struct trace_out *o, FILE *f, int64_t from_ns, int64_t to_ns);

/*
 * A complete slice ("ph":"X") on track (@p pid, @p tid); @p args: JSON
 * members or NULL. Returns whether it was written (it overlaps the window).
 */
bool trace_out_slice(struct trace_out *o, int pid, uint64_t tid, const char *name,
                     int64_t t_ns, int64_t dur_ns, const char *args);

/* An instant event ("ph":"i", thread scope). */
void trace_out_instant(struct trace_out *o, int pid, uint64_t tid, const char *name,
                       int64_t t_ns, const char *args);

/* A user's mark: a global instant event ("s":"g") named @p text. Returns whether it was written. */
bool trace_out_mark(struct trace_out *o, const char *text, int64_t t_ns);

/* A counter sample ("ph":"C") named @p name in process @p pid. */
void trace_out_counter(struct trace_out *o, int pid, const char *name, int64_t t_ns,
                       double value);

/* What the end of the document says: the processes' names and the session's. */
struct trace_out_names {
	const char *pre, *post, *target; /* the processes */
	const char *session;             /* its tag */
	const char *target_layer;
};

/*
 * Names the processes and the tracks seen ("thread <tid>", "GPU") and
 * closes the document with the session's metadata. Returns 0, or -1 when
 * writing failed.
 */
int trace_out_end(struct trace_out *o, const struct trace_out_names *n);

#endif /* XRLM_TRACE_OUT_H */
