/*
 * Frame phases; see u_phase.h.
 */
#include "u_phase.h"

#include <string.h>

static const char *const names[U_PHASE_COUNT] = {
	"wait", "begin", "end", "locate_views", "sync_actions", "swapchain", "other",
};

/* The functions of a phase other than "other"; a trailing '*' is a prefix. */
static const struct {
	const char *fn;
	enum u_phase phase;
} members[] = {
	{"xrWaitFrame", U_PHASE_WAIT},
	{"xrBeginFrame", U_PHASE_BEGIN},
	{"xrEndFrame", U_PHASE_END},
	{"xrLocateViews", U_PHASE_LOCATE_VIEWS},
	{"xrSyncActions", U_PHASE_SYNC_ACTIONS},
	{"xrGetActionState*", U_PHASE_SYNC_ACTIONS},
	{"xrAcquireSwapchainImage", U_PHASE_SWAPCHAIN},
	{"xrWaitSwapchainImage", U_PHASE_SWAPCHAIN},
	{"xrReleaseSwapchainImage", U_PHASE_SWAPCHAIN},
};

static bool member_matches(const char *pattern, const char *fn)
{
	size_t n = strlen(pattern);

	if (pattern[n - 1] == '*')
		return strncmp(pattern, fn, n - 1) == 0;
	return strcmp(pattern, fn) == 0;
}

enum u_phase u_phase_of(const char *fn)
{
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		if (member_matches(members[i].fn, fn))
			return members[i].phase;
	}
	return U_PHASE_OTHER;
}

const char *u_phase_name(enum u_phase phase)
{
	return (unsigned)phase < U_PHASE_COUNT ? names[phase] : "other";
}

bool u_phase_parse(const char *name, enum u_phase *out)
{
	for (int i = 0; i < U_PHASE_COUNT; i++) {
		if (strcmp(names[i], name) == 0) {
			*out = (enum u_phase)i;
			return true;
		}
	}
	return false;
}

void u_phase_set_format(unsigned set, char out[U_PHASE_SET_MAX])
{
	char *p = out;

	for (int i = 0; i < U_PHASE_COUNT; i++) {
		if (!(set & (1u << i)))
			continue;
		if (p != out)
			*p++ = ',';
		size_t n = strlen(names[i]);
		memcpy(p, names[i], n);
		p += n;
	}
	*p = '\0';
}

bool u_phase_set_parse(const char *text, unsigned *out)
{
	char name[32];
	enum u_phase phase;

	*out = 0;
	for (const char *p = text; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, ",");
		size_t len = n;
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len > 0) {
			if (len >= sizeof(name))
				return false;
			memcpy(name, p, len);
			name[len] = '\0';
			if (!u_phase_parse(name, &phase))
				return false;
			*out |= 1u << phase;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return true;
}
