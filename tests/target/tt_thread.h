/*
 * The synthetic target's own worker thread (XRTEST_TARGET_THREAD_CALLS):
 * from the session's creation to its destruction it calls the runtime at
 * a fixed rate, as a layer doing its own tracking or telemetry would.
 * Started and joined by the session hooks (tt_session.c).
 */
#ifndef TT_THREAD_H
#define TT_THREAD_H

#include "tt_calls.h"

struct tt_thread;

/*
 * Starts a thread that makes the calls @p calls asks for through @p ctx
 * @p hz times a second (on a fixed grid: late ticks are skipped, never
 * bunched). False (logged) if the thread cannot be made.
 */
bool tt_thread_start(const struct tt_calls *calls, uint64_t hz, const struct tt_call_ctx *ctx,
                     struct tt_thread **out);

/* Stops and joins the thread, logs what it did and frees it; *@p t becomes NULL. */
void tt_thread_stop(struct tt_thread **t);

#endif /* TT_THREAD_H */
