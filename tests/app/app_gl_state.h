/*
 * The GL state an application can see, compared across xrEndFrame (the test
 * app's --graphics egl). Every layer in between, the monitor's GL timestamps
 * among them, must leave each binding as the application left it, no query
 * active, and no GL error raised (README, GPU cost, "OpenGL").
 *
 * For the whole session the app keeps buffers of its own bound to
 * GL_QUERY_BUFFER (which would receive query results in place of a
 * layer's variables), GL_ARRAY_BUFFER and GL_PIXEL_PACK_BUFFER, a vertex
 * array of its own bound and texture unit 3 active, so that a layer that
 * reads its queries without stepping around that binding, or resets
 * anything to 0, is caught.
 */
#ifndef APP_GL_STATE_H
#define APP_GL_STATE_H

#include <GL/gl.h>

#include <stdbool.h>
#include <stdint.h>

#define APP_GL_STATE_MAX 48

/* One snapshot: every value checked, in the order of the table in app_gl_state.c. */
struct app_gl_state {
	GLint v[APP_GL_STATE_MAX];
};

struct app_gl_check {
	bool query_buffer;  /* GL 4.4: GL_QUERY_BUFFER exists and is checked */
	GLuint buffers[3];  /* bound to GL_QUERY_BUFFER, GL_ARRAY_BUFFER, GL_PIXEL_PACK_BUFFER */
	GLuint vao;
	uint64_t frames;    /* xrEndFrame calls checked */
	uint64_t changed;   /* ... after which the state was not as before */
};

/*
 * With the app's context current: binds the app's own objects (above) and
 * checks that the state can be read without a GL error. False (printed) on
 * failure; @p c is then safe for app_gl_check_destroy().
 */
bool app_gl_check_create(struct app_gl_check *c);

/* Unbinds and deletes the app's objects; context current. */
void app_gl_check_destroy(struct app_gl_check *c);

/* The state before xrEndFrame. */
void app_gl_check_save(const struct app_gl_check *c, struct app_gl_state *s);

/*
 * After xrEndFrame, the same context current again: false (each difference
 * printed with the name of what changed) if the state differs from
 * @p before, a query is active or a GL error is pending.
 */
bool app_gl_check_same(struct app_gl_check *c, const struct app_gl_state *before);

#endif /* APP_GL_STATE_H */
