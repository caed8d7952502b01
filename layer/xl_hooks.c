/*
 * The OpenXR-signature wrappers of the hooks; see xl_hooks.h. Each passes
 * this side's one instance state to its hook: the only place the hooks'
 * caller reaches for the global.
 */
#include "xl_hooks.h"

#include "xl_instance.h"

#define XL_HOOK(ret, name, params, args, hook, pre_only)           \
	static XRAPI_ATTR ret XRAPI_CALL wrap_##name params         \
	{                                                            \
		return hook(&xl_inst, XL_UNPAREN args);              \
	}
#include "xl_hooks_list.h"
#undef XL_HOOK

static const struct {
	PFN_xrVoidFunction wrapper;
	bool pre_only;
} wrappers[XL_FN_COUNT] = {
#define XL_HOOK(ret, name, params, args, hook, pre_only) \
	[XL_FN_##name] = {(PFN_xrVoidFunction)wrap_##name, pre_only},
#include "xl_hooks_list.h"
#undef XL_HOOK
};

const enum xl_fn_id xl_hooks_ids[] = {
#define XL_HOOK(ret, name, params, args, hook, pre_only) XL_FN_##name,
#include "xl_hooks_list.h"
#undef XL_HOOK
};
const size_t xl_hooks_count = sizeof(xl_hooks_ids) / sizeof(xl_hooks_ids[0]);

PFN_xrVoidFunction xl_hooks_wrapper(enum xl_fn_id id)
{
	if (id >= XL_FN_COUNT || (wrappers[id].pre_only && xl_side.index != XL_SIDE_PRE))
		return NULL;
	return wrappers[id].wrapper;
}
