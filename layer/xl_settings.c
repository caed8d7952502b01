/*
 * Reading the layer's environment; see xl_settings.h.
 */
#include "xl_settings.h"

#include "u_parse.h"
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

void xl_settings_output_dir(char *out, size_t out_size, char *warning, size_t warning_size)
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
			return;
		snprintf(warning, warning_size,
		         "XRLM_OUTPUT_DIR is too long or cannot be resolved; using the default");
	} else if (dir) {
		snprintf(warning, warning_size, "XRLM_OUTPUT_DIR is empty; using the default");
	}
	if (!default_state_dir(out, out_size))
		snprintf(out, out_size, "/tmp/xr-layer-monitor-%u", (unsigned)getuid());
}

/*
 * @p ctx: what the default means, said instead of the number that stands
 * for it (a -1 or 0 that means "unset" tells the user nothing).
 */
static void warn_to_log(void *ctx, const char *message)
{
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
		s->signal = DEFAULT_SIGNAL;
		xl_log("setting ignored: XRLM_SIGNAL=\"%.32s\" is not USR1, USR2, RTMIN+n, "
		       "RTMAX-n, one of their numbers, or off; using the default %s",
		       text, DEFAULT_SIGNAL_NAME);
		return;
	}
	snprintf(s->signal_name, sizeof(s->signal_name), "%.15s", text);
}

static void load_record(struct xl_settings *s)
{
	const char *text = getenv("XRLM_RECORD");

	s->record_at_start = false;
	if (!text || strcmp(text, "0") == 0)
		return;
	if (strcmp(text, "1") == 0) {
		s->record_at_start = true;
		return;
	}
	xl_log("setting ignored: XRLM_RECORD=\"%.32s\" is not 0 or 1; using the default 0 "
	       "(wait for the signal)", text);
}

static const char *const gpu_mode_names[] = {"auto", "sandwich", "gated", "off"};

const char *xl_settings_gpu_mode_name(enum xl_gpu_mode mode)
{
	return gpu_mode_names[mode];
}

static void load_gpu_mode(struct xl_settings *s)
{
	const char *text = getenv("XRLM_GPU_MODE");

	s->gpu_mode = XL_GPU_AUTO;
	if (!text)
		return;
	for (int m = XL_GPU_AUTO; m <= XL_GPU_OFF; m++) {
		if (strcasecmp(text, gpu_mode_names[m]) == 0) {
			s->gpu_mode = (enum xl_gpu_mode)m;
			return;
		}
	}
	xl_log("setting ignored: XRLM_GPU_MODE=\"%.32s\" is not auto, sandwich, gated or off; "
	       "using the default auto", text);
}

static void load_control(struct xl_settings *s)
{
	const char *text = getenv("XRLM_CONTROL");

	s->control = true;
	if (!text || strcasecmp(text, "on") == 0)
		return;
	if (strcasecmp(text, "off") == 0) {
		s->control = false;
		return;
	}
	xl_log("setting ignored: XRLM_CONTROL=\"%.32s\" is not on or off; using the default on",
	       text);
}

void xl_settings_load(struct xl_settings *s)
{
	load_record(s);
	load_control(s);
	load_signal(s);
	load_gpu_mode(s);
	s->delay_s = u_env_double("XRLM_RECORD_DELAY_S", -1.0, XL_RECORD_DELAY_S_MIN,
	                          XL_RECORD_DELAY_S_MAX, warn_to_log, "unset (no delayed start)");
	s->time_limit_s = u_env_double("XRLM_RECORD_S", 0.0, XL_RECORD_S_MIN, XL_RECORD_S_MAX,
	                               warn_to_log, "unset (no time limit)");
	s->frame_limit = u_env_u64("XRLM_RECORD_FRAMES", 0, XL_RECORD_FRAMES_MIN,
	                           XL_RECORD_FRAMES_MAX, warn_to_log, "unset (no frame limit)");
}
