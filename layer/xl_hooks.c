/*
 * The list of the hooked functions; see xl_hooks.h. Their wrappers are
 * xl_wrap.c's, generated like every other function's.
 */
#include "xl_hooks.h"

const enum xl_fn_id xl_hooks_ids[] = {
#define XL_HOOK(ret, name, params, args, hook, pre_only, bracket) XL_FN_##name,
#include "xl_hooks_list.h"
#undef XL_HOOK
};
const size_t xl_hooks_count = sizeof(xl_hooks_ids) / sizeof(xl_hooks_ids[0]);
