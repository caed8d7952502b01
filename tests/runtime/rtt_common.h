/*
 * Helpers for the runtime's C tests: a headless session through the real
 * loader, driven the way an application drives it.
 */
#ifndef RTT_COMMON_H
#define RTT_COMMON_H

#include <openxr/openxr.h>

#include <stdbool.h>
#include <stdint.h>

#define RTT_MAX_STATES 32

struct rtt_xr {
	XrInstance instance;
	XrSystemId system;
	XrSession session;
	XrSpace local;
	XrSessionState state;
	XrSessionState states[RTT_MAX_STATES]; /* every state delivered, in order */
	uint32_t state_count;
};

/* Prints "FAIL: ..." on stderr; returns false so callers can `return rtt_fail()`. */
bool rtt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Checks that @p got is @p want, naming @p what in the failure message. */
bool rtt_expect(const char *what, XrResult got, XrResult want);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t rtt_now_ns(void);

/* Instance with XR_MND_headless, system, session and a LOCAL space. */
bool rtt_create_headless(struct rtt_xr *xr);

/* Drains the event queue, recording state changes. */
bool rtt_poll(struct rtt_xr *xr);

/* Polls until READY, then xrBeginSession. */
bool rtt_begin(struct rtt_xr *xr);

/* One xrWaitFrame/xrBeginFrame/xrEndFrame with no layers. */
bool rtt_frame(struct rtt_xr *xr, XrFrameState *state);

/* Exits the session the normal way (requesting it if the runtime did not) and destroys all. */
bool rtt_finish(struct rtt_xr *xr);

/* Checks that the delivered states are the runtime's full life cycle. */
bool rtt_check_life_cycle(const struct rtt_xr *xr);

#endif /* RTT_COMMON_H */
