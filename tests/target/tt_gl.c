/*
 * The synthetic target's OpenGL work; see tt_gl.h.
 */
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#define XR_USE_PLATFORM_XLIB
#define XR_USE_PLATFORM_EGL
#define XR_USE_GRAPHICS_API_OPENGL
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include "tt_gl.h"

#include "tt_log.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TT_GL_SIZE 64     /* the target's render target, pixels per side */
#define TT_GL_LOOPS 2     /* the fragment shader's loop: cost per pixel */
#define TT_GL_FRAMES 32   /* frames whose timestamps may be in flight */

/* The GL entry points the work uses; each is named by its field with a "gl" prefix. */
#define TT_GL_FNS(_)                                                                     \
	_(GetIntegerv, void, (GLenum, GLint *))                                              \
	_(GetBooleanv, void, (GLenum, GLboolean *))                                          \
	_(IsEnabled, GLboolean, (GLenum))                                                    \
	_(Enable, void, (GLenum))                                                            \
	_(Disable, void, (GLenum))                                                           \
	_(ColorMask, void, (GLboolean, GLboolean, GLboolean, GLboolean))                     \
	_(Viewport, void, (GLint, GLint, GLsizei, GLsizei))                                  \
	_(CreateShader, GLuint, (GLenum))                                                    \
	_(ShaderSource, void, (GLuint, GLsizei, const GLchar *const *, const GLint *))        \
	_(CompileShader, void, (GLuint))                                                     \
	_(GetShaderiv, void, (GLuint, GLenum, GLint *))                                      \
	_(CreateProgram, GLuint, (void))                                                     \
	_(AttachShader, void, (GLuint, GLuint))                                              \
	_(LinkProgram, void, (GLuint))                                                       \
	_(GetProgramiv, void, (GLuint, GLenum, GLint *))                                     \
	_(DeleteShader, void, (GLuint))                                                      \
	_(DeleteProgram, void, (GLuint))                                                     \
	_(UseProgram, void, (GLuint))                                                        \
	_(GetUniformLocation, GLint, (GLuint, const GLchar *))                               \
	_(ProgramUniform1i, void, (GLuint, GLint, GLint))                                    \
	_(GenVertexArrays, void, (GLsizei, GLuint *))                                        \
	_(BindVertexArray, void, (GLuint))                                                   \
	_(DeleteVertexArrays, void, (GLsizei, const GLuint *))                               \
	_(GenFramebuffers, void, (GLsizei, GLuint *))                                        \
	_(BindFramebuffer, void, (GLenum, GLuint))                                           \
	_(FramebufferTexture2D, void, (GLenum, GLenum, GLenum, GLuint, GLint))               \
	_(CheckFramebufferStatus, GLenum, (GLenum))                                          \
	_(DeleteFramebuffers, void, (GLsizei, const GLuint *))                               \
	_(GenTextures, void, (GLsizei, GLuint *))                                            \
	_(BindTexture, void, (GLenum, GLuint))                                               \
	_(TexStorage2D, void, (GLenum, GLsizei, GLenum, GLsizei, GLsizei))                   \
	_(DeleteTextures, void, (GLsizei, const GLuint *))                                   \
	_(DrawArrays, void, (GLenum, GLint, GLsizei))                                        \
	_(BindBuffer, void, (GLenum, GLuint))                                                \
	_(GenQueries, void, (GLsizei, GLuint *))                                             \
	_(DeleteQueries, void, (GLsizei, const GLuint *))                                    \
	_(QueryCounter, void, (GLuint, GLenum))                                              \
	_(GetQueryObjectiv, void, (GLuint, GLenum, GLint *))                                 \
	_(GetQueryObjectui64v, void, (GLuint, GLenum, GLuint64 *))                           \
	_(Flush, void, (void))

struct tt_gl_fns {
	void *(*GetCurrentContext)(void); /* glXGetCurrentContext or eglGetCurrentContext */
#define TT_GL_FIELD(name, ret, args) ret(*name) args;
	TT_GL_FNS(TT_GL_FIELD)
#undef TT_GL_FIELD
};

struct tt_gl_frame {
	GLuint query[2]; /* before and after the draws */
	int64_t display_time;
};

struct tt_gl {
	struct tt_gl_fns fn;
	void *context; /* GLXContext or EGLContext */
	uint64_t draws;
	const char *log_path;
	bool ready;
	bool query_buffer; /* GL 4.4: a buffer bound to GL_QUERY_BUFFER is stepped around */
	GLuint program, vao, fbo, texture;
	struct tt_gl_frame frames[TT_GL_FRAMES];
	uint32_t head, tail;
	uint64_t skipped; /* frames without their timestamps (not current, ring full) */
	struct tt_samples samples;
};

/* What the draws change, saved before and restored after them. */
struct tt_gl_state {
	GLint framebuffer, program, vao, viewport[4];
	GLboolean scissor, cull, discard, mask[4];
};

static const char *const vertex_src =
	"#version 330 core\n"
	"void main() {\n"
	"	vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
	"	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
	"}\n";

/* The discard that never happens keeps llvmpipe from dropping covered draws as overdraw. */
static const char *const fragment_src =
	"#version 330 core\n"
	"uniform int loops;\n"
	"out vec4 color;\n"
	"void main() {\n"
	"	vec2 p = gl_FragCoord.xy * 0.001;\n"
	"	float v = p.x + p.y;\n"
	"	for (int i = 0; i < loops; i++)\n"
	"		v = fract(sin(v * 12.9898 + float(i)) * 43758.5453);\n"
	"	if (v < -1.0)\n"
	"		discard;\n"
	"	color = vec4(v, p, 1.0);\n"
	"}\n";

typedef void (*gl_void_fn)(void);
typedef gl_void_fn (*gl_getproc_fn)(const GLubyte *name);

/*
 * Through the app's GLX library, or an EGL binding's own getProcAddress
 * (@p egl_getproc); the current-context query falls back to the process's
 * exports, where eglGetProcAddress does not hand out core EGL functions.
 */
static bool resolve(struct tt_gl_fns *fn, gl_getproc_fn egl_getproc)
{
	gl_getproc_fn getproc =
		egl_getproc ? egl_getproc : (gl_getproc_fn)dlsym(RTLD_DEFAULT, "glXGetProcAddressARB");
	if (!getproc) {
		tt_log("GL work: glXGetProcAddressARB is not loaded in this process");
		return false;
	}
	const char *current = egl_getproc ? "eglGetCurrentContext" : "glXGetCurrentContext";
	gl_void_fn f = getproc((const GLubyte *)current);
	if (!f)
		memcpy(&f, &(void *){dlsym(RTLD_DEFAULT, current)}, sizeof(f));
	memcpy(&fn->GetCurrentContext, &f, sizeof(f));
	bool ok = f != NULL;
#define TT_GL_RESOLVE(name, ret, args)                            \
	f = getproc((const GLubyte *)"gl" #name);                     \
	memcpy(&fn->name, &f, sizeof(f));                             \
	if (!f) {                                                     \
		tt_log("GL work: gl" #name " is missing");                \
		ok = false;                                               \
	}
	TT_GL_FNS(TT_GL_RESOLVE)
#undef TT_GL_RESOLVE
	return ok;
}

bool tt_gl_create(const void *binding, uint64_t draws, const char *log_path, struct tt_gl **out)
{
	const XrGraphicsBindingEGLMNDX *egl =
		((const XrBaseInStructure *)binding)->type == XR_TYPE_GRAPHICS_BINDING_EGL_MNDX
			? binding
			: NULL;
	const XrGraphicsBindingOpenGLXlibKHR *glx = egl ? NULL : binding;
	struct tt_gl *gl = calloc(1, sizeof(*gl));
	if (!gl || !resolve(&gl->fn, egl ? (gl_getproc_fn)egl->getProcAddress : NULL)) {
		free(gl);
		return false;
	}
	gl->context = egl ? egl->context : glx->glxContext;
	gl->draws = draws;
	gl->log_path = log_path;
	tt_log("session on OpenGL (%s context %p): %llu draws per frame", egl ? "EGL" : "GLX",
	       gl->context,
	       (unsigned long long)draws);
	*out = gl;
	return true;
}

static GLuint compile(const struct tt_gl_fns *fn, GLenum type, const char *src)
{
	GLuint s = fn->CreateShader(type);
	GLint ok = 0;
	fn->ShaderSource(s, 1, &src, NULL);
	fn->CompileShader(s);
	fn->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		fn->DeleteShader(s);
		return 0;
	}
	return s;
}

static bool create_program(struct tt_gl *gl)
{
	const struct tt_gl_fns *fn = &gl->fn;
	GLuint vs = compile(fn, GL_VERTEX_SHADER, vertex_src);
	GLuint fs = compile(fn, GL_FRAGMENT_SHADER, fragment_src);
	GLint ok = 0;
	if (vs && fs) {
		gl->program = fn->CreateProgram();
		fn->AttachShader(gl->program, vs);
		fn->AttachShader(gl->program, fs);
		fn->LinkProgram(gl->program);
		fn->GetProgramiv(gl->program, GL_LINK_STATUS, &ok);
	}
	if (vs)
		fn->DeleteShader(vs);
	if (fs)
		fn->DeleteShader(fs);
	if (!ok)
		return false;
	fn->ProgramUniform1i(gl->program, fn->GetUniformLocation(gl->program, "loops"), TT_GL_LOOPS);
	return true;
}

/* The render target: a texture behind a framebuffer; bindings restored. */
static bool create_target(struct tt_gl *gl)
{
	const struct tt_gl_fns *fn = &gl->fn;
	GLint texture = 0, framebuffer = 0;
	fn->GetIntegerv(GL_TEXTURE_BINDING_2D, &texture);
	fn->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
	fn->GenTextures(1, &gl->texture);
	fn->BindTexture(GL_TEXTURE_2D, gl->texture);
	fn->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, TT_GL_SIZE, TT_GL_SIZE);
	fn->GenFramebuffers(1, &gl->fbo);
	fn->BindFramebuffer(GL_DRAW_FRAMEBUFFER, gl->fbo);
	fn->FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
	                         gl->texture, 0);
	bool complete = fn->CheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	fn->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)framebuffer);
	fn->BindTexture(GL_TEXTURE_2D, (GLuint)texture);
	return complete;
}

/* Whether thread name @p comm is Mesa's glthread worker: "<process>:gl<n>" (util_queue's). */
static bool is_gl_thread(const char *comm)
{
	const char *p = strstr(comm, ":gl");
	if (!p || !p[3])
		return false;
	for (p += 3; *p && *p != '\n'; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * Logs whether Mesa's glthread runs in this process (its worker thread
 * exists): the tests of a glthread application need to know that the GL
 * calls really are queued. Only names are read: no GL call.
 */
static void log_gl_thread(void)
{
	char found[32] = "";
	DIR *dir = opendir("/proc/self/task");
	for (struct dirent *e; dir && !found[0] && (e = readdir(dir));) {
		char path[300], comm[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
		if (f && fgets(comm, sizeof(comm), f) && is_gl_thread(comm))
			snprintf(found, sizeof(found), "%.*s", (int)strcspn(comm, "\n"), comm);
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	tt_log("GL thread: %s", found[0] ? found : "none (no glthread)");
}

/* First frame, context current: every GL object of the work. */
static bool setup(struct tt_gl *gl)
{
	const struct tt_gl_fns *fn = &gl->fn;
	if (!create_program(gl) || !create_target(gl)) {
		tt_log("GL work: creating the shader program or the render target failed");
		return false;
	}
	GLint major = 0, minor = 0;
	fn->GetIntegerv(GL_MAJOR_VERSION, &major);
	fn->GetIntegerv(GL_MINOR_VERSION, &minor);
	gl->query_buffer = major > 4 || (major == 4 && minor >= 4);
	fn->GenVertexArrays(1, &gl->vao);
	for (uint32_t i = 0; i < TT_GL_FRAMES; i++)
		fn->GenQueries(2, gl->frames[i].query);
	log_gl_thread();
	gl->ready = true;
	return true;
}

/* collect()'s loop, with no buffer bound to GL_QUERY_BUFFER. */
static void read_back(struct tt_gl *gl, bool wait)
{
	const struct tt_gl_fns *fn = &gl->fn;
	while (gl->tail != gl->head) {
		struct tt_gl_frame *f = &gl->frames[gl->tail % TT_GL_FRAMES];
		GLint available = 0;
		fn->GetQueryObjectiv(f->query[1], GL_QUERY_RESULT_AVAILABLE, &available);
		if (!available && !wait)
			return;
		GLuint64 t[2] = {0, 0};
		fn->GetQueryObjectui64v(f->query[0], GL_QUERY_RESULT, &t[0]);
		fn->GetQueryObjectui64v(f->query[1], GL_QUERY_RESULT, &t[1]);
		tt_samples_add(&gl->samples, (uint64_t)f->display_time, t[1] - t[0]);
		gl->tail++;
	}
}

/* Reads back finished frames, oldest first; waits for them when @p wait. */
static void collect(struct tt_gl *gl, bool wait)
{
	const struct tt_gl_fns *fn = &gl->fn;
	GLint bound = 0;
	/* A buffer the app bound there would receive the results instead of t[]. */
	if (gl->query_buffer) {
		fn->GetIntegerv(GL_QUERY_BUFFER_BINDING, &bound);
		if (bound)
			fn->BindBuffer(GL_QUERY_BUFFER, 0);
	}
	read_back(gl, wait);
	if (bound)
		fn->BindBuffer(GL_QUERY_BUFFER, (GLuint)bound);
}

static void save_state(const struct tt_gl_fns *fn, struct tt_gl_state *s)
{
	fn->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->framebuffer);
	fn->GetIntegerv(GL_CURRENT_PROGRAM, &s->program);
	fn->GetIntegerv(GL_VERTEX_ARRAY_BINDING, &s->vao);
	fn->GetIntegerv(GL_VIEWPORT, s->viewport);
	fn->GetBooleanv(GL_COLOR_WRITEMASK, s->mask);
	s->scissor = fn->IsEnabled(GL_SCISSOR_TEST);
	s->cull = fn->IsEnabled(GL_CULL_FACE);
	s->discard = fn->IsEnabled(GL_RASTERIZER_DISCARD);
}

static void set_cap(const struct tt_gl_fns *fn, GLenum cap, GLboolean on)
{
	if (on)
		fn->Enable(cap);
	else
		fn->Disable(cap);
}

static void restore_state(const struct tt_gl_fns *fn, const struct tt_gl_state *s)
{
	fn->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)s->framebuffer);
	fn->UseProgram((GLuint)s->program);
	fn->BindVertexArray((GLuint)s->vao);
	fn->Viewport(s->viewport[0], s->viewport[1], s->viewport[2], s->viewport[3]);
	fn->ColorMask(s->mask[0], s->mask[1], s->mask[2], s->mask[3]);
	set_cap(fn, GL_SCISSOR_TEST, s->scissor);
	set_cap(fn, GL_CULL_FACE, s->cull);
	set_cap(fn, GL_RASTERIZER_DISCARD, s->discard);
}

/* The draws between the frame's timestamp pair (@p f NULL: no timestamps). */
static void draw(struct tt_gl *gl, const struct tt_gl_frame *f)
{
	const struct tt_gl_fns *fn = &gl->fn;
	struct tt_gl_state saved;
	save_state(fn, &saved);
	fn->BindFramebuffer(GL_DRAW_FRAMEBUFFER, gl->fbo);
	fn->UseProgram(gl->program);
	fn->BindVertexArray(gl->vao);
	fn->Viewport(0, 0, TT_GL_SIZE, TT_GL_SIZE);
	fn->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	set_cap(fn, GL_SCISSOR_TEST, GL_FALSE);
	set_cap(fn, GL_CULL_FACE, GL_FALSE);
	set_cap(fn, GL_RASTERIZER_DISCARD, GL_FALSE);
	if (f)
		fn->QueryCounter(f->query[0], GL_TIMESTAMP);
	for (uint64_t i = 0; i < gl->draws; i++)
		fn->DrawArrays(GL_TRIANGLES, 0, 3);
	if (f)
		fn->QueryCounter(f->query[1], GL_TIMESTAMP);
	/* Submitted now, as a layer that renders would: else the driver may keep
	 * it until the app's next frame, and both timestamps would count the wait. */
	fn->Flush();
	restore_state(fn, &saved);
}

bool tt_gl_frame(struct tt_gl *gl, int64_t display_time)
{
	if (gl->fn.GetCurrentContext() != gl->context) {
		gl->skipped++;
		return true; /* not ours to fix: the monitor counts it too */
	}
	if (!gl->ready && !setup(gl))
		return false;
	collect(gl, false);
	struct tt_gl_frame *f = NULL;
	if (gl->head - gl->tail < TT_GL_FRAMES) {
		f = &gl->frames[gl->head++ % TT_GL_FRAMES];
		f->display_time = display_time;
	} else {
		gl->skipped++;
	}
	draw(gl, f);
	return true;
}

static void delete_objects(struct tt_gl *gl)
{
	const struct tt_gl_fns *fn = &gl->fn;
	for (uint32_t i = 0; i < TT_GL_FRAMES; i++)
		fn->DeleteQueries(2, gl->frames[i].query);
	fn->DeleteVertexArrays(1, &gl->vao);
	fn->DeleteFramebuffers(1, &gl->fbo);
	fn->DeleteTextures(1, &gl->texture);
	fn->DeleteProgram(gl->program);
}

void tt_gl_destroy(struct tt_gl **gl_ptr)
{
	struct tt_gl *gl = *gl_ptr;
	if (!gl)
		return;
	*gl_ptr = NULL;
	if (gl->ready && gl->fn.GetCurrentContext() == gl->context) {
		collect(gl, true);
		delete_objects(gl);
	} else if (gl->ready) {
		tt_log("GL work: xrDestroySession without the context current: %u frames' "
		       "timestamps lost, objects left to the context", gl->head - gl->tail);
	}
	tt_log("GL work: session end, %llu frames without timestamps",
	       (unsigned long long)gl->skipped);
	tt_samples_log_summary(&gl->samples, 0);
	if (gl->log_path)
		tt_samples_write_csv(&gl->samples, gl->log_path);
	tt_samples_free(&gl->samples);
	free(gl);
}
