/*
 * The chain check; see xl_chain.h.
 */
#include "xl_chain.h"

#include "quote.h"

#include <stdio.h>
#include <string.h>

/* Guards against a corrupt list: no real chain is this long. */
#define MAX_LAYERS 64

static bool is_layer(const XrApiLayerNextInfo *e, const char *name)
{
	return strncmp(e->layerName, name, XR_MAX_API_LAYER_NAME_SIZE) == 0;
}

/*
 * Appends layer @p name to @p names. A control byte in it (a manifest's
 * name is any JSON string) becomes '?' (quote_text()): the name goes into
 * the files' "# target_layer=" line, which a line end would break. So
 * does a comma at its end, which the readers take for a spreadsheet's
 * padding of that line (csvr.c).
 */
static void append_name(char *names, size_t size, const char *name)
{
	size_t len = strlen(names);
	snprintf(names + len, size - len, "%s%.*s", len ? "+" : "", XR_MAX_API_LAYER_NAME_SIZE, name);
	quote_text(names + len);
	size_t end = strlen(names);
	if (end > len && names[end - 1] == ',')
		names[end - 1] = '?';
}

void xl_chain_inspect(const XrApiLayerNextInfo *list, const char *self, const char *partner,
                      struct xl_chain_report *out)
{
	const XrApiLayerNextInfo *above = NULL, *e = list;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	/* Our own element: its functions are those of the layer below us. */
	if (e && is_layer(e, self)) {
		above = e;
		e = e->next;
	}
	for (; e && seen < MAX_LAYERS; above = e, e = e->next, seen++) {
		if (e->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO)
			break;
		if (is_layer(e, partner)) {
			out->partner_found = true;
			out->partner_gipa = above ? above->nextGetInstanceProcAddr : NULL;
			break;
		}
		out->between++;
		append_name(out->between_names, sizeof(out->between_names), e->layerName);
	}
	if (out->between == 0)
		snprintf(out->between_names, sizeof(out->between_names), "none");
}
