/*
 * The GL state an application can see, compared across xrEndFrame; see
 * app_gl_state.h.
 */
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include "app_gl_state.h"

#include "app_check.h"

#include <stddef.h>
#include <stdio.h>

/* One piece of state read with glGetIntegerv (count values). */
struct item {
	GLenum pname;
	const char *name;
	int count;
};

#define ITEM(pname, count) {pname, #pname, count}

/* What layers might touch: bindings, the active unit, the viewport, capabilities. */
static const struct item items[] = {
	ITEM(GL_ARRAY_BUFFER_BINDING, 1),        ITEM(GL_ELEMENT_ARRAY_BUFFER_BINDING, 1),
	ITEM(GL_PIXEL_PACK_BUFFER_BINDING, 1),   ITEM(GL_PIXEL_UNPACK_BUFFER_BINDING, 1),
	ITEM(GL_COPY_READ_BUFFER_BINDING, 1),    ITEM(GL_COPY_WRITE_BUFFER_BINDING, 1),
	ITEM(GL_UNIFORM_BUFFER_BINDING, 1),      ITEM(GL_DRAW_FRAMEBUFFER_BINDING, 1),
	ITEM(GL_READ_FRAMEBUFFER_BINDING, 1),    ITEM(GL_RENDERBUFFER_BINDING, 1),
	ITEM(GL_CURRENT_PROGRAM, 1),             ITEM(GL_VERTEX_ARRAY_BINDING, 1),
	ITEM(GL_ACTIVE_TEXTURE, 1),              ITEM(GL_TEXTURE_BINDING_2D, 1),
	ITEM(GL_TEXTURE_BINDING_2D_ARRAY, 1),    ITEM(GL_VIEWPORT, 4),
	ITEM(GL_COLOR_WRITEMASK, 4),             ITEM(GL_SCISSOR_TEST, 1),
	ITEM(GL_CULL_FACE, 1),                   ITEM(GL_DEPTH_TEST, 1),
	ITEM(GL_BLEND, 1),                       ITEM(GL_RASTERIZER_DISCARD, 1),
	ITEM(GL_QUERY_BUFFER_BINDING, 1), /* last: only with GL 4.4 */
};
#define ITEM_COUNT (sizeof(items) / sizeof(items[0]))

/* Query targets that can be active (a timestamp never is): GL 3.3 core. */
static const struct item queries[] = {
	ITEM(GL_SAMPLES_PASSED, 1),          ITEM(GL_ANY_SAMPLES_PASSED, 1),
	ITEM(GL_TIME_ELAPSED, 1),            ITEM(GL_PRIMITIVES_GENERATED, 1),
	ITEM(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1),
};
#define QUERY_COUNT (sizeof(queries) / sizeof(queries[0]))

static PFNGLGENBUFFERSPROC gen_buffers;
static PFNGLDELETEBUFFERSPROC delete_buffers;
static PFNGLBINDBUFFERPROC bind_buffer;
static PFNGLGENVERTEXARRAYSPROC gen_vertex_arrays;
static PFNGLDELETEVERTEXARRAYSPROC delete_vertex_arrays;
static PFNGLBINDVERTEXARRAYPROC bind_vertex_array;
static PFNGLACTIVETEXTUREPROC active_texture;
static PFNGLGETQUERYIVPROC get_queryiv;

static bool resolve(void)
{
	gen_buffers = (PFNGLGENBUFFERSPROC)eglGetProcAddress("glGenBuffers");
	delete_buffers = (PFNGLDELETEBUFFERSPROC)eglGetProcAddress("glDeleteBuffers");
	bind_buffer = (PFNGLBINDBUFFERPROC)eglGetProcAddress("glBindBuffer");
	gen_vertex_arrays = (PFNGLGENVERTEXARRAYSPROC)eglGetProcAddress("glGenVertexArrays");
	delete_vertex_arrays = (PFNGLDELETEVERTEXARRAYSPROC)eglGetProcAddress("glDeleteVertexArrays");
	bind_vertex_array = (PFNGLBINDVERTEXARRAYPROC)eglGetProcAddress("glBindVertexArray");
	active_texture = (PFNGLACTIVETEXTUREPROC)eglGetProcAddress("glActiveTexture");
	get_queryiv = (PFNGLGETQUERYIVPROC)eglGetProcAddress("glGetQueryiv");
	return gen_buffers && delete_buffers && bind_buffer && gen_vertex_arrays &&
	       delete_vertex_arrays && bind_vertex_array && active_texture && get_queryiv;
}

static size_t item_count(const struct app_gl_check *c)
{
	return c->query_buffer ? ITEM_COUNT : ITEM_COUNT - 1;
}

static bool no_error(const char *when)
{
	GLenum err = glGetError();
	if (err == GL_NO_ERROR)
		return true;
	app_error("GL error 0x%x %s", err, when);
	return false;
}

bool app_gl_check_create(struct app_gl_check *c)
{
	GLint major = 0, minor = 0;
	struct app_gl_state s;

	*c = (struct app_gl_check){0};
	size_t values = 0;
	for (size_t i = 0; i < ITEM_COUNT; i++)
		values += (size_t)items[i].count;
	if (values > APP_GL_STATE_MAX) {
		app_error("GL state check: %zu values, room for %d", values, APP_GL_STATE_MAX);
		return false;
	}
	if (!resolve()) {
		app_error("GL state check: an entry point is missing");
		return false;
	}
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	c->query_buffer = major > 4 || (major == 4 && minor >= 4);
	gen_buffers(3, c->buffers);
	gen_vertex_arrays(1, &c->vao);
	if (c->query_buffer)
		bind_buffer(GL_QUERY_BUFFER, c->buffers[0]);
	bind_buffer(GL_ARRAY_BUFFER, c->buffers[1]);
	bind_buffer(GL_PIXEL_PACK_BUFFER, c->buffers[2]);
	bind_vertex_array(c->vao);
	active_texture(GL_TEXTURE3);
	app_gl_check_save(c, &s);
	return no_error("binding the app's objects or reading the GL state");
}

void app_gl_check_destroy(struct app_gl_check *c)
{
	if (!c->vao)
		return;
	active_texture(GL_TEXTURE0);
	bind_vertex_array(0);
	delete_vertex_arrays(1, &c->vao);
	delete_buffers(3, c->buffers); /* unbinds them */
	printf("gl_state frames=%llu changed=%llu query_buffer=%s\n", (unsigned long long)c->frames,
	       (unsigned long long)c->changed, c->query_buffer ? "bound" : "none");
	*c = (struct app_gl_check){0};
}

void app_gl_check_save(const struct app_gl_check *c, struct app_gl_state *s)
{
	size_t n = 0;
	for (size_t i = 0; i < item_count(c); i++) {
		glGetIntegerv(items[i].pname, &s->v[n]);
		n += (size_t)items[i].count;
	}
}

bool app_gl_check_same(struct app_gl_check *c, const struct app_gl_state *before)
{
	struct app_gl_state after;
	bool same = no_error("after xrEndFrame");
	size_t n = 0;

	app_gl_check_save(c, &after);
	for (size_t i = 0; i < item_count(c); i++) {
		for (int k = 0; k < items[i].count; k++, n++) {
			if (after.v[n] == before->v[n])
				continue;
			app_error("xrEndFrame changed %s[%d]: %d before, %d after", items[i].name, k,
			          before->v[n], after.v[n]);
			same = false;
		}
	}
	for (size_t i = 0; i < QUERY_COUNT; i++) {
		GLint active = 0;
		get_queryiv(queries[i].pname, GL_CURRENT_QUERY, &active);
		if (active) {
			app_error("a %s query (%d) is active after xrEndFrame", queries[i].name, active);
			same = false;
		}
	}
	c->frames++;
	c->changed += !same;
	return same;
}
