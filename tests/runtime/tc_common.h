/*
 * Helpers for the runtime's C tests: a headless session through the real
 * loader, driven the way an application drives it.
 */
#ifndef TC_COMMON_H
#define TC_COMMON_H

#include <openxr/openxr.h>

#include <stdbool.h>
#include <stdint.h>

#define TC_MAX_STATES 32

struct tc_xr {
	XrInstance instance;
	XrSystemId system;
	XrSession session;
	XrSpace local;
	XrSessionState state;
	XrSessionState states[TC_MAX_STATES]; /* every state delivered, in order */
	uint32_t state_count;
};

/* Prints "FAIL: ..." on stderr; returns false so callers can `return tc_fail()`. */
bool tc_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Checks that @p got is @p want, naming @p what in the failure message. */
bool tc_expect(const char *what, XrResult got, XrResult want);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tc_now_ns(void);

/* Instance with XR_MND_headless, system, session and a LOCAL space. */
bool tc_create_headless(struct tc_xr *xr);

/* Drains the event queue, recording state changes. */
bool tc_poll(struct tc_xr *xr);

/* Polls until READY, then xrBeginSession. */
bool tc_begin(struct tc_xr *xr);

/* One xrWaitFrame/xrBeginFrame/xrEndFrame with no layers. */
bool tc_frame(struct tc_xr *xr, XrFrameState *state);

/* Exits the session the normal way (requesting it if the runtime did not) and destroys all. */
bool tc_finish(struct tc_xr *xr);

/* Checks that the delivered states are the runtime's full life cycle. */
bool tc_check_life_cycle(const struct tc_xr *xr);

#endif /* TC_COMMON_H */
