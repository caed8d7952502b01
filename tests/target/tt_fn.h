/*
 * Every OpenXR function through the synthetic target: one wrapper per
 * function of the list generated at build time from the installed headers
 * (layer/gen/xl_gen_functions.py), handed out by the target's
 * xrGetInstanceProcAddr wherever the next layer has the function. A
 * wrapper does what the function's knobs ask (XRTEST_TARGET_CPU_US_<fn>,
 * _ANSWER_<fn>, _INDUCE_<fn>; see tests/README.md), then calls down: the
 * target's own hook where it has one (tt_session.c, tt_layer.c), else the
 * next layer.
 *
 * The next layer's functions are kept once per process, not per instance:
 * every instance of one process sees the same chain of libraries below.
 */
#ifndef TT_FN_H
#define TT_FN_H

#include <openxr/openxr.h>

#include "tt_calls.h"

/* Reads and logs the per-function knobs (once per process; bad ones logged once). */
void tt_fn_knobs_init(void);

/* Every callee some function's XRTEST_TARGET_INDUCE_<fn> asks for (at least once). */
void tt_fn_induced_callees(struct tt_calls *out);

/*
 * What xrGetInstanceProcAddr hands out for @p name whose next step down is
 * @p down (the next layer's function, or the target's hook): the
 * function's wrapper, or @p down itself for a name the headers do not know
 * (a newer app's function is forwarded, never refused).
 */
PFN_xrVoidFunction tt_fn_wrap(const char *name, PFN_xrVoidFunction down);

/* Logs what each configured function did since the last call, and starts over. */
void tt_fn_log_summary(void);

#endif /* TT_FN_H */
