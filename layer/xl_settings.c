/*
 * Reading the layer's environment; see xl_settings.h.
 */
#include "xl_settings.h"

#include "quote.h"
#include "u_parse.h"
#include "u_phase.h"
#include "xl_limits.h"
#include "xl_log.h"

#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DEFAULT_SIGNAL SIGUSR2
#define DEFAULT_SIGNAL_NAME "USR2"
/* How much of a bad value a message shows. */
#define VALUE_SHOWN 32

/*
 * The first @p max bytes of @p text as a message shows them, in @p buf
 * (QUOTE_PATH_MAX bytes): with C escapes for control bytes
 * (quote_path_to()), so that a value can neither end the log line nor
 * reach the terminal raw.
 */
static const char *shown(char *buf, const char *text, size_t max)
{
	return quote_path_to(buf, QUOTE_PATH_MAX, text, max);
}

static bool default_state_dir(char *out, size_t out_size)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	if (xdg && xdg[0] == '/')
		return snprintf(out, out_size, "%s/xr-layer-monitor", xdg) < (int)out_size;

	const char *home = getenv("HOME");
	struct passwd pw, *found = NULL;
	char buf[1024];
	if ((!home || home[0] != '/') && getpwuid_r(getuid(), &pw, buf, sizeof(buf), &found) == 0 &&
	    found)
		home = found->pw_dir;
	if (!home || home[0] != '/')
		return false;
	return snprintf(out, out_size, "%s/.local/state/xr-layer-monitor", home) < (int)out_size;
}

bool xl_settings_layer_disabled(const char *layer_name)
{
	char name[96];
	snprintf(name, sizeof(name), "DISABLE_%s", layer_name);
	return getenv(name) != NULL;
}

void xl_settings_default_dir(char *out, size_t out_size)
{
	if (!default_state_dir(out, out_size))
		snprintf(out, out_size, "/tmp/xr-layer-monitor-%u", (unsigned)getuid());
}

bool xl_settings_output_dir(char *out, size_t out_size, char *warning, size_t warning_size)
{
	const char *dir = getenv("XRLM_OUTPUT_DIR");
	warning[0] = '\0';

	if (dir && dir[0] != '\0') {
		char cwd[XL_PATH_MAX];
		int n;
		if (dir[0] == '/')
			n = snprintf(out, out_size, "%s", dir);
		else if (getcwd(cwd, sizeof(cwd)))
			n = snprintf(out, out_size, "%s/%s", cwd, dir);
		else
			n = -1;
		if (n >= 0 && n < (int)out_size)
			return true;
		snprintf(warning, warning_size,
		         "XRLM_OUTPUT_DIR is too long or cannot be resolved; using the default");
	} else if (dir) {
		snprintf(warning, warning_size, "XRLM_OUTPUT_DIR is empty; using the default");
	}
	xl_settings_default_dir(out, out_size);
	return false;
}

/*
 * @p ctx: what the default means, said instead of the number that stands
 * for it (a -1 or 0 that means "unset" tells the user nothing).
 */
static void warn_to_log(void *ctx, const char *message)
{
	char q[QUOTE_PATH_MAX];
	/* The message holds the value as it was set: escaped whole (none of
	 * the parser's own words holds a control or a backslash). */
	message = quote_path(q, message);
	const char *meaning = ctx, *def = strstr(message, "using the default");
	if (!meaning || !def)
		xl_log("setting ignored: %s", message);
	else
		xl_log("setting ignored: %.*susing the default: %s", (int)(def - message), message,
		       meaning);
}

/* Looks up "USR1", "RTMIN+3", "34" ... without the "SIG" prefix. */
static bool parse_signal_body(const char *s, int *sig)
{
	uint64_t n;

	if (strcasecmp(s, "USR1") == 0) {
		*sig = SIGUSR1;
		return true;
	}
	if (strcasecmp(s, "USR2") == 0) {
		*sig = SIGUSR2;
		return true;
	}
	if (strncasecmp(s, "RTMIN", 5) == 0) {
		if (s[5] == '\0')
			n = 0;
		else if (s[5] != '+' || u_parse_u64(s + 6, 0, 64, &n) != U_PARSE_OK)
			return false;
		*sig = SIGRTMIN + (int)n;
		return *sig <= SIGRTMAX;
	}
	if (strncasecmp(s, "RTMAX", 5) == 0) {
		if (s[5] == '\0')
			n = 0;
		else if (s[5] != '-' || u_parse_u64(s + 6, 0, 64, &n) != U_PARSE_OK)
			return false;
		*sig = SIGRTMAX - (int)n;
		return *sig >= SIGRTMIN;
	}
	if (u_parse_u64(s, 1, 64, &n) != U_PARSE_OK)
		return false;
	*sig = (int)n;
	return *sig == SIGUSR1 || *sig == SIGUSR2 || (*sig >= SIGRTMIN && *sig <= SIGRTMAX);
}

bool xl_settings_parse_signal(const char *text, int *signal_out)
{
	if (!text)
		return false;
	if (strcasecmp(text, "off") == 0) {
		*signal_out = 0;
		return true;
	}
	if (strncasecmp(text, "SIG", 3) == 0)
		text += 3;
	return parse_signal_body(text, signal_out);
}

static void load_signal(struct xl_settings *s)
{
	const char *text = getenv("XRLM_SIGNAL");

	s->signal = DEFAULT_SIGNAL;
	snprintf(s->signal_name, sizeof(s->signal_name), "%s", DEFAULT_SIGNAL_NAME);
	if (!text)
		return;
	if (!xl_settings_parse_signal(text, &s->signal)) {
		char q[QUOTE_PATH_MAX];
		s->signal = DEFAULT_SIGNAL;
		xl_log("setting ignored: XRLM_SIGNAL=\"%s\" is not USR1, USR2, RTMIN+n, "
		       "RTMAX-n, one of their numbers, or off; using the default %s",
		       shown(q, text, VALUE_SHOWN), DEFAULT_SIGNAL_NAME);
		return;
	}
	snprintf(s->signal_name, sizeof(s->signal_name), "%.15s", text);
}

static void load_record(struct xl_settings *s)
{
	const char *text = getenv("XRLM_RECORD");
	char q[QUOTE_PATH_MAX];

	s->record_at_start = false;
	if (!text || strcmp(text, "0") == 0)
		return;
	if (strcmp(text, "1") == 0) {
		s->record_at_start = true;
		return;
	}
	xl_log("setting ignored: XRLM_RECORD=\"%s\" is not 0 or 1; using the default 0 "
	       "(wait for the signal)", shown(q, text, VALUE_SHOWN));
}

static const char *const gpu_mode_names[] = {"auto", "sandwich", "gated", "off"};
static const char *const gpu_gate_names[] = {"auto", "event", "timeline"};

const char *xl_settings_gpu_mode_name(enum xl_gpu_mode mode)
{
	return gpu_mode_names[mode];
}

const char *xl_settings_gpu_gate_name(enum xl_gpu_gate gate)
{
	return gpu_gate_names[gate];
}

/*
 * One of @p count words (case-insensitive) from variable @p var; the first
 * word, the default, when unset or not one of them (logged, with @p words
 * spelled out for the user).
 */
static int load_choice(const char *var, const char *const *names, int count, const char *words)
{
	const char *text = getenv(var);
	char q[QUOTE_PATH_MAX];

	if (!text)
		return 0;
	for (int m = 0; m < count; m++)
		if (strcasecmp(text, names[m]) == 0)
			return m;
	xl_log("setting ignored: %s=\"%s\" is not %s; using the default %s", var,
	       shown(q, text, VALUE_SHOWN), words, names[0]);
	return 0;
}

static void select_function(struct xl_settings *s, int fn)
{
	s->functions[fn / 64] |= 1ull << (fn % 64);
}

/* Selects every function of phase @p phase, or of every phase but other when @p frame. */
static void select_phase(struct xl_settings *s, enum u_phase phase, bool frame)
{
	for (int fn = 0; fn < XL_FN_COUNT; fn++) {
		enum u_phase p = u_phase_of(xl_fn_names[fn]);
		if (frame ? p != U_PHASE_OTHER : p == phase)
			select_function(s, fn);
	}
}

/* Selects what one XRLM_FUNCTIONS item names; false when it names nothing. */
static bool select_item(struct xl_settings *s, const char *item)
{
	enum u_phase phase;
	enum xl_fn_id fn;

	if (strcmp(item, "all") == 0)
		for (int f = 0; f < XL_FN_COUNT; f++)
			select_function(s, f);
	else if (strcmp(item, "frame") == 0)
		select_phase(s, U_PHASE_OTHER, true);
	else if (u_phase_parse(item, &phase))
		select_phase(s, phase, false);
	else if ((fn = xl_fn_lookup(item)) != XL_FN_COUNT)
		select_function(s, fn);
	else
		return false;
	return true;
}

/*
 * Appends @p item, quoted and escaped, to the comma list @p bad, if it fits
 * whole (a cut escape would read as another byte).
 */
static void note_bad(char *bad, size_t size, const char *item)
{
	char q[QUOTE_PATH_MAX];
	size_t len = strlen(bad);

	int n = snprintf(bad + len, size - len, "%s\"%s\"", len ? ", " : "", shown(q, item, 64));
	if (n < 0 || (size_t)n >= size - len)
		bad[len] = '\0';
}

/*
 * Whether function @p fn can be in a calls file: xrGetInstanceProcAddr and
 * xrDestroyInstance have hooks of their own that record nothing
 * (xl_hooks.txt), and the loader answers the four functions that come
 * before an instance (xrCreateInstance, the two enumerations,
 * xrInitializeLoaderKHR) itself, never a layer's wrapper: selecting them
 * or not changes nothing.
 */
static bool recordable(int fn)
{
	switch (fn) {
	case XL_FN_xrGetInstanceProcAddr:
	case XL_FN_xrDestroyInstance:
	case XL_FN_xrCreateInstance:
	case XL_FN_xrEnumerateApiLayerProperties:
	case XL_FN_xrEnumerateInstanceExtensionProperties:
	case XL_FN_xrInitializeLoaderKHR:
		return false;
	default:
		return true;
	}
}

int xl_settings_recordable_count(void)
{
	int n = 0;

	for (int fn = 0; fn < XL_FN_COUNT; fn++)
		n += recordable(fn);
	return n;
}

static void finish_functions(struct xl_settings *s)
{
	select_function(s, XL_FN_xrEndFrame); /* the frames file needs it */
	s->functions_count = 0;
	s->phases_recorded = U_PHASE_ALL;
	for (int fn = 0; fn < XL_FN_COUNT; fn++) {
		if (!recordable(fn))
			continue;
		if (xl_settings_function_selected(s, (enum xl_fn_id)fn))
			s->functions_count++;
		else
			s->phases_recorded &= ~(1u << u_phase_of(xl_fn_names[fn]));
	}
	s->functions_all = (int)s->functions_count == xl_settings_recordable_count();
}

/* Room for one XRLM_FUNCTIONS item: more than any OpenXR function name or phase name. */
#define FN_ITEM_MAX 128

/*
 * Copies the item of @p len bytes at @p text into @p item (FN_ITEM_MAX
 * bytes), without the blanks around it (those inside stay: "wait begin" is
 * no name). Returns false when it does not fit: no name is that long (the
 * start of it is copied, to be shown).
 */
static bool copy_item(char *item, const char *text, size_t len)
{
	while (len > 0 && (*text == ' ' || *text == '\t')) {
		text++;
		len--;
	}
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	bool fits = len < FN_ITEM_MAX;
	if (!fits)
		len = FN_ITEM_MAX - 1;
	memcpy(item, text, len);
	item[len] = '\0';
	return fits;
}

/*
 * Parses a XRLM_FUNCTIONS value into @p s's function set: "all", "frame",
 * or a comma list of function names and phase names (wait, begin, end,
 * locate_views, sync_actions, swapchain, other), where "all" and "frame"
 * may appear too; names are exact, blanks around them are dropped. The
 * value is read where it is, item by item: a list of any length works.
 * The names it does not know go into @p bad (comma-separated, whole ones
 * while they fit). Returns false when no item names anything (the set is
 * then every function).
 */
static bool parse_functions(struct xl_settings *s, const char *text, char *bad, size_t bad_size)
{
	char item[FN_ITEM_MAX];
	bool any = false;

	memset(s->functions, 0, sizeof(s->functions));
	bad[0] = '\0';
	for (;; text++) {
		size_t len = strcspn(text, ",");
		bool fits = copy_item(item, text, len);
		if (fits && select_item(s, item))
			any = true;
		else if (item[0])
			note_bad(bad, bad_size, item);
		text += len;
		if (!*text)
			break;
	}
	if (!any)
		select_item(s, "all");
	finish_functions(s);
	return any;
}

static void load_functions(struct xl_settings *s)
{
	const char *text = getenv("XRLM_FUNCTIONS");
	char bad[256];

	if (!text)
		text = "all";
	bool any = parse_functions(s, text, bad, sizeof(bad));
	if (bad[0])
		xl_log("setting ignored: XRLM_FUNCTIONS: neither an OpenXR function of this build "
		       "nor all, frame, wait, begin, end, locate_views, sync_actions, swapchain or "
		       "other: %s%s", bad, any ? "" : "; using the default all");
	else if (!any)
		xl_log("setting ignored: XRLM_FUNCTIONS is empty; using the default all");
}

bool xl_settings_parse_trace(const char *text, bool *csv, bool *lttng)
{
	*csv = *lttng = false;
	for (const char *p = text;; p++) {
		size_t len = strcspn(p, ",");
		if (len == 3 && strncasecmp(p, "csv", 3) == 0)
			*csv = true;
		else if (len == 5 && strncasecmp(p, "lttng", 5) == 0)
			*lttng = true;
		else
			return false;
		p += len;
		if (!*p)
			return true;
	}
}

static void load_trace(struct xl_settings *s)
{
	const char *text = getenv("XRLM_TRACE");
	char q[QUOTE_PATH_MAX];

	if (text && xl_settings_parse_trace(text, &s->trace_csv, &s->trace_lttng))
		return;
	s->trace_csv = true;
	s->trace_lttng = false;
	if (text)
		xl_log("setting ignored: XRLM_TRACE=\"%s\" is not a comma list of csv and lttng; "
		       "using the default csv", shown(q, text, VALUE_SHOWN));
}

static void load_control(struct xl_settings *s)
{
	const char *text = getenv("XRLM_CONTROL");
	char q[QUOTE_PATH_MAX];

	s->control = true;
	if (!text || strcasecmp(text, "on") == 0)
		return;
	if (strcasecmp(text, "off") == 0) {
		s->control = false;
		return;
	}
	xl_log("setting ignored: XRLM_CONTROL=\"%s\" is not on or off; using the default on",
	       shown(q, text, VALUE_SHOWN));
}

void xl_settings_load(struct xl_settings *s)
{
	load_functions(s);
	load_trace(s);
	load_record(s);
	load_control(s);
	load_signal(s);
	s->gpu_mode = (enum xl_gpu_mode)load_choice("XRLM_GPU_MODE", gpu_mode_names, 4,
	                                            "auto, sandwich, gated or off");
	s->gpu_gate = (enum xl_gpu_gate)load_choice("XRLM_GPU_GATE", gpu_gate_names, 3,
	                                            "auto, event or timeline");
	s->delay_s = u_env_double("XRLM_RECORD_DELAY_S", -1.0, XL_RECORD_DELAY_S_MIN,
	                          XL_RECORD_DELAY_S_MAX, warn_to_log, "unset (no delayed start)");
	s->time_limit_s = u_env_double("XRLM_RECORD_S", 0.0, XL_RECORD_S_MIN, XL_RECORD_S_MAX,
	                               warn_to_log, "unset (no time limit)");
	s->frame_limit = u_env_u64("XRLM_RECORD_FRAMES", 0, XL_RECORD_FRAMES_MIN,
	                           XL_RECORD_FRAMES_MAX, warn_to_log, "unset (no frame limit)");
}
