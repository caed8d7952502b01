/*
 * The functions with a hand-written hook (the list is xl_hooks.txt, checked
 * against the headers and expanded at build time into xl_hooks_list.h as
 * XL_HOOK(ret, name, params, args, hook, pre_only)).
 *
 * Each hook takes this side's struct xl_instance first, then the function's
 * own parameters; xl_hooks.c wraps it into the OpenXR signature that
 * xrGetInstanceProcAddr hands out. The declarations below come from the
 * same list, so a hook whose signature drifts from the header's does not
 * compile.
 */
#ifndef XL_HOOKS_H
#define XL_HOOKS_H

#include "xl_fn.h"

struct xl_instance;

#define XL_HOOK(ret, name, params, args, hook, pre_only) \
	ret hook(struct xl_instance *in, XL_UNPAREN params);
#include "xl_hooks_list.h"
#undef XL_HOOK

/* The hooked functions, in list order; see xl_hooks_ids. */
extern const enum xl_fn_id xl_hooks_ids[];
extern const size_t xl_hooks_count;

/*
 * This side's wrapper for function @p id, or NULL when it has none (the
 * Vulkan device hooks are the pre side's alone).
 */
PFN_xrVoidFunction xl_hooks_wrapper(enum xl_fn_id id);

#endif /* XL_HOOKS_H */
