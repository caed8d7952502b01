/*
 * The generated wrapper of every OpenXR function (xl_wrap.c), one per
 * function of the headers, each built from the same few lines:
 *
 *   idle:      one relaxed load of the control word and a test, then the
 *              next layer's function (xrWaitFrame also counts its frame);
 *   recording: when XRLM_FUNCTIONS selects the function, the call is
 *              bracketed as xrEndFrame's is (pre: around the call to the
 *              next layer, record claimed before; post: from the wrapper's
 *              first line to its last, record claimed inside) and pushed
 *              to the calling thread's ring (function, thread, entry and
 *              exit time, frame id, result).
 *
 * A function with a hook (xl_hooks.txt) gets its hook called from that
 * same path: pre calls the hook, which reaches the next layer through
 * xl_next_<function> (the bracket); post brackets the hook. xrEndFrame's
 * hook records its call itself (it adds the GPU sandwich).
 */
#ifndef XL_WRAP_H
#define XL_WRAP_H

#include "xl_fn.h"

struct xl_instance;

/*
 * What xrGetInstanceProcAddr hands out for function @p id, which the next
 * layer answered with @p next: this side's wrapper, with @p next noted as
 * the function the wrapper calls; or NULL (hand out @p next itself) when
 * the function is neither hooked, xrBeginFrame (its frame id), nor selected
 * by XRLM_FUNCTIONS. Also NULL for a name the headers do not know
 * (@p id = XL_FN_COUNT).
 */
PFN_xrVoidFunction xl_wrap_function(struct xl_instance *in, enum xl_fn_id id,
                                    PFN_xrVoidFunction next);

/* This side's wrapper of function @p id, whatever XRLM_FUNCTIONS says; NULL if none. */
PFN_xrVoidFunction xl_wrap_lookup(enum xl_fn_id id);

#endif /* XL_WRAP_H */
