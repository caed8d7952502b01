/*
 * A headless OpenXR session made through the real loader, and one frame
 * (xrWaitFrame, xrBeginFrame, xrEndFrame) of it: what every benchmark
 * drives. Which layers sit in the chain is decided by the environment
 * (XR_ENABLE_API_LAYERS, XR_API_LAYER_PATH, XR_RUNTIME_JSON), so each
 * configuration is a separate process.
 */
#ifndef BX_SESSION_H
#define BX_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <openxr/openxr.h>

struct bx_session {
	XrInstance instance;
	XrSystemId system;
	XrSession session;
	bool running;
	bool stopping; /* the runtime said STOPPING: xrEndSession is due */
};

/* Creates instance, system and headless session, and begins the session. */
bool bx_session_create(struct bx_session *s);

/* Ends and destroys everything (the layers finish their files here). */
void bx_session_destroy(struct bx_session *s);

/* Drains the event queue (outside any timed region). */
bool bx_session_poll(struct bx_session *s);

/*
 * One frame. With @p end_ns, xrEndFrame alone is bracketed by two clock
 * reads and its duration stored there.
 */
bool bx_session_frame(struct bx_session *s, uint64_t *end_ns);

#endif /* BX_SESSION_H */
