/*
 * The provider's call sites and its one exported symbol, the emitter table
 * of xl_trace_api.h.
 *
 * LTTng-UST 2.13's pattern for a provider loaded with dlopen() (lttng-ust(3),
 * "dynamic linking"): the call sites are compiled with
 * LTTNG_UST_TRACEPOINT_DEFINE and LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE,
 * so that they carry no link-time reference to the probes, and the probes
 * come with the loaded library. The call sites live here rather than in the
 * layers because tracepoint.h gives every object that includes it a
 * constructor that loads liblttng-ust-tracepoint.so: in the layers it would
 * be mapped into every host process, tracing or not. Once loaded the
 * library is never unloaded (RTLD_NODELETE; see xl_trace.c).
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "xt_tp.h"

static void emit_init(const struct xl_trace_ident *id)
{
	lttng_ust_tracepoint(xrlm, init, id);
}

static void emit_shutdown(const struct xl_trace_ident *id, uint32_t sessions, uint64_t calls)
{
	lttng_ust_tracepoint(xrlm, shutdown, id, sessions, calls);
}

static void emit_session_begin(const char *side, const char *tag, uint32_t session_id)
{
	lttng_ust_tracepoint(xrlm, session_begin, side, tag, session_id);
}

static void emit_session_end(const char *side, const char *tag, uint32_t session_id,
                             const struct xl_trace_counts *counts)
{
	lttng_ust_tracepoint(xrlm, session_end, side, tag, session_id, counts);
}

static void emit_call(const char *side, const char *fn, const struct xl_call_record *rec)
{
	lttng_ust_tracepoint(xrlm, call, side, fn, rec);
}

static void emit_frame_marker(const char *side, int64_t frame_id, const char *marker,
                              uint64_t t_ns, int64_t display_time, uint32_t thread_id)
{
	lttng_ust_tracepoint(xrlm, frame_marker, side, frame_id, marker, t_ns, display_time,
	                     thread_id);
}

static void emit_gpu(const char *side, const struct xl_trace_gpu *g)
{
	lttng_ust_tracepoint(xrlm, gpu, side, g);
}

static const struct xl_trace_api api = {
	.version = XL_TRACE_API_VERSION,
	.size = sizeof(struct xl_trace_api),
	.init = emit_init,
	.shutdown = emit_shutdown,
	.session_begin = emit_session_begin,
	.session_end = emit_session_end,
	.call = emit_call,
	.frame_marker = emit_frame_marker,
	.gpu = emit_gpu,
};

/* The emitter table (XL_TRACE_API_SYMBOL); the library's only export. */
__attribute__((visibility("default"))) const struct xl_trace_api *xrlm_lttng_api(void)
{
	return &api;
}
