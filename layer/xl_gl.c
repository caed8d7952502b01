/*
 * GPU timestamps in an OpenGL session's command stream; see xl_gl.h.
 */
/* GL, Xlib and EGL types first: xl_gl.h's openxr_platform.h then has both GL
 * bindings. Only types: the layers link neither libGL nor libEGL. */
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#define XR_USE_PLATFORM_XLIB
#define XR_USE_PLATFORM_EGL
#define XR_USE_GRAPHICS_API_OPENGL

#include "xl_gl.h"

#include "xl_clock.h"
#include "xl_log.h"
#include "u_ticks.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * The entry points used, all resolved through the binding's window system's
 * proc-address function; GetCurrentContext is glXGetCurrentContext or
 * eglGetCurrentContext (both return the context as a pointer).
 */
struct xl_gl_fns {
	void *(*GetCurrentContext)(void);
	const GLubyte *(*GetString)(GLenum name);
	const GLubyte *(*GetStringi)(GLenum name, GLuint index);
	void (*GetIntegerv)(GLenum pname, GLint *data);
	void (*GetInteger64v)(GLenum pname, GLint64 *data);
	void (*GenQueries)(GLsizei n, GLuint *ids);
	void (*DeleteQueries)(GLsizei n, const GLuint *ids);
	void (*QueryCounter)(GLuint id, GLenum target);
	void (*GetQueryiv)(GLenum target, GLenum pname, GLint *params);
	void (*GetQueryObjectiv)(GLuint id, GLenum pname, GLint *params);
	void (*GetQueryObjectui64v)(GLuint id, GLenum pname, GLuint64 *params);
	void (*BindBuffer)(GLenum target, GLuint buffer);
	void (*Flush)(void);
	/* Optional: the mapped query buffer's (see setup_buffer). */
	void (*CreateBuffers)(GLsizei n, GLuint *buffers);
	void (*NamedBufferStorage)(GLuint buffer, GLsizeiptr size, const void *data,
	                           GLbitfield flags);
	void *(*MapNamedBufferRange)(GLuint buffer, GLintptr offset, GLsizeiptr length,
	                             GLbitfield access);
	GLboolean (*UnmapNamedBuffer)(GLuint buffer);
	void (*DeleteBuffers)(GLsizei n, const GLuint *buffers);
	void (*GetQueryBufferObjectui64v)(GLuint id, GLuint buffer, GLenum pname, GLintptr offset);
	bool has_buffer_fns; /* every optional one resolved */
};

/* An optional entry point missing means the glGetQueryObject readback, not "unsupported". */
enum fn_need { REQUIRED, OPTIONAL };

static const struct {
	const char *name;
	size_t offset;
	enum fn_need need;
} fn_table[] = {
	{"glGetString", offsetof(struct xl_gl_fns, GetString), REQUIRED},
	{"glGetStringi", offsetof(struct xl_gl_fns, GetStringi), REQUIRED},
	{"glGetIntegerv", offsetof(struct xl_gl_fns, GetIntegerv), REQUIRED},
	{"glGetInteger64v", offsetof(struct xl_gl_fns, GetInteger64v), REQUIRED},
	{"glGenQueries", offsetof(struct xl_gl_fns, GenQueries), REQUIRED},
	{"glDeleteQueries", offsetof(struct xl_gl_fns, DeleteQueries), REQUIRED},
	{"glQueryCounter", offsetof(struct xl_gl_fns, QueryCounter), REQUIRED},
	{"glGetQueryiv", offsetof(struct xl_gl_fns, GetQueryiv), REQUIRED},
	{"glGetQueryObjectiv", offsetof(struct xl_gl_fns, GetQueryObjectiv), REQUIRED},
	{"glGetQueryObjectui64v", offsetof(struct xl_gl_fns, GetQueryObjectui64v), REQUIRED},
	{"glBindBuffer", offsetof(struct xl_gl_fns, BindBuffer), REQUIRED},
	{"glFlush", offsetof(struct xl_gl_fns, Flush), REQUIRED},
	{"glCreateBuffers", offsetof(struct xl_gl_fns, CreateBuffers), OPTIONAL},
	{"glNamedBufferStorage", offsetof(struct xl_gl_fns, NamedBufferStorage), OPTIONAL},
	{"glMapNamedBufferRange", offsetof(struct xl_gl_fns, MapNamedBufferRange), OPTIONAL},
	{"glUnmapNamedBuffer", offsetof(struct xl_gl_fns, UnmapNamedBuffer), OPTIONAL},
	{"glDeleteBuffers", offsetof(struct xl_gl_fns, DeleteBuffers), OPTIONAL},
	{"glGetQueryBufferObjectui64v", offsetof(struct xl_gl_fns, GetQueryBufferObjectui64v),
	 OPTIONAL},
};

typedef void (*gl_void_fn)(void);
typedef gl_void_fn (*gl_getproc_fn)(const GLubyte *name);

/* How many clock/GL-time pairs a calibration takes, keeping the tightest. */
#define CALIBRATION_TRIES 3
#define FINISH_STEP_NS 1000000ull
/*
 * A mapped cell's value until the driver writes the result into it (a GL
 * timestamp in ns would reach it after 584 years).
 */
#define CELL_PENDING (~0ull)
/*
 * The mapped buffer: a result cell per query, then a mark cell per query,
 * which each request's second half (the query's availability, 0 or 1,
 * always written) fills once the request has run on the GPU.
 */
#define MARK(slot) (XL_GL_QUERIES + (slot))
#define CELLS (2 * XL_GL_QUERIES)

const XrBaseInStructure *xl_gl_find_binding(const XrSessionCreateInfo *info)
{
	for (const XrBaseInStructure *p = info ? info->next : NULL; p; p = p->next)
		if (p->type == XR_TYPE_GRAPHICS_BINDING_OPENGL_XLIB_KHR ||
		    p->type == XR_TYPE_GRAPHICS_BINDING_EGL_MNDX)
			return p;
	return NULL;
}

/* What differs between a GLX and an EGL binding: the context and how to find entry points. */
struct window_system {
	const char *name;         /* "GLX" or "EGL", for the logs */
	void *context;
	gl_getproc_fn getproc;    /* NULL: look up getproc_name in the process */
	const char *getproc_name;
	const char *current_name; /* the current-context query */
};

static struct window_system window_system(const XrBaseInStructure *binding)
{
	if (binding->type == XR_TYPE_GRAPHICS_BINDING_EGL_MNDX) {
		const XrGraphicsBindingEGLMNDX *b = (const XrGraphicsBindingEGLMNDX *)binding;
		/* The binding brings its own eglGetProcAddress: the app's libEGL. */
		return (struct window_system){"EGL", b->context, (gl_getproc_fn)b->getProcAddress,
		                              "eglGetProcAddress", "eglGetCurrentContext"};
	}
	const XrGraphicsBindingOpenGLXlibKHR *b = (const XrGraphicsBindingOpenGLXlibKHR *)binding;
	return (struct window_system){"GLX", b->glxContext, NULL, "glXGetProcAddressARB",
	                              "glXGetCurrentContext"};
}

/* The current-context query: through @p getproc, else exported by the app's library. */
static gl_void_fn resolve_current(gl_getproc_fn getproc, const char *name)
{
	gl_void_fn fn = getproc((const GLubyte *)name);
	if (!fn)
		memcpy(&fn, &(void *){dlsym(RTLD_DEFAULT, name)}, sizeof(fn));
	return fn;
}

/* Fills @p fns from the application's GL library; false if something is missing. */
static bool resolve(const struct window_system *ws, struct xl_gl_fns *fns, char *why,
                    size_t why_size)
{
	/* The application loaded libGL/libGLX or libEGL to create its context. */
	gl_getproc_fn getproc = ws->getproc;
	if (!getproc)
		memcpy(&getproc, &(void *){dlsym(RTLD_DEFAULT, ws->getproc_name)}, sizeof(getproc));
	if (!getproc) {
		snprintf(why, why_size, "%s is not loaded in this process", ws->getproc_name);
		return false;
	}
	gl_void_fn current = resolve_current(getproc, ws->current_name);
	if (!current) {
		snprintf(why, why_size, "%s is missing", ws->current_name);
		return false;
	}
	memcpy(&fns->GetCurrentContext, &current, sizeof(current));
	fns->has_buffer_fns = true;
	for (size_t i = 0; i < sizeof(fn_table) / sizeof(fn_table[0]); i++) {
		gl_void_fn fn = getproc((const GLubyte *)fn_table[i].name);
		if (!fn && fn_table[i].need == OPTIONAL) {
			fns->has_buffer_fns = false;
			continue;
		}
		if (!fn) {
			snprintf(why, why_size, "%s is missing", fn_table[i].name);
			return false;
		}
		memcpy((char *)fns + fn_table[i].offset, &fn, sizeof(fn));
	}
	return true;
}

struct xl_gl *xl_gl_create(XrSession session, const XrBaseInStructure *binding, char *why,
                           size_t why_size)
{
	struct window_system ws = window_system(binding);
	if (!ws.context) {
		snprintf(why, why_size, "the binding has no %s context", ws.name);
		return NULL;
	}
	struct xl_gl *gl = calloc(1, sizeof(*gl));
	struct xl_gl_fns *fns = calloc(1, sizeof(*fns));
	if (!gl || !fns) {
		snprintf(why, why_size, "out of memory");
		free(gl);
		free(fns);
		return NULL;
	}
	if (!resolve(&ws, fns, why, why_size)) {
		free(gl);
		free(fns);
		return NULL;
	}
	gl->session = session;
	gl->context = ws.context;
	gl->window_system = ws.name;
	gl->fn = fns;
	return gl;
}

void xl_gl_destroy(struct xl_gl *gl)
{
	if (!gl)
		return;
	free(gl->fn);
	free(gl);
}

/* --------------------------------------------------------- frame thread */

/* Whether the current context lists @p ext (GL 3.0+ by index, else the old string). */
static bool has_extension(const struct xl_gl_fns *fn, int major, const char *ext)
{
	if (major >= 3) {
		GLint n = 0;
		fn->GetIntegerv(GL_NUM_EXTENSIONS, &n);
		for (GLint i = 0; i < n; i++) {
			const char *e = (const char *)fn->GetStringi(GL_EXTENSIONS, (GLuint)i);
			if (e && strcmp(e, ext) == 0)
				return true;
		}
		return false;
	}
	const char *all = (const char *)fn->GetString(GL_EXTENSIONS);
	size_t len = strlen(ext);
	for (const char *p = all; p && (p = strstr(p, ext)); p += len)
		if ((p == all || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

static bool unsupported(struct xl_gl *gl, const char *why)
{
	snprintf(gl->why, sizeof(gl->why), "%s", why);
	atomic_store_explicit(&gl->status, XL_GL_STATUS_UNSUPPORTED, memory_order_release);
	return false;
}

/*
 * Whether results can be written into a mapped buffer: glGetQueryBufferObject
 * and the named-buffer calls (GL 4.5, or ARB_direct_state_access) on a
 * persistent mapping (ARB_buffer_storage) of a query buffer
 * (ARB_query_buffer_object), all resolved.
 */
static bool has_buffer_readback(const struct xl_gl_fns *fn, int major, int minor)
{
	if (!fn->has_buffer_fns)
		return false;
	if (major > 4 || (major == 4 && minor >= 5))
		return true;
	return has_extension(fn, major, "GL_ARB_direct_state_access") &&
	       has_extension(fn, major, "GL_ARB_buffer_storage") &&
	       has_extension(fn, major, "GL_ARB_query_buffer_object");
}

/*
 * The query buffer: one 8-byte cell per query, persistently and coherently
 * mapped, that the driver writes results into and the CPU reads with plain
 * loads. Why not glGetQueryObject: with Mesa's glthread every GL call that
 * returns data to the caller makes the frame thread wait until the GL
 * thread has run everything the application queued (milliseconds under a
 * heavy frame), while glGetQueryBufferObjectui64v returns nothing and is
 * queued like a draw. Created directly (DSA): no binding of the app's is
 * touched. The two calls that return data (the name, the mapping) sync
 * once, here.
 */
static bool setup_buffer(struct xl_gl *gl)
{
	const struct xl_gl_fns *fn = gl->fn;
	const GLbitfield flags =
		GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
	const GLsizeiptr size = CELLS * sizeof(uint64_t);
	GLuint buffer = 0;

	fn->CreateBuffers(1, &buffer);
	if (!buffer)
		return false;
	/* Client storage: the CPU reads it every frame, the GPU writes 8 bytes. */
	fn->NamedBufferStorage(buffer, size, NULL, flags | GL_CLIENT_STORAGE_BIT);
	volatile uint64_t *cells = fn->MapNamedBufferRange(buffer, 0, size, flags);
	if (!cells) {
		fn->DeleteBuffers(1, &buffer);
		return false;
	}
	for (uint32_t i = 0; i < CELLS; i++)
		cells[i] = CELL_PENDING;
	gl->buffer = buffer;
	gl->cells = cells;
	return true;
}

/*
 * The width of GL timestamps from @p bits, GL_QUERY_COUNTER_BITS (> 0): a
 * driver may count fewer than 64 bits and mask its results to them (Mesa's
 * Intel drivers report 36: the GL time wraps every 68.7 s), as Vulkan's
 * timestampValidBits says. Beyond 64, 64.
 */
static uint8_t counter_width(GLint bits)
{
	return bits < U_TICKS_BITS_MAX ? (uint8_t)bits : U_TICKS_BITS_MAX;
}

/*
 * The first recorded frame, context current: checks for timer queries and
 * creates the query objects. GL objects can only be created with the
 * context current, which is only sure on this thread inside xrEndFrame;
 * this runs once per session.
 */
static bool setup(struct xl_gl *gl)
{
	const struct xl_gl_fns *fn = gl->fn;
	uint64_t t0 = xl_clock_mono_ns();
	int major = 0, minor = 0;
	const char *version = (const char *)fn->GetString(GL_VERSION);

	if (!version || sscanf(version, "%d.%d", &major, &minor) != 2)
		return unsupported(gl, "the context reports no GL version");
	/* No guessing from the version: a driver that has timer queries lists them. */
	if (!has_extension(fn, major, "GL_ARB_timer_query"))
		return unsupported(gl, "GL_ARB_timer_query is not supported by the context");
	GLint bits = 0;
	fn->GetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
	if (bits <= 0)
		return unsupported(gl, "the context's timestamp counter has 0 bits");
	gl->valid_bits = counter_width(bits);
	gl->query_buffer = major > 4 || (major == 4 && minor >= 4) ||
	                   has_extension(fn, major, "GL_ARB_query_buffer_object");
	GLuint names[XL_GL_QUERIES];
	fn->GenQueries(XL_GL_QUERIES, names);
	for (uint32_t i = 0; i < XL_GL_QUERIES; i++)
		gl->queries[i].name = names[i];
	gl->mapped_readback = has_buffer_readback(fn, major, minor) && setup_buffer(gl);
	gl->ready = true;
	gl->setup_ns = xl_clock_mono_ns() - t0;
	atomic_store_explicit(&gl->status, XL_GL_STATUS_READY, memory_order_release);
	return true;
}

/* Hands one entry to the writer; counts it lost if the writer fell behind. */
static void push_done(struct xl_gl *gl, const struct xl_gl_done *d)
{
	unsigned head = atomic_load_explicit(&gl->done_head, memory_order_relaxed);
	if (head - atomic_load_explicit(&gl->done_tail, memory_order_acquire) >= XL_GL_DONE) {
		atomic_fetch_add_explicit(&gl->done_overflow, 1, memory_order_relaxed);
		return;
	}
	gl->done[head % XL_GL_DONE] = *d;
	atomic_store_explicit(&gl->done_head, head + 1, memory_order_release);
}

/*
 * GL time against CLOCK_MONOTONIC: the tightest of a few bracketed reads,
 * at each recording's first frame (see xl_gl.h), its cost counted.
 */
static void calibrate(struct xl_gl *gl, uint32_t session_id)
{
	struct xl_gl_done d = {.is_calibration = true, .sample.session_id = session_id};
	uint64_t best = UINT64_MAX, t0 = xl_clock_mono_ns();

	for (int i = 0; i < CALIBRATION_TRIES; i++) {
		GLint64 gpu = 0;
		uint64_t before = xl_clock_mono_ns();
		gl->fn->GetInteger64v(GL_TIMESTAMP, &gpu);
		uint64_t after = xl_clock_mono_ns();
		if (after - before >= best)
			continue;
		best = after - before;
		d.cal = (struct xl_gpu_calibration){.gpu_ticks = (uint64_t)gpu &
		                                                 u_ticks_mask(gl->valid_bits),
		                                    .monotonic_ns = before + best / 2,
		                                    .max_deviation_ns = best / 2};
	}
	gl->calibrated_session = session_id;
	push_done(gl, &d);
	atomic_fetch_add_explicit(&gl->calibrations, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&gl->calibration_ns, xl_clock_mono_ns() - t0,
	                          memory_order_relaxed);
}

/* Hands the result @p ns of query @p q to the writer. */
static void push_sample(struct xl_gl *gl, const struct xl_gl_query *q, uint64_t ns)
{
	struct xl_gl_done d = {
		.sample = {.display_time = q->display_time, .frame_id = q->frame_id,
		           .ticks = ns & u_ticks_mask(gl->valid_bits), .period_ns = 1.0f,
		           .valid_bits = gl->valid_bits, .valid = true,
		           .session_id = q->session_id},
	};
	push_done(gl, &d);
}

/* Reads back every finished timestamp with glGetQueryObject, oldest first, without waiting. */
static void poll_objects(struct xl_gl *gl)
{
	const struct xl_gl_fns *fn = gl->fn;
	GLint bound = 0;

	/* A buffer bound there would receive the results instead of our variables. */
	if (gl->query_buffer) {
		fn->GetIntegerv(GL_QUERY_BUFFER_BINDING, &bound);
		if (bound)
			fn->BindBuffer(GL_QUERY_BUFFER, 0);
	}
	while (gl->tail != gl->head) {
		struct xl_gl_query *q = &gl->queries[gl->tail % XL_GL_QUERIES];
		GLint available = 0;
		fn->GetQueryObjectiv(q->name, GL_QUERY_RESULT_AVAILABLE, &available);
		if (!available)
			break;
		GLuint64 ns = 0;
		fn->GetQueryObjectui64v(q->name, GL_QUERY_RESULT, &ns);
		push_sample(gl, q, ns);
		gl->tail++;
	}
	if (bound)
		fn->BindBuffer(GL_QUERY_BUFFER, (GLuint)bound);
}

/*
 * A driver may store a result's 64 bits as two 32-bit halves (Intel's
 * does, low half first), so a poll can see one half written and the other
 * still the sentinel's ones. A GL time (ns) has an all-ones high half only
 * after 292 years: such a cell is unwritten, or written only in part. An
 * all-ones low half happens (1 in 2^32): such a value is taken once two
 * polls read it the same, the other half having had a frame to land.
 */
static bool unwritten(uint64_t ns)
{
	return (uint32_t)(ns >> 32) == UINT32_MAX;
}

static bool maybe_half_written(uint64_t ns)
{
	return (uint32_t)ns == UINT32_MAX;
}

/* The mapped readback given up: a cell that was asked for stays unwritten. */
static void give_up_cells(struct xl_gl *gl)
{
	atomic_store_explicit(&gl->cells_stuck, true, memory_order_release);
}

/*
 * Takes the results the driver has written into the buffer, oldest first:
 * plain loads, no GL call. Only requested cells, and only once the latest
 * request's mark is written too: requests run in order, so then every
 * request of that query has run and none can land on the cell once it is
 * reused for a later query. The spec has the CPU see a server write
 * through a coherent mapping only after a fence or glFinish; the drivers
 * tried (Mesa's llvmpipe, NVIDIA's) show it without, a frame later at
 * most, and a result still missing XL_GL_CELL_PATIENCE frames after its
 * first request makes the session fall back to glGetQueryObject rather
 * than stall.
 */
static void poll_cells(struct xl_gl *gl)
{
	while (gl->tail != gl->requested) {
		uint32_t slot = gl->tail % XL_GL_QUERIES;
		const struct xl_gl_query *q = &gl->queries[slot];
		uint64_t ns = gl->cells[slot];
		if (unwritten(ns) || unwritten(gl->cells[MARK(slot)])) {
			if (gl->frame - q->asked >= XL_GL_CELL_PATIENCE)
				give_up_cells(gl);
			return;
		}
		if (maybe_half_written(ns) && ns != gl->suspect) {
			gl->suspect = ns;
			return;
		}
		gl->suspect = CELL_PENDING;
		push_sample(gl, q, ns);
		gl->tail++;
	}
}

/* The mapped readback in use: the buffer made and not given up. */
static bool mapped(const struct xl_gl *gl)
{
	return gl->cells && !atomic_load_explicit(&gl->cells_stuck, memory_order_relaxed);
}

/* Reads back every finished timestamp, oldest first, without waiting. */
static void poll(struct xl_gl *gl)
{
	if (gl->tail == gl->head)
		return;
	if (mapped(gl))
		poll_cells(gl);
	/* Not "else": poll_cells may just have given the buffer up. */
	if (!mapped(gl))
		poll_objects(gl);
	atomic_store_explicit(&gl->in_flight, gl->head - gl->tail, memory_order_relaxed);
}

/*
 * One request for query @p slot's result (GPU work: two copies):
 * GL_QUERY_RESULT_NO_WAIT into its cell, which writes the result if the
 * query has finished when the request runs and leaves the cell alone
 * otherwise (GL_QUERY_RESULT would wait for it: llvmpipe waits on the
 * CPU, 350-400 ms behind heavy draws), then its availability into its
 * mark, which is always written: once the mark is, the request has run.
 */
static void ask(struct xl_gl *gl, uint32_t slot)
{
	GLuint name = gl->queries[slot].name;

	gl->cells[MARK(slot)] = CELL_PENDING;
	gl->fn->GetQueryBufferObjectui64v(name, gl->buffer, GL_QUERY_RESULT_NO_WAIT,
	                                  (GLintptr)(slot * sizeof(uint64_t)));
	gl->fn->GetQueryBufferObjectui64v(name, gl->buffer, GL_QUERY_RESULT_AVAILABLE,
	                                  (GLintptr)(MARK(slot) * sizeof(uint64_t)));
}

/*
 * Mapped readback: asks again for each result whose last request ran
 * before its query had finished (mark written, cell untouched: a cell
 * written in part is left to complete), then for each query at least
 * @p min_age frames old not asked yet. A query is never asked while a
 * request of it may still be to run, so no two requests of one query are
 * in flight. Returns the requests made.
 */
static unsigned request_results(struct xl_gl *gl, uint32_t min_age)
{
	unsigned asked = 0;

	if (!mapped(gl))
		return 0;
	for (uint32_t i = gl->tail; i != gl->requested; i++) {
		uint32_t slot = i % XL_GL_QUERIES;
		if (gl->cells[slot] == CELL_PENDING && !unwritten(gl->cells[MARK(slot)])) {
			ask(gl, slot);
			asked++;
		}
	}
	for (; gl->requested != gl->head; gl->requested++) {
		uint32_t slot = gl->requested % XL_GL_QUERIES;
		if (gl->frame - gl->queries[slot].frame < min_age)
			break;
		gl->queries[slot].asked = gl->frame;
		ask(gl, slot);
		asked++;
	}
	return asked;
}

static bool issue(struct xl_gl *gl, int64_t display_time, int64_t frame_id, uint32_t session_id)
{
	if (gl->head - gl->tail >= XL_GL_QUERIES)
		return false;
	struct xl_gl_query *q = &gl->queries[gl->head % XL_GL_QUERIES];
	q->display_time = display_time;
	q->frame_id = frame_id;
	q->session_id = session_id;
	q->frame = gl->frame;
	if (mapped(gl))
		gl->cells[gl->head % XL_GL_QUERIES] = CELL_PENDING;
	/* Written when every earlier command has completed on the GPU. */
	gl->fn->QueryCounter(q->name, GL_TIMESTAMP);
	gl->head++;
	atomic_store_explicit(&gl->in_flight, gl->head - gl->tail, memory_order_relaxed);
	return true;
}

static enum xl_gl_stamp_result skip(struct xl_gl *gl, enum xl_gl_skip why)
{
	atomic_fetch_add_explicit(&gl->skipped[why], 1, memory_order_relaxed);
	return XL_GL_SKIPPED;
}

enum xl_gl_stamp_result xl_gl_stamp(struct xl_gl *gl, int64_t display_time, int64_t frame_id,
                                    uint32_t session_id, bool post)
{
	if (atomic_load_explicit(&gl->status, memory_order_relaxed) == XL_GL_STATUS_UNSUPPORTED)
		return skip(gl, XL_GL_SKIP_UNSUPPORTED);
	/*
	 * GL calls act on the thread's current context: it must be the
	 * session's. Under EGL this resets the thread's pending EGL error to
	 * EGL_SUCCESS (every successful EGL call does): unavoidable, as no
	 * other call tells the current context and none restores an error;
	 * README "OpenGL" says so. glXGetCurrentContext keeps no error state.
	 */
	if (gl->fn->GetCurrentContext() != gl->context)
		return skip(gl, XL_GL_SKIP_NOT_CURRENT);
	uint64_t t0 = xl_clock_mono_ns();
	if (!gl->ready && !setup(gl))
		return skip(gl, XL_GL_SKIP_UNSUPPORTED);
	if (session_id != gl->calibrated_session)
		calibrate(gl, session_id);
	gl->frame++;
	/* Older frames' only: checking this frame's would make the driver flush. */
	poll(gl);
	/* The requests' copies run on the GPU: pre's before its timestamp,
	 * post's after its own, both outside the target's interval between
	 * them (on NVIDIA's driver post's before its timestamp added ~2 us). */
	if (!post)
		request_results(gl, XL_GL_REQUEST_AGE);
	bool issued = issue(gl, display_time, frame_id, session_id);
	if (post)
		request_results(gl, XL_GL_REQUEST_AGE);
	if (issued && post)
		gl->fn->Flush();
	atomic_fetch_add_explicit(&gl->frames, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&gl->frame_ns, xl_clock_mono_ns() - t0, memory_order_relaxed);
	return issued ? XL_GL_STAMPED : XL_GL_OVERFLOW;
}

bool xl_gl_idle(struct xl_gl *gl)
{
	if (!gl->ready || gl->tail == gl->head)
		return false;
	if (gl->fn->GetCurrentContext() != gl->context)
		return true;
	gl->frame++;
	poll(gl);
	request_results(gl, XL_GL_IDLE_AGE);
	return gl->tail != gl->head;
}

/* ------------------------------------------------------ xrDestroySession */

static void sleep_step(void)
{
	struct timespec step = {0, FINISH_STEP_NS};
	nanosleep(&step, NULL);
}

/* Unmaps and deletes the query buffer; context current. */
static void delete_buffer(struct xl_gl *gl)
{
	gl->fn->UnmapNamedBuffer(gl->buffer);
	gl->fn->DeleteBuffers(1, &(GLuint){gl->buffer});
	gl->buffer = 0;
	gl->cells = NULL;
}

/* Reads back the last timestamps (bounded) and deletes the queries; context current. */
static void finish_queries(struct xl_gl *gl, uint64_t timeout_ns)
{
	/*
	 * The rest of the results asked for, again while their queries run,
	 * each batch sent to the GPU: polled, never waited for in the driver,
	 * so the bound holds.
	 */
	for (uint64_t waited = 0;; waited += FINISH_STEP_NS) {
		if (request_results(gl, 0))
			gl->fn->Flush();
		poll(gl);
		if (gl->tail == gl->head || waited >= timeout_ns)
			break;
		sleep_step();
	}
	if (gl->tail != gl->head)
		xl_log("GPU (OpenGL): %u timestamps still unfinished at xrDestroySession",
		       gl->head - gl->tail);
	/* GL keeps a deleted buffer that unfinished requests still write to. */
	if (gl->cells)
		delete_buffer(gl);
	GLuint names[XL_GL_QUERIES];
	for (uint32_t i = 0; i < XL_GL_QUERIES; i++)
		names[i] = gl->queries[i].name;
	gl->fn->DeleteQueries(XL_GL_QUERIES, names);
}

void xl_gl_finish(struct xl_gl *gl, uint64_t timeout_ns)
{
	if (gl->ready) {
		if (gl->fn->GetCurrentContext() == gl->context)
			finish_queries(gl, timeout_ns);
		else
			xl_log("GPU (OpenGL): xrDestroySession without the session's context current: "
			       "%u query objects%s are left to the context (deleted with it)",
			       XL_GL_QUERIES, gl->cells ? " and the mapped query buffer" : "");
		gl->ready = false;
		atomic_store(&gl->in_flight, 0);
	}
	uint64_t frames = atomic_load(&gl->frames);
	uint64_t not_current = atomic_load(&gl->skipped[XL_GL_SKIP_NOT_CURRENT]);
	uint64_t lost = atomic_load(&gl->done_overflow);
	if (frames || not_current)
		xl_log("GPU (OpenGL): %llu frames stamped, %.2f us each on the frame thread "
		       "(readback included); %llu skipped (context not current), %llu samples lost "
		       "(writer behind)", (unsigned long long)frames,
		       frames ? (double)atomic_load(&gl->frame_ns) / (double)frames / 1000.0 : 0.0,
		       (unsigned long long)not_current, (unsigned long long)lost);
	uint64_t cals = atomic_load(&gl->calibrations);
	if (cals)
		xl_log("GPU (OpenGL): %llu clock correlations (one per recording, on its first "
		       "frame), %.2f us each on the frame thread (in the cost per frame above)",
		       (unsigned long long)cals,
		       (double)atomic_load(&gl->calibration_ns) / (double)cals / 1000.0);
	/* Let the writer take what is in the ring before the holder lets go. */
	for (uint64_t waited = 0; waited < timeout_ns; waited += FINISH_STEP_NS) {
		if (atomic_load(&gl->done_tail) == atomic_load(&gl->done_head))
			break;
		sleep_step();
	}
}

/* -------------------------------------------------------- writer thread */

/* Logs, once each, what the frame thread found. */
static void report(struct xl_gl *gl)
{
	int status = atomic_load_explicit(&gl->status, memory_order_acquire);
	if (status == gl->status_logged)
		return;
	gl->status_logged = status;
	if (status == XL_GL_STATUS_READY)
		xl_log("GPU timestamps (OpenGL): %u queries created on the first recorded frame "
		       "(set-up %.1f us on the frame thread), %s", XL_GL_QUERIES,
		       (double)gl->setup_ns / 1000.0,
		       gl->mapped_readback
			       ? "read back through a mapped query buffer, no wait"
			       : "read back with glGetQueryObject (an application running Mesa's "
			         "glthread waits for its GL thread at each read)");
	else if (status == XL_GL_STATUS_UNSUPPORTED)
		xl_log("GPU timestamps unavailable (OpenGL: %s): GPU columns stay blank, CPU "
		       "columns are unaffected", gl->why);
}

/* Logs, once, that the mapped readback was given up (poll_cells). */
static void report_stuck(struct xl_gl *gl)
{
	if (gl->stuck_logged || !atomic_load_explicit(&gl->cells_stuck, memory_order_acquire))
		return;
	gl->stuck_logged = true;
	xl_log("GPU timestamps (OpenGL): a result asked into the mapped query buffer was not "
	       "written %u frames later (context reset, or a driver that shows such writes only "
	       "after a fence): read back with glGetQueryObject for the rest of the session "
	       "(under Mesa's glthread the frame thread then waits for the GL thread)",
	       XL_GL_CELL_PATIENCE);
}

bool xl_gl_collect(struct xl_gl *gl, uint32_t max_session,
                   void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx)
{
	report(gl);
	report_stuck(gl);
	unsigned tail = atomic_load_explicit(&gl->done_tail, memory_order_relaxed);
	unsigned head = atomic_load_explicit(&gl->done_head, memory_order_acquire);
	for (; tail != head; tail++) {
		const struct xl_gl_done *d = &gl->done[tail % XL_GL_DONE];
		if (d->sample.session_id > max_session)
			return false;
		if (d->is_calibration) {
			gl->cal = d->cal;
			gl->has_cal = true;
		} else {
			emit(ctx, &d->sample);
		}
		atomic_store_explicit(&gl->done_tail, tail + 1, memory_order_release);
	}
	return atomic_load_explicit(&gl->in_flight, memory_order_relaxed) != 0;
}

unsigned xl_gl_pending(struct xl_gl *gl)
{
	return atomic_load_explicit(&gl->in_flight, memory_order_relaxed);
}

unsigned xl_gl_valid_bits(const struct xl_gl *gl)
{
	if (atomic_load_explicit(&gl->status, memory_order_acquire) != XL_GL_STATUS_READY)
		return U_TICKS_BITS_MAX;
	return gl->valid_bits;
}

bool xl_gl_calibration(const struct xl_gl *gl, struct xl_gpu_calibration *out)
{
	if (!gl->has_cal)
		return false;
	*out = gl->cal;
	return true;
}
