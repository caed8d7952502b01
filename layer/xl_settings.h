/*
 * The layer's settings, read once from the environment at instance creation
 * (the README, "Starting and stopping a recording"). A bad value is reported once in the
 * side's log and the default is used; it never stops the host application.
 */
#ifndef XL_SETTINGS_H
#define XL_SETTINGS_H

#include "xl_fn.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XL_PATH_MAX 4096

/* Words of the XRLM_FUNCTIONS bit set: one bit per enum xl_fn_id. */
#define XL_FN_WORDS ((XL_FN_COUNT + 63) / 64)

/* XRLM_GPU_MODE: how the GPU cost is measured on Vulkan sessions. */
enum xl_gpu_mode {
	XL_GPU_AUTO,     /* gated where the device allows it, else sandwich */
	XL_GPU_SANDWICH, /* two plain timestamps around the target */
	XL_GPU_GATED,    /* timestamps and target work held behind a gate */
	XL_GPU_OFF,      /* no Vulkan calls at all */
};

/* XRLM_GPU_GATE: what holds pre's timestamp in gated mode. */
enum xl_gpu_gate {
	XL_GATE_AUTO,     /* the event */
	XL_GATE_EVENT,    /* a host-set VkEvent waited in pre's command buffer (Vulkan 1.0) */
	XL_GATE_TIMELINE, /* a host-signalled timeline semaphore (enable2, timeline feature) */
};

struct xl_settings {
	/* Absolute output directory (XRLM_OUTPUT_DIR or the XDG default). */
	char output_dir[XL_PATH_MAX];
	/* XRLM_RECORD=1: start recording at the first frame. */
	bool record_at_start;
	/* XRLM_RECORD_DELAY_S: start this long after the first frame; < 0 = unset. */
	double delay_s;
	/* XRLM_RECORD_FRAMES: stop after this many recorded frames; 0 = no limit. */
	uint64_t frame_limit;
	/* XRLM_RECORD_S: stop after this many seconds of recording; 0 = no limit. */
	double time_limit_s;
	/* XRLM_SIGNAL: the toggle signal number, 0 = off; and how it was named. */
	int signal;
	char signal_name[16];
	enum xl_gpu_mode gpu_mode;
	/* XRLM_FUNCTIONS: the functions recorded (xrEndFrame always is), and
	 * how many of those that can be (xl_settings_recordable_count());
	 * functions_all when every one of those is. */
	uint64_t functions[XL_FN_WORDS];
	unsigned functions_count;
	bool functions_all;
	/* The phases all of whose functions are recorded (u_phase.h's set):
	 * a phase partly recorded would read as the target's whole cost in
	 * it, so the merge leaves the others blank (the calls files' header). */
	unsigned phases_recorded;
	/* XRLM_TRACE: write the CSV files; emit LTTng-UST events. */
	bool trace_csv;
	bool trace_lttng;
	enum xl_gpu_gate gpu_gate;
	/* XRLM_CONTROL: whether pre serves the control socket (xl_ctl_server.h). */
	bool control;
};

/* How many functions a calls file can hold: all but the six never recorded (xl_settings.c). */
int xl_settings_recordable_count(void);

/* Whether @p s selects function @p fn for recording. */
static inline bool xl_settings_function_selected(const struct xl_settings *s, enum xl_fn_id fn)
{
	return (s->functions[fn / 64] >> (fn % 64)) & 1u;
}

/* "auto", "sandwich", "gated" or "off": XRLM_GPU_MODE's spelling of @p mode. */
const char *xl_settings_gpu_mode_name(enum xl_gpu_mode mode);

/* "auto", "event" or "timeline": XRLM_GPU_GATE's spelling of @p gate. */
const char *xl_settings_gpu_gate_name(enum xl_gpu_gate gate);

/*
 * Whether DISABLE_<layer_name> is set: the loader's own off switch for a
 * layer, which it does not always honour for explicit layers.
 */
bool xl_settings_layer_disabled(const char *layer_name);

/*
 * The default output directory: $XDG_STATE_HOME/xr-layer-monitor, else
 * ~/.local/state/xr-layer-monitor, else (no home) /tmp/xr-layer-monitor-<uid>.
 */
void xl_settings_default_dir(char *out, size_t out_size);

/*
 * Resolves the output directory alone, before the log exists (the log lives
 * in it). Writes a warning into @p warning (empty when none). Returns
 * whether it is XRLM_OUTPUT_DIR's (false: the default).
 */
bool xl_settings_output_dir(char *out, size_t out_size, char *warning, size_t warning_size);

/*
 * Reads every setting but the output directory (resolved first, with
 * xl_settings_output_dir, so that the log can live there), logging bad
 * values with xl_log.
 */
void xl_settings_load(struct xl_settings *s);

/*
 * Parses a XRLM_TRACE value: a comma list of "csv" and "lttng" (at least
 * one). Returns false for anything else, leaving the outputs unspecified.
 */
bool xl_settings_parse_trace(const char *text, bool *csv, bool *lttng);

/*
 * Parses a XRLM_SIGNAL value: "USR1", "USR2", "RTMIN+n", "RTMAX-n" (with or
 * without "SIG"), a number naming one of those, or "off". Returns false for
 * anything else, including signals that a profiler must not take over.
 */
bool xl_settings_parse_signal(const char *text, int *signal_out);

#endif /* XL_SETTINGS_H */
