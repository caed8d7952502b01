/*
 * The generated function list's tables; see xl_fn.h.
 */
#include "xl_fn.h"

#include <stddef.h>
#include <string.h>

const char *const xl_fn_names[XL_FN_COUNT] = {
#define XL_FN(ret, name, params, args) [XL_FN_##name] = #name,
#include "xl_fn_list.h"
#undef XL_FN
};

/* Where each function's pointer lives in struct xl_dispatch. */
static const size_t dispatch_offsets[XL_FN_COUNT] = {
#define XL_FN(ret, name, params, args) [XL_FN_##name] = offsetof(struct xl_dispatch, name),
#include "xl_fn_list.h"
#undef XL_FN
};

enum xl_fn_id xl_fn_lookup(const char *name)
{
	/* A linear scan: called only from xrGetInstanceProcAddr, a few hundred
	 * times at start-up, never on a frame. */
	for (int id = 0; id < XL_FN_COUNT; id++)
		if (strcmp(name, xl_fn_names[id]) == 0)
			return (enum xl_fn_id)id;
	return XL_FN_COUNT;
}

PFN_xrVoidFunction *xl_dispatch_slot(struct xl_dispatch *d, enum xl_fn_id id)
{
	return (PFN_xrVoidFunction *)((char *)d + dispatch_offsets[id]);
}

void xl_dispatch_fill(struct xl_dispatch *d, PFN_xrGetInstanceProcAddr gipa, XrInstance instance,
                      const enum xl_fn_id *ids, size_t count)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < count; i++) {
		if (ids[i] == XL_FN_xrGetInstanceProcAddr)
			continue; /* gipa itself, set below */
		PFN_xrVoidFunction *slot = xl_dispatch_slot(d, ids[i]);
		if (gipa(instance, xl_fn_names[ids[i]], slot) != XR_SUCCESS)
			*slot = NULL;
	}
	d->xrGetInstanceProcAddr = gipa;
}
