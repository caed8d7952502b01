/*
 * The XrSession hooks' OpenGL half: where each side sets up, and tears
 * down, the GL timestamps (xl_gl.h) of a session with an OpenGL binding.
 */
#ifndef XL_GL_SESSION_H
#define XL_GL_SESSION_H

#include "xl_gl.h"

struct xl_instance;

/*
 * xrCreateSession succeeded with an OpenGL @p binding: sets up the GL
 * timestamps of side instance @p in for @p session, or logs why not.
 */
void xl_gl_session_start(struct xl_instance *in, XrSession session,
                         const XrBaseInStructure *binding);

/*
 * xrDestroySession, before forwarding: if @p session has GL timestamps,
 * reads back the last ones, deletes the queries, lets the writer drain and
 * frees them. Only for the session the holder measures
 * (xl_gpu_holder_measures()), whose claim the caller gives back after.
 */
void xl_gl_session_end(struct xl_instance *in, XrSession session);

/* xrDestroyInstance with a session still alive: @p in lets go of its GL state. */
void xl_gl_session_abandon(struct xl_instance *in);

#endif /* XL_GL_SESSION_H */
