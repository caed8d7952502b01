/*
 * The functions with a hand-written hook (the list is xl_hooks.txt, checked
 * against the headers and expanded at build time into xl_hooks_list.h as
 * XL_HOOK(ret, name, params, args, hook, pre_only, bracket)).
 *
 * Each hook takes this side's struct xl_instance first, then the function's
 * own parameters; the function's generated wrapper (xl_wrap.c) calls it.
 * A hook whose wrapper records the call (bracket 0) reaches the next layer
 * through xl_next_<function>, which brackets just that call on the pre
 * side. The declarations below come from the same list, so a hook whose
 * signature drifts from the header's does not compile.
 */
#ifndef XL_HOOKS_H
#define XL_HOOKS_H

#include "xl_fn.h"

struct xl_instance;

#define XL_HOOK(ret, name, params, args, hook, pre_only, bracket) \
	ret hook(struct xl_instance *in, XL_UNPAREN params);         \
	XRAPI_ATTR ret XRAPI_CALL xl_next_##name params;
#include "xl_hooks_list.h"
#undef XL_HOOK

/* The hooked functions, in list order. */
extern const enum xl_fn_id xl_hooks_ids[];
extern const size_t xl_hooks_count;

#endif /* XL_HOOKS_H */
