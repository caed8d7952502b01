/*
 * The chain check; see xl_chain.h.
 */
#include "xl_chain.h"

#include <stdio.h>
#include <string.h>

/* Guards against a corrupt list: no real chain is this long. */
#define MAX_LAYERS 64

static void append_name(char *names, size_t size, const char *name)
{
	size_t len = strlen(names);
	snprintf(names + len, size - len, "%s%.*s", len ? "+" : "", XR_MAX_API_LAYER_NAME_SIZE, name);
}

void xl_chain_inspect(const XrApiLayerNextInfo *next, const char *partner,
                      struct xl_chain_report *out)
{
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	for (; next && seen < MAX_LAYERS; next = next->next, seen++) {
		if (next->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO)
			break;
		if (strncmp(next->layerName, partner, XR_MAX_API_LAYER_NAME_SIZE) == 0) {
			out->partner_found = true;
			break;
		}
		out->between++;
		append_name(out->between_names, sizeof(out->between_names), next->layerName);
	}
	if (out->between == 0)
		snprintf(out->between_names, sizeof(out->between_names), "none");
}
