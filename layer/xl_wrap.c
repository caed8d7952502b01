/*
 * The generated wrappers; see xl_wrap.h. Every function of the generated
 * list (xl_wrap_list.h, XL_WRAP(ret, name, params, args, kind, hook)) is
 * expanded by the macro of its kind below; nothing here names a function.
 * This file is compiled into each library with XL_BUILD_PRE saying which
 * side it is (the brackets differ), so that each bracket is laid out in
 * one function with the call it times.
 */
#include "xl_wrap.h"

#include "xl_call.h"
#include "xl_clock.h"
#include "xl_hooks.h"

#if !defined(XL_BUILD_PRE)
#error "XL_BUILD_PRE (0 or 1) comes from layer/CMakeLists.txt"
#endif

/*
 * The next layer's function. Relaxed atomic: the application's look-up of
 * a function fills its slot (xl_wrap_function) while other threads may be
 * calling through it.
 */
#define NEXT(name) __atomic_load_n(&xl_inst.next.name, __ATOMIC_RELAXED)

/*
 * The recording path of function @p name, out of line so that the idle
 * path saves no registers: calls @p callee with @p cargs, bracketed.
 * Pre's bracket is narrow (its own work, the claim included, lies outside
 * it); post's is wide (from its first line to its last, the claim inside).
 * Either way the difference pre − post is the target's time.
 */
#if XL_BUILD_PRE
#define RECORD(ret, name, params, callee, cargs)                                             \
	static __attribute__((noinline)) ret record_##name(uint32_t xl_sid, XL_UNPAREN params) \
	{                                                                                      \
		struct xl_call xl_c;                                                           \
		if (!xl_call_selected(&xl_inst, XL_FN_##name) ||                               \
		    !xl_call_claim(&xl_inst, &xl_c, XL_FN_##name, xl_sid))                     \
			return callee cargs;                                                   \
		__typeof__(callee) xl_next = callee; /* its cache miss before the bracket */  \
		uint64_t xl_t0 = xl_clock_mono_ns();                                           \
		ret xl_r = xl_next cargs;                                                      \
		uint64_t xl_t1 = xl_clock_mono_ns();                                           \
		xl_call_publish(&xl_c, xl_t0, xl_t1, xl_r, 0);                                 \
		return xl_r;                                                                   \
	}
#else
#define RECORD(ret, name, params, callee, cargs)                                             \
	static __attribute__((noinline)) ret record_##name(uint32_t xl_sid, XL_UNPAREN params) \
	{                                                                                      \
		if (!xl_call_selected(&xl_inst, XL_FN_##name))                                 \
			return callee cargs;                                                   \
		uint64_t xl_t0 = xl_clock_mono_ns();                                           \
		struct xl_call xl_c;                                                           \
		bool xl_claimed = xl_call_claim(&xl_inst, &xl_c, XL_FN_##name, xl_sid);        \
		ret xl_r = callee cargs;                                                       \
		uint64_t xl_t1 = xl_clock_mono_ns();                                           \
		if (xl_claimed)                                                                \
			xl_call_publish(&xl_c, xl_t0, xl_t1, xl_r, 0);                         \
		return xl_r;                                                                   \
	}
#endif

/* A wrapper @p fname: the idle test, then @p callee directly or its recording path. */
#define WRAPPER(storage, fname, ret, name, params, args, callee, cargs)                 \
	RECORD(ret, name, params, callee, cargs)                                        \
	storage XRAPI_ATTR ret XRAPI_CALL fname params                                  \
	{                                                                               \
		uint32_t xl_sid = xl_call_enter(&xl_inst, XL_FN_##name);                \
		if (__builtin_expect(!xl_sid, 1))                                       \
			return callee cargs;                                            \
		return record_##name(xl_sid, XL_UNPAREN args);                          \
	}

/* A wrapper that hands the call to its hook, which records it itself or not at all. */
#define TO_HOOK(ret, name, params, args, hook)                                           \
	static XRAPI_ATTR ret XRAPI_CALL wrap_##name params                              \
	{                                                                                \
		return hook(&xl_inst, XL_UNPAREN args);                                  \
	}

/* A hook's plain way to the next layer (post: post's wrapper bracketed the hook). */
#define FORWARD(ret, name, params, args)                                                 \
	XRAPI_ATTR ret XRAPI_CALL xl_next_##name params                                  \
	{                                                                                \
		return NEXT(name) args;                                                  \
	}

/*
 * Per kind and side: DEF_<kind> defines the wrapper, ENTRY_<kind> its
 * table entry {wrapper, hooked}. A hooked function is handed out whatever
 * XRLM_FUNCTIONS says (its hook must run).
 */
#if XL_BUILD_PRE
/* The wrapper is the bracketed call to the next layer itself. */
#define DEF_PLAIN(ret, name, params, args, hook) \
	WRAPPER(static, xl_next_##name, ret, name, params, args, NEXT(name), args)
#define ENTRY_PLAIN(name) {(PFN_xrVoidFunction)xl_next_##name, false}
/* The hook runs outside the bracket, which xl_next_<name> puts around its call down. */
#define DEF_HOOK(ret, name, params, args, hook)                               \
	WRAPPER(, xl_next_##name, ret, name, params, args, NEXT(name), args) \
	TO_HOOK(ret, name, params, args, hook)
#define ENTRY_HOOK(name) {(PFN_xrVoidFunction)wrap_##name, true}
#define DEF_HOOK_PRE DEF_HOOK
#define ENTRY_HOOK_PRE ENTRY_HOOK
#else
#define DEF_PLAIN(ret, name, params, args, hook) \
	WRAPPER(static, wrap_##name, ret, name, params, args, NEXT(name), args)
#define ENTRY_PLAIN(name) {(PFN_xrVoidFunction)wrap_##name, false}
/* The bracket holds the hook's own work too: it lies inside pre's as well. */
#define DEF_HOOK(ret, name, params, args, hook)                                       \
	WRAPPER(static, wrap_##name, ret, name, params, args, hook, (&xl_inst, XL_UNPAREN args)) \
	FORWARD(ret, name, params, args)
#define ENTRY_HOOK(name) {(PFN_xrVoidFunction)wrap_##name, true}
/* Pre's alone: plain here, with the way down its hook (compiled in both) names. */
#define DEF_HOOK_PRE(ret, name, params, args, hook) \
	DEF_PLAIN(ret, name, params, args, hook)      \
	FORWARD(ret, name, params, args)
#define ENTRY_HOOK_PRE ENTRY_PLAIN
#endif
#define DEF_OWN TO_HOOK
#define ENTRY_OWN(name) {(PFN_xrVoidFunction)wrap_##name, true}

#define XL_WRAP(ret, name, params, args, kind, hook) DEF_##kind(ret, name, params, args, hook)
#include "xl_wrap_list.h"
#undef XL_WRAP

static const struct {
	PFN_xrVoidFunction wrapper;
	bool hooked;
} entries[XL_FN_COUNT] = {
#define XL_WRAP(ret, name, params, args, kind, hook) [XL_FN_##name] = ENTRY_##kind(name),
#include "xl_wrap_list.h"
#undef XL_WRAP
};

PFN_xrVoidFunction xl_wrap_lookup(enum xl_fn_id id)
{
	return id < XL_FN_COUNT ? entries[id].wrapper : NULL;
}

PFN_xrVoidFunction xl_wrap_function(struct xl_instance *in, enum xl_fn_id id,
                                    PFN_xrVoidFunction next)
{
	if (id >= XL_FN_COUNT || !next)
		return NULL;
	/* Not selected: the application calls the next layer directly, at no cost. */
	if (!entries[id].hooked && id != XL_FN_xrBeginFrame &&
	    !xl_settings_function_selected(&in->settings, id))
		return NULL;
	/* The wrapper calls what the next layer answered the application. */
	PFN_xrVoidFunction *slot = xl_dispatch_slot(&in->next, id);
	if (__atomic_load_n(slot, __ATOMIC_RELAXED) != next)
		__atomic_store_n(slot, next, __ATOMIC_RELAXED);
	return entries[id].wrapper;
}
