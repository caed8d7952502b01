/*
 * The XrSession hooks' OpenGL half: where each side sets up, and tears
 * down, the GL timestamps (xl_gl.h) of a session with an OpenGL binding.
 */
#ifndef XL_GL_SESSION_H
#define XL_GL_SESSION_H

#include "xl_gl.h"

/*
 * xrCreateSession succeeded with an OpenGL @p binding: sets up the side's
 * GL timestamps for @p session, or logs why not.
 */
void xl_gl_session_start(XrSession session, const XrBaseInStructure *binding);

/*
 * xrDestroySession, before forwarding: if @p session has GL timestamps,
 * reads back the last ones, deletes the queries, lets the writer drain and
 * frees them.
 */
void xl_gl_session_end(XrSession session);

/* xrDestroyInstance with a session still alive: lets go of its GL state. */
void xl_gl_session_abandon(void);

#endif /* XL_GL_SESSION_H */
