/*
 * XRTEST_TARGET_TOGGLE_FRAME: a recording stop that lands inside the
 * target, between the monitor's two sides of one xrEndFrame.
 *
 * A toggle signal only asks for a stop: the monitor's pre side performs it
 * at the top of the next xrEndFrame any thread makes, and post, below the
 * target, reads whether recording is on. On one frame thread both sides
 * therefore stop on the same frame, whenever the signal comes; a stop
 * falls between them only when another thread ends a frame meanwhile (two
 * threads ending frames at a stop). The target plays both parts.
 */
#ifndef TT_TOGGLE_H
#define TT_TOGGLE_H

#include <openxr/openxr.h>

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether the calling thread is the second frame thread of
 * tt_toggle_frame(): the target answers its xrEndFrame itself, so that
 * nothing below the target sees that call.
 */
bool tt_toggle_own_call(void);

/*
 * In the application's xrEndFrame (@p session, @p info), just before the
 * target forwards it; @p at is XRTEST_TARGET_TOGGLE_FRAME. At the @p at-th
 * call (counted from 1, per process): raises SIGUSR2 (the monitor's
 * default toggle signal) on this thread, so that its handler has run when
 * raise() returns, then ends the same frame from a second thread through
 * the loader's xrEndFrame (the top of the chain, where pre performs the
 * stop) and joins it. Logs one line.
 */
void tt_toggle_frame(uint64_t at, XrSession session, const XrFrameEndInfo *info);

#endif /* TT_TOGGLE_H */
