/*
 * Live tracing: loading the provider and turning records into events; see
 * xl_trace.h.
 */
#include "xl_trace.h"

#include "quote.h"
#include "xl_clock.h"
#include "xl_fn.h"
#include "xl_log.h"
#include "u_ticks.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* GPU calibrations are re-taken this often, each the best of a few probes. */
#define CALIBRATE_EVERY_NS 1000000000ull
#define CALIBRATE_PROBES 4

/* The provider's path: beside this layer's library, found through one of its symbols. */
static void provider_path(char *out, size_t size)
{
	Dl_info info;
	const char *slash = NULL;

	if (dladdr((void *)provider_path, &info) && info.dli_fname)
		slash = strrchr(info.dli_fname, '/');
	if (!slash) {
		snprintf(out, size, "%s", XL_TRACE_PROVIDER_FILE);
		return;
	}
	snprintf(out, size, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
	         XL_TRACE_PROVIDER_FILE);
}

/*
 * Loads the provider. RTLD_NODELETE: LTTng-UST's manual forbids unloading a
 * provider that may be in use (a consumer may still hold its probes), so it
 * stays mapped after our layers are unloaded, and a second load (the other
 * side, the next instance) finds it there.
 */
static const struct xl_trace_api *load_provider(void)
{
	char path[4096], q[QUOTE_PATH_MAX];

	provider_path(path, sizeof(path));
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib) {
		xl_log("XRLM_TRACE=lttng: cannot load the LTTng provider: %s; recording CSV only",
		       quote_path(q, dlerror()));
		return NULL;
	}
	xl_trace_api_fn get = (xl_trace_api_fn)dlsym(lib, XL_TRACE_API_SYMBOL);
	const struct xl_trace_api *api = get ? get() : NULL;
	if (!api || api->version != XL_TRACE_API_VERSION || api->size != sizeof(*api)) {
		xl_log("XRLM_TRACE=lttng: %s is not this build's provider; recording CSV only",
		       quote_path(q, path));
		return NULL;
	}
	xl_log("XRLM_TRACE=lttng: LTTng-UST provider xrlm loaded from %s", quote_path(q, path));
	return api;
}

void xl_trace_open(struct xl_trace *t, const struct xl_trace_ident *id, bool lttng)
{
	memset(t, 0, sizeof(*t));
	t->id = *id;
	if (!lttng)
		return;
	t->api = load_provider();
	if (t->api)
		t->api->init(&t->id);
}

void xl_trace_close(struct xl_trace *t)
{
	if (t->api)
		t->api->shutdown(&t->id, t->sessions, t->calls);
	t->api = NULL;
}

void xl_trace_session_begin_on(struct xl_trace *t, uint32_t session_id, const char *tag)
{
	/* A consumer that started after the process learns the side here. */
	t->api->init(&t->id);
	t->session_id = session_id;
	t->tag = tag;
	memset(&t->counts, 0, sizeof(t->counts));
	t->sessions++;
	t->api->session_begin(t->id.side, tag, session_id);
}

void xl_trace_session_end_on(struct xl_trace *t, uint64_t dropped, uint64_t gpu_overflow)
{
	if (!t->session_id)
		return;
	t->counts.dropped_queue_full = dropped;
	t->counts.gpu_ring_overflow = gpu_overflow;
	t->api->session_end(t->id.side, t->tag, t->session_id, &t->counts);
	t->ended_id = t->session_id;
	t->session_id = 0;
}

/* The frame markers of a frame function: its entry and exit names, or NULL. */
static const char *const *frame_markers(uint16_t fn)
{
	static const char *const wait[2] = {"wait_begin", "wait_end"};
	static const char *const begin[2] = {"begin_begin", "begin_end"};
	static const char *const end[2] = {"end_begin", "end_end"};

	switch (fn) {
	case XL_FN_xrWaitFrame: return wait;
	case XL_FN_xrBeginFrame: return begin;
	case XL_FN_xrEndFrame: return end;
	default: return NULL;
	}
}

void xl_trace_record_on(struct xl_trace *t, const struct xl_call_record *rec)
{
	const char *fn = rec->fn < XL_FN_COUNT ? xl_fn_names[rec->fn] : "(unknown)";
	const char *side = t->id.side;

	t->counts.calls++;
	t->calls++;
	t->api->call(side, fn, rec);

	const char *const *m = frame_markers(rec->fn);
	if (!m)
		return;
	t->api->frame_marker(side, rec->frame_id, m[0], rec->t_entry, rec->display_time,
	                     rec->thread_id);
	t->api->frame_marker(side, rec->frame_id, m[1], rec->t_exit, rec->display_time,
	                     rec->thread_id);
	if (rec->fn == XL_FN_xrEndFrame)
		t->counts.frames++;
}

/*
 * Re-takes the calibration when it is a second old: the best of a few
 * probes, the one with the smallest deviation (as Tracy filters its own),
 * so that a probe the scheduler interrupted is not used.
 */
static void recalibrate(struct xl_trace *t, xl_trace_calibrate_fn calibrate, void *ctx)
{
	uint64_t now = xl_clock_mono_ns();
	struct xl_gpu_calibration best = {0}, probe;
	bool got = false;

	if (t->cal_valid && now - t->cal_at_ns < CALIBRATE_EVERY_NS)
		return;
	for (int i = 0; i < CALIBRATE_PROBES; i++) {
		if (!calibrate(ctx, &probe))
			break;
		if (!got || probe.max_deviation_ns < best.max_deviation_ns)
			best = probe;
		got = true;
	}
	t->cal_at_ns = now;
	if (got) {
		t->cal = best;
		t->cal_valid = true;
	}
}

void xl_trace_gpu_on(struct xl_trace *t, const struct xl_gpu_sample *s,
                     xl_trace_calibrate_fn calibrate, void *ctx)
{
	/* Its frame id came with it from the frame thread: a sample may be
	 * read back before its frame's xrEndFrame record is drained (post's
	 * timestamp precedes the runtime's call), or long after it (a writer
	 * held up while the app ran on), so no match with the records is made. */
	struct xl_trace_gpu g = {
		.frame_id = s->frame_id,
		.display_time = s->display_time,
		.gpu_ticks = s->ticks,
		.gpu_period_ns = s->period_ns,
		.session_id = s->session_id,
		.valid = s->valid,
	};

	/* The ended session's sample follows its session_end, which counted
	 * the samples traced before it. */
	bool late = s->session_id == t->ended_id;

	if (!s->session_id || (s->session_id != t->session_id && !late))
		return;
	recalibrate(t, calibrate, ctx);
	if (t->cal_valid && s->valid) {
		/* Either side of the calibration, which is at most a second old:
		 * a wrap in between is undone. */
		int64_t ticks = u_ticks_delta(s->ticks, t->cal.gpu_ticks, s->valid_bits);
		int64_t at = (int64_t)t->cal.monotonic_ns + llround((double)ticks * s->period_ns);
		g.t_ns = at > 0 ? (uint64_t)at : 0;
		g.cal_deviation_ns = t->cal.max_deviation_ns;
	}
	if (!late)
		t->counts.gpu_samples++;
	t->api->gpu(t->id.side, &g);
}
