/*
 * The interface between the layers' trace facade (xl_trace.h) and the
 * LTTng-UST tracepoint provider `xrlm` (libxrlm_lttng.so, xt_emit.c): one
 * table of emitters, which the facade finds with dlsym() after loading the
 * provider. Both are built from this tree, so the table only carries a
 * version and its size as a guard against a stale provider on the path.
 *
 * The event fields are listed in the README ("Live tracing with LTTng").
 */
#ifndef XL_TRACE_API_H
#define XL_TRACE_API_H

#include "xl_ring.h"

#include <stdint.h>

#define XL_TRACE_API_VERSION 1
/* The provider's one exported symbol: returns its table. */
#define XL_TRACE_API_SYMBOL "xrlm_lttng_api"
/* The provider's file name, looked for beside the layer's own library. */
#define XL_TRACE_PROVIDER_FILE "libxrlm_lttng.so"

/* What xrlm:init says about a side (and xrlm:shutdown, in part). */
struct xl_trace_ident {
	const char *side;         /* "pre" or "post" */
	const char *layer;        /* this side's layer name */
	const char *target_layer; /* the layer(s) between pre and post */
	const char *runtime;      /* the runtime's name and version */
	const char *output_dir;   /* where the CSV files go */
	int32_t pid;
	bool csv;                 /* CSV files are written too */
};

/* xrlm:session_end's counts. */
struct xl_trace_counts {
	uint64_t calls;              /* xrlm:call events of the session */
	uint64_t frames;             /* of them, xrEndFrame calls */
	uint64_t gpu_samples;        /* xrlm:gpu events of the session */
	uint64_t dropped_queue_full; /* records lost to a full ring */
	uint64_t gpu_ring_overflow;  /* GPU samples lost */
};

/* One xrlm:gpu event. */
struct xl_trace_gpu {
	int64_t frame_id;     /* the id of the frame it was stamped in (xl_call.h) */
	int64_t display_time; /* the frame's XrFrameEndInfo::displayTime */
	uint64_t gpu_ticks;   /* raw GPU timestamp */
	double gpu_period_ns; /* ns per tick */
	uint64_t t_ns;        /* the timestamp on CLOCK_MONOTONIC; 0 when not calibrated */
	uint64_t cal_deviation_ns; /* the calibration's max deviation */
	uint32_t session_id;
	bool valid;           /* the timestamp is usable */
};

/* The provider's emitters. Each checks whether its event is enabled first. */
struct xl_trace_api {
	uint32_t version; /* XL_TRACE_API_VERSION */
	uint32_t size;    /* sizeof(struct xl_trace_api) */
	void (*init)(const struct xl_trace_ident *id);
	void (*shutdown)(const struct xl_trace_ident *id, uint32_t sessions, uint64_t calls);
	void (*session_begin)(const char *side, const char *tag, uint32_t session_id);
	void (*session_end)(const char *side, const char *tag, uint32_t session_id,
	                    const struct xl_trace_counts *counts);
	void (*call)(const char *side, const char *fn, const struct xl_call_record *rec);
	void (*frame_marker)(const char *side, int64_t frame_id, const char *marker, uint64_t t_ns,
	                     int64_t display_time, uint32_t thread_id);
	void (*gpu)(const char *side, const struct xl_trace_gpu *g);
};

typedef const struct xl_trace_api *(*xl_trace_api_fn)(void);

#endif /* XL_TRACE_API_H */
