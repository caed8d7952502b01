/*
 * Calls the synthetic target makes to the layers below on its own: from
 * inside a hook ("induced", XRTEST_TARGET_INDUCE_<function>) or from a
 * worker thread of its own (XRTEST_TARGET_THREAD_CALLS). Both name the
 * calls the same way: a comma list of "function" or "function:N" items.
 */
#ifndef TT_CALLS_H
#define TT_CALLS_H

#include <openxr/openxr.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The functions the target can call on its own. */
enum tt_callee {
	TT_CALLEE_LOCATE_SPACE,        /* xrLocateSpace: the target's VIEW space in its LOCAL space */
	TT_CALLEE_LOCATE_VIEWS,        /* xrLocateViews: primary stereo, in its LOCAL space */
	TT_CALLEE_INSTANCE_PROPERTIES, /* xrGetInstanceProperties */
	TT_CALLEE_COUNT
};

/* How many calls of each callee to make, in this order. */
struct tt_calls {
	uint32_t n[TT_CALLEE_COUNT];
};

/* Most calls of one callee per item: far beyond any realistic layer. */
#define TT_CALLS_MAX_EACH 1000

/* What the calls are made on: the next layer's functions and the handles. */
struct tt_call_ctx {
	XrInstance instance;
	XrSession session;
	XrSpace view_space;  /* the target's own reference spaces of the session */
	XrSpace local_space;
	PFN_xrVoidFunction next[TT_CALLEE_COUNT];
};

/* The OpenXR name of @p c ("xrLocateSpace"). */
const char *tt_callee_name(enum tt_callee c);

/*
 * Parses @p text, the value of variable @p var, into @p out. A bad value
 * (unknown function, bad count, empty item) is logged as one line naming
 * the variable and the value; @p out is then empty (the safe default).
 */
bool tt_calls_parse(const char *var, const char *text, struct tt_calls *out);

/* True if @p c asks for any call. */
bool tt_calls_any(const struct tt_calls *c);

/* Writes @p c as "xrLocateSpace:4,..." (or "-" when empty) into @p buf. */
void tt_calls_format(const struct tt_calls *c, char *buf, size_t size);

/*
 * Makes the calls @p c asks for through @p ctx's functions, at @p time.
 * Returns how many failed (an XrResult that is not XR_SUCCESS, or no
 * function or handle to call); never changes what the app sees.
 */
uint32_t tt_calls_make(const struct tt_calls *c, const struct tt_call_ctx *ctx, XrTime time);

/* Total number of calls @p c asks for. */
uint32_t tt_calls_total(const struct tt_calls *c);

/*
 * Makes the calls @p c asks for on the target's current session, the one
 * created last and not yet destroyed (tt_session.c), adding the failures
 * to @p failed. False, and nothing called, when the target has no session.
 */
bool tt_session_calls(const struct tt_calls *c, uint32_t *failed);

#endif /* TT_CALLS_H */
