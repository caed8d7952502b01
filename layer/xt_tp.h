/*
 * The LTTng-UST tracepoint provider `xrlm`: its events and their fields
 * (described for users in the README, "Live tracing with LTTng"). Included
 * only by the provider library's sources (xt_probes.c, xt_emit.c), never
 * by the layers: the layers reach it through xl_trace_api.h, so that
 * nothing of LTTng is mapped in a process that does not trace.
 *
 * Times are CLOCK_MONOTONIC nanoseconds, the clock of the CSV files: an
 * event's own LTTng timestamp is when the writer thread emitted it, the
 * fields say when the call happened.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER xrlm

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./xt_tp.h"

#if !defined(XT_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define XT_TP_H

#include <lttng/tracepoint.h>

#include "xl_trace_api.h"

LTTNG_UST_TRACEPOINT_EVENT(xrlm, init,
	LTTNG_UST_TP_ARGS(const struct xl_trace_ident *, id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, id->side)
		lttng_ust_field_integer(int32_t, pid, id->pid)
		lttng_ust_field_string(layer, id->layer)
		lttng_ust_field_string(target_layer, id->target_layer)
		lttng_ust_field_string(runtime, id->runtime)
		lttng_ust_field_string(clock, "CLOCK_MONOTONIC")
		lttng_ust_field_integer(uint64_t, clock_freq, 1000000000)
		lttng_ust_field_string(output_dir, id->output_dir)
		lttng_ust_field_integer(uint8_t, csv, id->csv)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, shutdown,
	LTTNG_UST_TP_ARGS(const struct xl_trace_ident *, id, uint32_t, sessions, uint64_t, calls),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, id->side)
		lttng_ust_field_integer(int32_t, pid, id->pid)
		lttng_ust_field_integer(uint32_t, sessions, sessions)
		lttng_ust_field_integer(uint64_t, calls, calls)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, session_begin,
	LTTNG_UST_TP_ARGS(const char *, side, const char *, tag, uint32_t, session_id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, side)
		lttng_ust_field_string(tag, tag)
		lttng_ust_field_integer(uint32_t, session_id, session_id)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, session_end,
	LTTNG_UST_TP_ARGS(const char *, side, const char *, tag, uint32_t, session_id,
	                  const struct xl_trace_counts *, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, side)
		lttng_ust_field_string(tag, tag)
		lttng_ust_field_integer(uint32_t, session_id, session_id)
		lttng_ust_field_integer(uint64_t, calls, c->calls)
		lttng_ust_field_integer(uint64_t, frames, c->frames)
		lttng_ust_field_integer(uint64_t, gpu_samples, c->gpu_samples)
		lttng_ust_field_integer(uint64_t, dropped_queue_full, c->dropped_queue_full)
		lttng_ust_field_integer(uint64_t, gpu_ring_overflow, c->gpu_ring_overflow)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, call,
	LTTNG_UST_TP_ARGS(const char *, side, const char *, fn, const struct xl_call_record *, r),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, side)
		lttng_ust_field_string(fn, fn)
		lttng_ust_field_integer(uint32_t, thread_id, r->thread_id)
		lttng_ust_field_integer(uint64_t, t_entry, r->t_entry)
		lttng_ust_field_integer(uint64_t, t_exit, r->t_exit)
		lttng_ust_field_integer(int64_t, frame_id, r->frame_id)
		lttng_ust_field_integer(int32_t, result, r->result)
		lttng_ust_field_integer(uint32_t, session_id, r->session_id)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, frame_marker,
	LTTNG_UST_TP_ARGS(const char *, side, int64_t, frame_id, const char *, marker, uint64_t, t_ns,
	                  int64_t, display_time, uint32_t, thread_id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, side)
		lttng_ust_field_integer(int64_t, frame_id, frame_id)
		lttng_ust_field_string(marker, marker)
		lttng_ust_field_integer(uint64_t, t, t_ns)
		lttng_ust_field_integer(int64_t, display_time, display_time)
		lttng_ust_field_integer(uint32_t, thread_id, thread_id)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(xrlm, gpu,
	LTTNG_UST_TP_ARGS(const char *, side, const struct xl_trace_gpu *, g),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(side, side)
		lttng_ust_field_integer(int64_t, frame_id, g->frame_id)
		lttng_ust_field_integer(int64_t, display_time, g->display_time)
		lttng_ust_field_integer(uint64_t, gpu_ticks, g->gpu_ticks)
		lttng_ust_field_float(double, gpu_period_ns, g->gpu_period_ns)
		lttng_ust_field_integer(uint64_t, t, g->t_ns)
		lttng_ust_field_integer(uint64_t, cal_deviation_ns, g->cal_deviation_ns)
		lttng_ust_field_integer(uint8_t, valid, g->valid)
		lttng_ust_field_integer(uint32_t, session_id, g->session_id)
	)
)

#endif /* XT_TP_H */

#include <lttng/tracepoint-event.h>
