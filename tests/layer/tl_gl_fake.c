/*
 * Unit tests of the layers' OpenGL timestamps (layer/xl_gl.c) against a fake
 * GL handed in through an XrGraphicsBindingEGLMNDX's getProcAddress: what
 * xl_gl asks the driver, in which order, with which context and bindings.
 *
 * The fake's "GPU" finishes a query only when a test says so, and counts
 * every call that would block or disturb the application: a result read
 * of a query not reported available (GL_QUERY_RESULT waits for the GPU),
 * availability asked of the query issued in the same frame (that makes a
 * driver flush), a result read with a buffer bound to GL_QUERY_BUFFER, any
 * GL call other than the current-context check while the binding's context
 * is not current, and the GL_QUERY_BUFFER binding left changed.
 *
 * The mapped query buffer's entry points (glCreateBuffers ...
 * glGetQueryBufferObjectui64v) are handed out only when a test sets
 * f.buffer_fns: the other tests keep the glGetQueryObject readback. With
 * them a request runs when it is made (as on llvmpipe), or, with
 * f.deferred, when the test runs the fake GPU's queue (gpu_run): a
 * GL_QUERY_RESULT_NO_WAIT request writes the result into its cell if the
 * query is done by then and nothing otherwise, a GL_QUERY_RESULT_AVAILABLE
 * one writes 0 or 1. The fake counts every request that would wait
 * (GL_QUERY_RESULT: llvmpipe waits on the CPU), a query asked again while
 * a request of it is still queued, a request that runs after its query
 * was issued anew (its write would land in the next query's cell), a first
 * request made on the frame thread for a query younger than
 * XL_GL_REQUEST_AGE, a request into a cell not holding the sentinel, and
 * a write over a cell not holding it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#define XR_USE_PLATFORM_EGL
#define XR_USE_GRAPHICS_API_OPENGL

#include "xl_clock.h"
#include "xl_gl.h"

#include <string.h>

#define FAKE_QUERIES 64
#define FAKE_GL_OFFSET_NS 1000000000ull /* the fake GL clock runs this far ahead */
#define FINISH_NS 10000000ull             /* xl_gl_finish's bound: the fake never waits */
#define FAKE_BUFFER 42                      /* the one buffer name glCreateBuffers hands out */
#define PENDING (~0ull)                     /* xl_gl.c's sentinel */
#define CELL_FLAGS                                                                         \
	(GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)

static struct fake {
	int context_token;     /* the binding's context is its address */
	void *current;         /* what eglGetCurrentContext answers */
	const char *version;   /* GL_VERSION */
	bool timer_query;      /* GL_ARB_timer_query listed */
	bool dsa_extensions;   /* GL_ARB_direct_state_access and GL_ARB_buffer_storage listed */
	bool buffer_fns;       /* the mapped buffer's entry points handed out */
	const char *missing;   /* with buffer_fns: this one still withheld */
	GLint counter_bits;
	GLuint query_buffer;   /* bound to GL_QUERY_BUFFER */
	uint64_t frame;        /* the test's frame number, set before each stamp */
	uint64_t value_base;   /* added to every timestamp's value (a clock past 2^36) */
	struct {
		bool issued;
		bool done;          /* the fake GPU wrote it */
		bool seen_available;
		uint64_t frame;     /* the frame it was issued in */
		uint64_t value;
		unsigned requests;  /* results asked into the buffer, since issued */
		unsigned queued;    /* its requests still in the fake GPU's queue */
		unsigned issue;     /* glQueryCounter calls on it */
		bool torn;          /* written as its low half only, so far */
		GLintptr offset;    /* the requested cell */
	} q[FAKE_QUERIES + 1]; /* by name; 0 unused */
	/* The mapped buffer: result cells, then mark cells. */
	uint64_t cells[2 * XL_GL_QUERIES];
	unsigned buffers_created, buffers_deleted, maps, unmaps;
	unsigned requests;              /* first requests of a query's result */
	unsigned reasks;                /* later ones (the result was not there yet) */
	unsigned marks;                 /* GL_QUERY_RESULT_AVAILABLE requests */
	unsigned buffer_calls;          /* every glGetQueryBufferObjectui64v */
	bool mapped;
	bool in_finish;                 /* the test is in xl_gl_finish: late requests expected */
	bool deferred;                  /* requests run only in gpu_run() */
	struct {
		GLuint id;
		GLenum pname;
		GLintptr offset;
		unsigned issue;
	} queue[256];                   /* the fake GPU's queue of requests (deferred) */
	unsigned queued;
	unsigned done_after_asks;       /* a query not done finishes at its n-th NO_WAIT request */
	unsigned waiting_requests;      /* GL_QUERY_RESULT: a wait for the query */
	unsigned asks_over_queued;      /* a query asked while a request of it is queued */
	unsigned stale_requests;        /* a request run after its query was issued anew */
	unsigned young_requests;        /* on the frame thread, before XL_GL_REQUEST_AGE frames */
	unsigned requests_not_pending;  /* into a cell not holding the sentinel */
	unsigned overwrites;            /* a result written over a cell not holding the sentinel */
	uint64_t counter_frame, flush_frame; /* the frames of the last glQueryCounter and glFlush */
	bool in_idle;                   /* the test is in xl_gl_idle: XL_GL_IDLE_AGE */
	bool no_qbo;                    /* GL_ARB_query_buffer_object not listed */
	const char *ext_string;         /* GL_EXTENSIONS for glGetString (before GL 3); NULL: "" */
	bool map_fails;                 /* glMapNamedBufferRange returns NULL */
	unsigned binding_reads;         /* glGetIntegerv(GL_QUERY_BUFFER_BINDING) */
	unsigned stuck_logs;            /* xl_log lines saying the mapped readback was given up */
	bool drop_writes;               /* the GPU never writes a requested result */
	bool torn_writes;               /* the GPU writes the low half first (complete_torn) */
	unsigned torn;                  /* writes whose high half is still to come */
	unsigned requests_before_counter, requests_after_counter, requests_after_flush;
	unsigned availability_reads;    /* glGetQueryObjectiv calls */
	GLuint next_name;
	unsigned calls;                 /* every GL call but the current-context check */
	unsigned gen_calls, delete_calls, deleted, counters, flushes, result_reads, timestamp_reads;
	unsigned blocking_reads;        /* GL_QUERY_RESULT not known available */
	unsigned same_frame_polls;      /* availability of this frame's own query */
	unsigned reads_into_buffer;     /* a result read with GL_QUERY_BUFFER bound */
	unsigned calls_not_current;     /* GL calls without the context current */
} f;

/* xl_gl.c's log lines (ld --wrap=xl_log): those about the mapped readback given up counted. */
void __wrap_xl_log(const char *fmt, ...)
{
	if (strstr(fmt, "was not written %u frames later"))
		f.stuck_logs++;
}

static void *binding_context(void)
{
	return &f.context_token;
}

static void call(void)
{
	f.calls++;
	if (f.current != binding_context())
		f.calls_not_current++;
}

static void *fake_current(void)
{
	return f.current;
}

/* The process's own, for a getProcAddress that does not give it (exported: ENABLE_EXPORTS). */
EGLContext EGLAPIENTRY eglGetCurrentContext(void)
{
	return f.current;
}

static const GLubyte *fake_get_string(GLenum name)
{
	call();
	if (name == GL_EXTENSIONS && f.ext_string)
		return (const GLubyte *)f.ext_string;
	return (const GLubyte *)(name == GL_VERSION ? f.version : "");
}

/* The extensions listed, into @p out; returns their count. */
static GLuint extensions(const char *out[4])
{
	GLuint n = 0;
	if (f.timer_query)
		out[n++] = "GL_ARB_timer_query";
	if (!f.no_qbo)
		out[n++] = "GL_ARB_query_buffer_object";
	if (f.dsa_extensions) {
		out[n++] = "GL_ARB_direct_state_access";
		out[n++] = "GL_ARB_buffer_storage";
	}
	return n;
}

static const GLubyte *fake_get_stringi(GLenum name, GLuint i)
{
	const char *ext[4];
	call();
	if (name != GL_EXTENSIONS || i >= extensions(ext))
		return NULL;
	return (const GLubyte *)ext[i];
}

static void fake_get_integerv(GLenum pname, GLint *v)
{
	call();
	const char *ext[4];
	if (pname == GL_NUM_EXTENSIONS)
		*v = (GLint)extensions(ext);
	else if (pname == GL_QUERY_BUFFER_BINDING) {
		f.binding_reads++;
		*v = (GLint)f.query_buffer;
	}
	else
		*v = 0;
}

static void fake_get_integer64v(GLenum pname, GLint64 *v)
{
	call();
	assert_int_equal(pname, GL_TIMESTAMP);
	f.timestamp_reads++;
	*v = (GLint64)(xl_clock_mono_ns() + FAKE_GL_OFFSET_NS);
}

static void fake_gen_queries(GLsizei n, GLuint *ids)
{
	call();
	f.gen_calls++;
	for (GLsizei i = 0; i < n; i++) {
		assert_true(f.next_name < FAKE_QUERIES);
		ids[i] = ++f.next_name;
	}
}

static void fake_delete_queries(GLsizei n, const GLuint *ids)
{
	call();
	(void)ids;
	f.delete_calls++;
	f.deleted += (unsigned)n;
}

static void fake_query_counter(GLuint id, GLenum target)
{
	call();
	assert_int_equal(target, GL_TIMESTAMP);
	assert_true(id >= 1 && id <= FAKE_QUERIES);
	f.q[id].issued = true;
	f.q[id].done = false;
	f.q[id].seen_available = false;
	f.q[id].frame = f.frame;
	f.q[id].value = f.value_base + 1000 + 10 * f.frame;
	f.q[id].requests = 0;
	f.q[id].issue++;
	f.counters++;
	f.counter_frame = f.frame;
}

static void fake_get_queryiv(GLenum target, GLenum pname, GLint *v)
{
	call();
	*v = target == GL_TIMESTAMP && pname == GL_QUERY_COUNTER_BITS ? f.counter_bits : 0;
}

static void fake_get_query_objectiv(GLuint id, GLenum pname, GLint *v)
{
	call();
	assert_int_equal(pname, GL_QUERY_RESULT_AVAILABLE);
	assert_true(f.q[id].issued);
	f.availability_reads++;
	if (f.q[id].frame == f.frame)
		f.same_frame_polls++;
	*v = f.q[id].done;
	f.q[id].seen_available = f.q[id].done;
}

static void fake_get_query_objectui64v(GLuint id, GLenum pname, GLuint64 *v)
{
	call();
	assert_int_equal(pname, GL_QUERY_RESULT);
	f.result_reads++;
	if (!f.q[id].seen_available)
		f.blocking_reads++;
	if (f.query_buffer)
		f.reads_into_buffer++;
	*v = f.q[id].value;
}

static void fake_bind_buffer(GLenum target, GLuint buffer)
{
	call();
	if (target == GL_QUERY_BUFFER)
		f.query_buffer = buffer;
}

static void fake_flush(void)
{
	call();
	f.flushes++;
	f.flush_frame = f.frame;
}

/* The fake GPU writes query @p id's result into its requested cell. */
static void write_cell(GLuint id)
{
	uint64_t *cell = &f.cells[f.q[id].offset / (GLintptr)sizeof(uint64_t)];
	if (f.drop_writes)
		return;
	if (*cell != PENDING)
		f.overwrites++;
	if (f.torn_writes) {
		/* As two 32-bit stores, the high half's still to come. */
		*cell = (PENDING & ~(uint64_t)UINT32_MAX) | (f.q[id].value & UINT32_MAX);
		f.q[id].torn = true;
		f.torn++;
		return;
	}
	*cell = f.q[id].value;
}

/* The second halves of the torn writes (write_cell with torn_writes). */
static void complete_torn(void)
{
	for (GLuint id = 1; id <= FAKE_QUERIES; id++) {
		if (!f.q[id].torn)
			continue;
		f.cells[f.q[id].offset / (GLintptr)sizeof(uint64_t)] = f.q[id].value;
		f.q[id].torn = false;
	}
	f.torn = 0;
}

static void fake_create_buffers(GLsizei n, GLuint *buffers)
{
	call();
	assert_int_equal(n, 1);
	assert_int_equal(f.buffers_created, 0);
	f.buffers_created++;
	buffers[0] = FAKE_BUFFER;
}

static void fake_named_buffer_storage(GLuint buffer, GLsizeiptr size, const void *data,
                                      GLbitfield flags)
{
	call();
	assert_int_equal(buffer, FAKE_BUFFER);
	assert_int_equal(size, sizeof(f.cells));
	assert_null(data);
	/* Mapping's flags, and client storage: the CPU reads it every frame. */
	assert_int_equal(flags, CELL_FLAGS | GL_CLIENT_STORAGE_BIT);
}

static void *fake_map_named_buffer_range(GLuint buffer, GLintptr offset, GLsizeiptr length,
                                         GLbitfield access)
{
	call();
	assert_int_equal(buffer, FAKE_BUFFER);
	assert_int_equal(offset, 0);
	assert_int_equal(length, sizeof(f.cells));
	assert_int_equal(access, CELL_FLAGS);
	if (f.map_fails)
		return NULL;
	f.maps++;
	f.mapped = true;
	return f.cells;
}

static GLboolean fake_unmap_named_buffer(GLuint buffer)
{
	call();
	assert_int_equal(buffer, FAKE_BUFFER);
	assert_true(f.mapped);
	f.unmaps++;
	f.mapped = false;
	return GL_TRUE;
}

static void fake_delete_buffers(GLsizei n, const GLuint *buffers)
{
	call();
	assert_int_equal(n, 1);
	assert_int_equal(buffers[0], FAKE_BUFFER);
	f.buffers_deleted++;
}

/* The fake GPU runs one request of query @p id, made at its @p issue. */
static void run_request(GLuint id, GLenum pname, GLintptr offset, unsigned issue)
{
	uint64_t *cell = &f.cells[offset / (GLintptr)sizeof(uint64_t)];

	if (issue != f.q[id].issue)
		f.stale_requests++;
	if (pname == GL_QUERY_RESULT_AVAILABLE) {
		if (!f.drop_writes)
			*cell = f.q[id].done;
		return;
	}
	if (!f.q[id].done && f.done_after_asks && f.q[id].requests >= f.done_after_asks)
		f.q[id].done = true;
	if (f.q[id].done) {
		f.q[id].offset = offset;
		write_cell(id);
	}
}

/* Runs the first @p n requests in the fake GPU's queue, in order. */
static void gpu_run_first(unsigned n)
{
	unsigned i = 0;
	for (; i < n && i < f.queued; i++) {
		f.q[f.queue[i].id].queued--;
		run_request(f.queue[i].id, f.queue[i].pname, f.queue[i].offset, f.queue[i].issue);
	}
	memmove(f.queue, f.queue + i, (f.queued - i) * sizeof(f.queue[0]));
	f.queued -= i;
}

/* Runs every request in the fake GPU's queue, in order. */
static void gpu_run(void)
{
	gpu_run_first(f.queued);
}

static void fake_get_query_buffer_objectui64v(GLuint id, GLuint buffer, GLenum pname,
                                              GLintptr offset)
{
	call();
	assert_int_equal(buffer, FAKE_BUFFER);
	assert_true(pname == GL_QUERY_RESULT || pname == GL_QUERY_RESULT_NO_WAIT ||
	            pname == GL_QUERY_RESULT_AVAILABLE);
	assert_true(offset >= 0 && offset % 8 == 0 && offset < (GLintptr)sizeof(f.cells));
	assert_true(f.q[id].issued);
	f.buffer_calls++;
	if (f.counter_frame != f.frame)
		f.requests_before_counter++;
	else if (f.flush_frame != f.frame)
		f.requests_after_counter++;
	else
		f.requests_after_flush++;
	if (pname == GL_QUERY_RESULT)
		f.waiting_requests++;
	if (pname == GL_QUERY_RESULT_AVAILABLE) {
		f.marks++;
	} else {
		if (f.q[id].queued)
			f.asks_over_queued++;
		if (f.q[id].requests++) {
			f.reasks++;
		} else {
			f.requests++;
			if (!f.in_finish &&
			    f.frame - f.q[id].frame < (f.in_idle ? XL_GL_IDLE_AGE : XL_GL_REQUEST_AGE))
				f.young_requests++;
		}
		if (f.cells[offset / (GLintptr)sizeof(uint64_t)] != PENDING)
			f.requests_not_pending++;
	}
	if (!f.deferred) {
		run_request(id, pname, offset, f.q[id].issue);
		return;
	}
	assert_true(f.queued < sizeof(f.queue) / sizeof(f.queue[0]));
	f.queue[f.queued++] = (typeof(f.queue[0])){id, pname, offset, f.q[id].issue};
	f.q[id].queued++;
}

static PFN_xrVoidFunction fake_getproc(const char *name)
{
	static const struct {
		const char *name;
		void *fn;
	} table[] = {
		{"eglGetCurrentContext", (void *)fake_current},
		{"glGetString", (void *)fake_get_string},
		{"glGetStringi", (void *)fake_get_stringi},
		{"glGetIntegerv", (void *)fake_get_integerv},
		{"glGetInteger64v", (void *)fake_get_integer64v},
		{"glGenQueries", (void *)fake_gen_queries},
		{"glDeleteQueries", (void *)fake_delete_queries},
		{"glQueryCounter", (void *)fake_query_counter},
		{"glGetQueryiv", (void *)fake_get_queryiv},
		{"glGetQueryObjectiv", (void *)fake_get_query_objectiv},
		{"glGetQueryObjectui64v", (void *)fake_get_query_objectui64v},
		{"glBindBuffer", (void *)fake_bind_buffer},
		{"glFlush", (void *)fake_flush},
		{"glCreateBuffers", (void *)fake_create_buffers},
		{"glNamedBufferStorage", (void *)fake_named_buffer_storage},
		{"glMapNamedBufferRange", (void *)fake_map_named_buffer_range},
		{"glUnmapNamedBuffer", (void *)fake_unmap_named_buffer},
		{"glDeleteBuffers", (void *)fake_delete_buffers},
		{"glGetQueryBufferObjectui64v", (void *)fake_get_query_buffer_objectui64v},
	};
	const size_t old_readback = 13; /* the entries before the mapped buffer's */
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if ((i >= old_readback && !f.buffer_fns) || (f.missing && !strcmp(name, f.missing)))
			continue;
		if (strcmp(name, table[i].name) == 0) {
			PFN_xrVoidFunction fn;
			memcpy(&fn, &table[i].fn, sizeof(fn));
			return fn;
		}
	}
	return NULL;
}

/*
 * A fresh fake with the mapped buffer's entry points when @p buffer_fns,
 * all but @p missing (NULL: all).
 */
static struct xl_gl *try_create(bool buffer_fns, const char *missing, char *why, size_t why_size)
{
	memset(&f, 0, sizeof(f));
	f.buffer_fns = buffer_fns;
	f.missing = missing;
	f.version = "4.5 (Core Profile) fake";
	f.current = binding_context();
	f.timer_query = true;
	f.counter_bits = 64;
	XrGraphicsBindingEGLMNDX b = {
		.type = XR_TYPE_GRAPHICS_BINDING_EGL_MNDX,
		.getProcAddress = fake_getproc,
		.display = (EGLDisplay)&f,
		.context = binding_context(),
	};
	return xl_gl_create((XrSession)(uintptr_t)1, (const XrBaseInStructure *)&b, why, why_size);
}

static struct xl_gl *create_with(bool buffer_fns, const char *missing)
{
	char why[160] = "";
	struct xl_gl *gl = try_create(buffer_fns, missing, why, sizeof(why));
	assert_non_null(gl);
	return gl;
}

/* The glGetQueryObject readback: no mapped buffer's entry point handed out. */
static struct xl_gl *create(void)
{
	return create_with(false, NULL);
}

static enum xl_gl_stamp_result stamp(struct xl_gl *gl, uint64_t frame, bool flush)
{
	f.frame = frame;
	return xl_gl_stamp(gl, (int64_t)(100 + frame), (int64_t)frame, 1, flush);
}

/* Lets the fake GPU finish every query issued up to @p frame. */
static void finish_up_to(uint64_t frame)
{
	for (GLuint i = 1; i <= FAKE_QUERIES; i++)
		if (f.q[i].issued && f.q[i].frame <= frame)
			f.q[i].done = true;
}

struct collected {
	unsigned n;
	struct xl_gpu_sample s[XL_GL_DONE];
};

static void emit(void *ctx, const struct xl_gpu_sample *s)
{
	struct collected *c = ctx;
	c->s[c->n++] = *s;
}

static void assert_undisturbed(void)
{
	assert_int_equal(f.blocking_reads, 0);
	assert_int_equal(f.same_frame_polls, 0);
	assert_int_equal(f.reads_into_buffer, 0);
	assert_int_equal(f.calls_not_current, 0);
	assert_int_equal(f.waiting_requests, 0);
	assert_int_equal(f.asks_over_queued, 0);
	assert_int_equal(f.stale_requests, 0);
	assert_int_equal(f.young_requests, 0);
	assert_int_equal(f.requests_not_pending, 0);
	assert_int_equal(f.overwrites, 0);
}

/* The end of a test: nothing disturbed, the session destroyed. */
static void end_undisturbed(struct xl_gl *gl)
{
	assert_undisturbed();
	xl_gl_finish(gl, 0);
	xl_gl_destroy(gl);
}

/* Results are read frames later, only once available, oldest first, never waiting. */
static void test_readback_never_blocks(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	struct collected c = {0};

	for (uint64_t frame = 1; frame <= 5; frame++)
		assert_int_equal(stamp(gl, frame, false), XL_GL_STAMPED);
	assert_int_equal(f.gen_calls, 1);
	assert_int_equal(f.counters, 5);
	assert_int_equal(f.result_reads, 0); /* nothing finished: nothing read */
	assert_int_equal(f.flushes, 0);
	finish_up_to(3);
	assert_int_equal(stamp(gl, 6, true), XL_GL_STAMPED);
	assert_int_equal(f.result_reads, 3);
	assert_int_equal(f.flushes, 1);
	assert_true(xl_gl_collect(gl, 1, emit, &c)); /* frames 4..6 still in flight */
	assert_int_equal(c.n, 3);
	for (unsigned i = 0; i < c.n; i++) {
		assert_int_equal(c.s[i].display_time, 100 + 1 + i);
		assert_int_equal(c.s[i].frame_id, 1 + i); /* carried with it, for the trace */
		assert_int_equal(c.s[i].ticks, 1000 + 10 * (1 + i));
		assert_true(c.s[i].valid);
		assert_true(c.s[i].period_ns == 1.0f);
		assert_int_equal(c.s[i].valid_bits, 64); /* GL's ns never wrap */
	}
	assert_int_equal(xl_gl_pending(gl), 3);
	end_undisturbed(gl);
}

/* With every query in flight a frame is counted as an overflow, never waited for. */
static void test_pool_full_overflows(void **state)
{
	(void)state;
	struct xl_gl *gl = create();

	for (uint64_t frame = 1; frame <= XL_GL_QUERIES; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	unsigned flushes = f.flushes;
	assert_int_equal(stamp(gl, XL_GL_QUERIES + 1, true), XL_GL_OVERFLOW);
	assert_int_equal(f.counters, XL_GL_QUERIES);
	assert_int_equal(f.flushes, flushes); /* nothing issued: nothing to flush */
	finish_up_to(1);
	assert_int_equal(stamp(gl, XL_GL_QUERIES + 2, true), XL_GL_STAMPED);
	assert_int_equal(f.result_reads, 1);
	end_undisturbed(gl);
}

/* A buffer the app bound to GL_QUERY_BUFFER is stepped around and bound again. */
static void test_query_buffer_restored(void **state)
{
	(void)state;
	struct xl_gl *gl = create();

	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	f.query_buffer = 7;
	finish_up_to(1);
	assert_int_equal(stamp(gl, 2, true), XL_GL_STAMPED);
	assert_int_equal(f.result_reads, 1);
	assert_int_equal(f.query_buffer, 7);
	end_undisturbed(gl);
}

/* Without the binding's context current: no GL call, the frame skipped and counted. */
static void test_not_current_skips(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	int other;

	f.current = &other;
	assert_int_equal(stamp(gl, 1, true), XL_GL_SKIPPED);
	f.current = NULL;
	assert_int_equal(stamp(gl, 2, true), XL_GL_SKIPPED);
	assert_int_equal(atomic_load(&gl->skipped[XL_GL_SKIP_NOT_CURRENT]), 2);
	assert_int_equal(f.calls, 0);
	f.current = binding_context();
	assert_int_equal(stamp(gl, 3, true), XL_GL_STAMPED);
	assert_undisturbed();
	/* Destroyed elsewhere: the queries are left to the context. */
	f.current = NULL;
	xl_gl_finish(gl, 0);
	assert_int_equal(f.delete_calls, 0);
	assert_int_equal(f.calls_not_current, 0);
	xl_gl_destroy(gl);
}

/* No timer queries (unlisted or 0 bits): skipped from the first frame on, no query made. */
static void test_unsupported(void **state)
{
	(void)state;
	for (int variant = 0; variant < 2; variant++) {
		struct xl_gl *gl = create();
		if (variant == 0)
			f.timer_query = false;
		else
			f.counter_bits = 0;
		assert_int_equal(stamp(gl, 1, true), XL_GL_SKIPPED);
		assert_int_equal(atomic_load(&gl->status), XL_GL_STATUS_UNSUPPORTED);
		unsigned calls = f.calls;
		assert_int_equal(stamp(gl, 2, true), XL_GL_SKIPPED);
		assert_int_equal(f.calls, calls); /* checked once, not per frame */
		assert_int_equal(f.gen_calls + f.counters + f.flushes + f.timestamp_reads, 0);
		assert_int_equal(atomic_load(&gl->skipped[XL_GL_SKIP_UNSUPPORTED]), 2);
		end_undisturbed(gl);
	}
}

/* The calibration pairs glGetInteger64v(GL_TIMESTAMP) with CLOCK_MONOTONIC reads around it. */
static void test_calibration(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	struct collected c = {0};
	struct xl_gpu_calibration cal;

	assert_false(xl_gl_calibration(gl, &cal));
	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	assert_true(f.timestamp_reads >= 1);
	xl_gl_collect(gl, 1, emit, &c);
	assert_true(xl_gl_calibration(gl, &cal));
	int64_t offset = (int64_t)(cal.gpu_ticks - cal.monotonic_ns);
	int64_t error = offset - (int64_t)FAKE_GL_OFFSET_NS;
	assert_true(error <= (int64_t)cal.max_deviation_ns && -error <= (int64_t)cal.max_deviation_ns);
	/* Once per recording session, not per frame. */
	unsigned reads = f.timestamp_reads;
	assert_int_equal(stamp(gl, 2, true), XL_GL_STAMPED);
	assert_int_equal(f.timestamp_reads, reads);
	assert_int_equal(atomic_load(&gl->calibrations), 1);
	/* A new recording: taken again (the GL clock may drift), and counted
	 * with its cost for the log, the cost within the frames'. */
	f.frame = 3;
	assert_int_equal(xl_gl_stamp(gl, 103, 3, 2, true), XL_GL_STAMPED);
	assert_true(f.timestamp_reads > reads);
	assert_int_equal(atomic_load(&gl->calibrations), 2);
	assert_true(atomic_load(&gl->calibration_ns) <= atomic_load(&gl->frame_ns));
	end_undisturbed(gl);
}

/* At xrDestroySession with the context current: the last results read, the queries deleted. */
static void test_finish_deletes(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	struct collected c = {0};

	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	assert_int_equal(stamp(gl, 2, true), XL_GL_STAMPED);
	finish_up_to(2);
	f.frame = 3;
	xl_gl_finish(gl, FINISH_NS);
	assert_int_equal(f.result_reads, 2);
	assert_int_equal(f.deleted, XL_GL_QUERIES);
	assert_false(xl_gl_collect(gl, 1, emit, &c));
	assert_int_equal(c.n, 2);
	assert_undisturbed();
	xl_gl_destroy(gl);
}

/* Collects every sample handed to the writer so far into @p c. */
static void drain(struct xl_gl *gl, struct collected *c)
{
	c->n = 0;
	xl_gl_collect(gl, 1, emit, c);
}

/*
 * A counter narrower than 64 bits (Mesa's Intel drivers report 36, their
 * GL time wraps every 68.7 s): each sample says the context's width, its
 * ticks and the calibration's within it, and so does xl_gl_valid_bits()
 * (the GPU file's `# gpu_valid_bits=`); 64 before the first frame read it,
 * and a width reported beyond 64 is 64.
 */
static void test_counter_bits(void **state)
{
	(void)state;
	static const struct {
		GLint reported;
		unsigned bits;
	} cases[] = {{36, 36}, {1, 1}, {64, 64}, {80, 64}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int buffer = 0; buffer <= 1; buffer++) {
			struct xl_gl *gl = create_with(buffer, NULL);
			struct collected c = {0};
			struct xl_gpu_calibration cal;
			uint64_t mask = cases[i].bits == 64 ? UINT64_MAX
			                                    : ((uint64_t)1 << cases[i].bits) - 1;

			f.counter_bits = cases[i].reported;
			f.value_base = 5ull << 36; /* past a 36-bit wrap */
			assert_int_equal(xl_gl_valid_bits(gl), 64);
			uint64_t frame = 1;
			for (; frame <= XL_GL_REQUEST_AGE + 3; frame++) {
				finish_up_to(frame - 1);
				assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
			}
			assert_int_equal(xl_gl_valid_bits(gl), cases[i].bits);
			drain(gl, &c);
			assert_true(c.n >= 2);
			for (unsigned k = 0; k < c.n; k++) {
				assert_int_equal(c.s[k].valid_bits, cases[i].bits);
				assert_int_equal(c.s[k].ticks, (f.value_base + 1000 + 10 * (k + 1)) & mask);
			}
			assert_true(xl_gl_calibration(gl, &cal));
			assert_true(cal.gpu_ticks <= mask);
			end_undisturbed(gl);
		}
	}
}

/* The mapped buffer: made once, results asked once each at XL_GL_REQUEST_AGE, read with no GL call. */
static void test_buffer_readback(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t expected = 1; /* the next frame whose sample must come */

	for (uint64_t frame = 1; frame <= XL_GL_REQUEST_AGE; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	assert_int_equal(f.buffers_created, 1);
	assert_int_equal(f.maps, 1);
	assert_int_equal(f.requests, 0); /* none old enough */
	/* The GPU two frames behind: every result arrives, in order. */
	for (uint64_t frame = XL_GL_REQUEST_AGE + 1; frame <= 100; frame++) {
		finish_up_to(frame - 2);
		assert_int_equal(stamp(gl, frame, frame % 2), XL_GL_STAMPED);
		assert_int_equal(f.requests, frame - XL_GL_REQUEST_AGE);
		drain(gl, &c);
		for (unsigned i = 0; i < c.n; i++, expected++) {
			assert_int_equal(c.s[i].display_time, 100 + expected);
			assert_int_equal(c.s[i].ticks, 1000 + 10 * expected);
			assert_true(c.s[i].valid);
		}
	}
	/* Read when written: the sample of frame N - 8 - 1 is out by frame N. */
	assert_int_equal(expected, 100 - XL_GL_REQUEST_AGE);
	assert_int_equal(xl_gl_pending(gl), XL_GL_REQUEST_AGE + 1);
	assert_int_equal(f.availability_reads + f.result_reads, 0); /* no GL call returns data */
	assert_int_equal(f.query_buffer, 0);                        /* no binding touched */
	assert_int_equal(f.buffers_created, 1);
	end_undisturbed(gl);
}

/* A full ring under the mapped buffer: overflows counted, each query still asked once. */
static void test_buffer_pool_full(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};

	for (uint64_t frame = 1; frame <= XL_GL_QUERIES; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	for (uint64_t frame = XL_GL_QUERIES + 1; frame <= XL_GL_QUERIES + 5; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_OVERFLOW);
	/* Those XL_GL_REQUEST_AGE frames old or more, the frames that could
	 * issue nothing counted too (a frame is a frame): the first thirteen,
	 * asked again each frame (their requests ran before they finished). */
	const int of_age = XL_GL_QUERIES + 5 - XL_GL_REQUEST_AGE;
	assert_int_equal(f.requests, of_age);
	assert_true(f.reasks > 0);
	finish_up_to(XL_GL_QUERIES);
	/* Asked again, now written; the ring still full on this frame. */
	assert_int_equal(stamp(gl, 30, true), XL_GL_OVERFLOW);
	assert_int_equal(stamp(gl, 31, true), XL_GL_STAMPED);
	drain(gl, &c);
	/* The thirteen and the one that came of age at frame 30. */
	assert_int_equal(c.n, of_age + 1);
	for (unsigned i = 0; i < c.n; i++)
		assert_int_equal(c.s[i].display_time, 100 + 1 + i);
	assert_int_equal(f.counters, XL_GL_QUERIES + 1);
	end_undisturbed(gl);
}

/*
 * A request's copy is GPU work: pre asks before its timestamp, post after
 * its own and before its flush, so neither lands between the two.
 */
static void test_buffer_request_order(void **state)
{
	(void)state;
	for (int post = 0; post <= 1; post++) {
		struct xl_gl *gl = create_with(true, NULL);
		for (uint64_t frame = 1; frame <= 3 * XL_GL_REQUEST_AGE; frame++) {
			finish_up_to(frame - 1);
			assert_int_equal(stamp(gl, frame, post), XL_GL_STAMPED);
		}
		assert_int_equal(f.requests, 2 * XL_GL_REQUEST_AGE);
		assert_int_equal(f.requests_before_counter, post ? 0 : f.buffer_calls);
		assert_int_equal(f.requests_after_counter, post ? f.buffer_calls : 0);
		assert_int_equal(f.requests_after_flush, 0);
		end_undisturbed(gl);
	}
}

/*
 * Frames not recorded after a stop (xl_gl_idle): they age the queries, ask
 * for each result once and read them all back, issuing nothing; a frame
 * without the context current does nothing and keeps them in flight.
 */
static void test_buffer_idle(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t frame = 1;

	for (; frame <= 3; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	finish_up_to(3);
	f.current = NULL;
	f.frame = frame++;
	assert_true(xl_gl_idle(gl));
	f.current = binding_context();
	f.in_idle = true;
	bool in_flight = true;
	for (int idle = 0; in_flight && idle < 2 * XL_GL_REQUEST_AGE; idle++) {
		f.frame = frame++;
		in_flight = xl_gl_idle(gl);
	}
	assert_false(in_flight);
	/* The last query came of age (XL_GL_IDLE_AGE after a stop) on the
	 * second idle frame with the context (the one without it not counted),
	 * read a frame later. */
	assert_int_equal(frame - 1, 3 + 1 + XL_GL_IDLE_AGE + 1);
	assert_int_equal(f.requests, 3);
	assert_int_equal(f.counters, 3);
	assert_false(xl_gl_idle(gl));
	drain(gl, &c);
	assert_int_equal(c.n, 3);
	for (unsigned i = 0; i < c.n; i++)
		assert_int_equal(c.s[i].display_time, 100 + 1 + i);
	end_undisturbed(gl);
}

/* The same after a stop with the glGetQueryObject readback: results polled, nothing asked. */
static void test_idle_objects(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	struct collected c = {0};
	uint64_t frame = 1;

	for (; frame <= 3; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	finish_up_to(3);
	f.frame = frame++;
	assert_false(xl_gl_idle(gl));
	assert_int_equal(f.requests, 0);
	assert_int_equal(f.result_reads, 3);
	drain(gl, &c);
	assert_int_equal(c.n, 3);
	end_undisturbed(gl);
}

/*
 * A cell the driver never writes (a reset context, say): XL_GL_CELL_PATIENCE
 * frames after its request the session reads back with glGetQueryObject,
 * every result comes, timestamps go on, and the writer says why once.
 */
static void test_buffer_stuck(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t frame = 1;

	f.drop_writes = true;
	for (; frame <= XL_GL_REQUEST_AGE + XL_GL_CELL_PATIENCE; frame++) {
		finish_up_to(frame - 1);
		stamp(gl, frame, true);
		assert_false(atomic_load(&gl->cells_stuck));
		assert_int_equal(f.result_reads, 0);
	}
	/* The first query was asked at frame 1 + XL_GL_REQUEST_AGE. */
	for (; frame <= 1 + XL_GL_REQUEST_AGE + XL_GL_CELL_PATIENCE; frame++) {
		finish_up_to(frame - 1);
		stamp(gl, frame, true);
	}
	assert_true(atomic_load(&gl->cells_stuck));
	/* That frame's poll already read the finished ones back with glGetQueryObject. */
	assert_true(f.result_reads > 0);
	unsigned requests = f.requests;
	for (uint64_t end = frame + 2 * XL_GL_QUERIES; frame < end; frame++) {
		finish_up_to(frame - 1);
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	}
	assert_int_equal(f.requests, requests);
	drain(gl, &c);
	/* The first 16 frames', then (those between found the pool full) the later ones'. */
	assert_true(c.n >= 2 * XL_GL_QUERIES);
	for (unsigned i = 0; i < c.n; i++) {
		if (i < XL_GL_QUERIES)
			assert_int_equal(c.s[i].display_time, 100 + 1 + i);
		else
			assert_true(c.s[i].display_time > c.s[i - 1].display_time);
	}
	drain(gl, &c);
	assert_int_equal(f.stuck_logs, 1); /* said once, however often the writer looks */
	f.in_finish = true;
	end_undisturbed(gl);
}

/*
 * A result written as two 32-bit halves, the low first: the cell read in
 * between is not taken (its high half is the sentinel's); a real value
 * whose low half is all ones is, once two polls read it the same.
 */
static void test_buffer_torn(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t frame = 1;

	f.torn_writes = true;
	for (; frame <= XL_GL_REQUEST_AGE + 1; frame++) {
		finish_up_to(frame - 1);
		stamp(gl, frame, true);
	}
	assert_int_equal(f.requests, 1);
	assert_int_equal(f.torn, 1);
	f.in_idle = true;
	f.frame = frame++;
	xl_gl_idle(gl);
	drain(gl, &c);
	assert_int_equal(c.n, 0);
	/* Meanwhile the idle frame asked for frames 2-8 (XL_GL_IDLE_AGE), torn too. */
	assert_int_equal(f.torn, XL_GL_REQUEST_AGE);
	complete_torn();
	f.frame = frame++;
	xl_gl_idle(gl);
	drain(gl, &c);
	assert_int_equal(c.n, XL_GL_REQUEST_AGE);
	for (unsigned i = 0; i < c.n; i++)
		assert_int_equal(c.s[i].ticks, 1000 + 10 * (i + 1));

	/* A whole write of a value with an all-ones low half. */
	f.torn_writes = false;
	uint32_t slot = gl->tail % XL_GL_QUERIES;
	f.frame = frame++;
	xl_gl_idle(gl); /* asks for the next results */
	assert_int_equal(gl->tail % XL_GL_QUERIES, slot);
	gl->cells[slot] = 0x12345678ffffffffull;
	f.frame = frame++;
	xl_gl_idle(gl);
	drain(gl, &c);
	assert_int_equal(c.n, 0);
	f.frame = frame++;
	xl_gl_idle(gl);
	drain(gl, &c);
	assert_true(c.n >= 1);
	assert_int_equal(c.s[0].ticks, 0x12345678ffffffffull);
	f.in_finish = true;
	f.overwrites = 0; /* the test wrote that cell itself */
	end_undisturbed(gl);
}

/* xrDestroySession without the context current: no GL call, the buffer left to the context. */
static void test_buffer_finish_not_current(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);

	for (uint64_t frame = 1; frame <= 3; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	unsigned calls = f.calls;
	f.current = NULL;
	xl_gl_finish(gl, 0);
	assert_int_equal(f.calls, calls);
	assert_int_equal(f.unmaps, 0);
	assert_int_equal(f.buffers_deleted, 0);
	assert_undisturbed();
	xl_gl_destroy(gl);
}

/* xrDestroySession: the rest asked and flushed, every result read, the buffer unmapped and deleted. */
static void test_buffer_finish(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};

	for (uint64_t frame = 1; frame <= 3; frame++)
		assert_int_equal(stamp(gl, frame, false), XL_GL_STAMPED);
	finish_up_to(3);
	f.frame = 4;
	f.in_finish = true;
	xl_gl_finish(gl, FINISH_NS);
	assert_int_equal(f.requests, 3);
	assert_int_equal(f.flushes, 1);
	assert_int_equal(f.unmaps, 1);
	assert_false(f.mapped);
	assert_int_equal(f.buffers_deleted, 1);
	assert_int_equal(f.deleted, XL_GL_QUERIES);
	assert_false(xl_gl_collect(gl, 1, emit, &c));
	assert_int_equal(c.n, 3);
	assert_undisturbed();
	xl_gl_destroy(gl);
}

/*
 * Requests never wait: each asks GL_QUERY_RESULT_NO_WAIT (and the mark's
 * GL_QUERY_RESULT_AVAILABLE), never GL_QUERY_RESULT. On a GPU that runs
 * the requests when the test says (deferred) and finishes queries late, a
 * request that ran before its query finished leaves the cell as it was
 * and the query is asked again on a later frame, once that request has
 * run (never while it may still be queued, so no request of a query runs
 * after the query was issued anew), until its result is written and read:
 * every frame's value comes, once, in order.
 */
static void test_buffer_no_wait(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t frame = 1, expected = 1;

	f.deferred = true;
	for (; frame <= XL_GL_REQUEST_AGE + 1; frame++)
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	assert_int_equal(f.requests, 1);
	gpu_run(); /* query 1 not finished: nothing written */
	assert_int_equal(f.cells[0], PENDING);
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	assert_int_equal(f.reasks, 1); /* its request ran: asked again */
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	assert_int_equal(f.reasks, 1); /* that one still queued: not asked over it */
	finish_up_to(frame - 1);
	gpu_run();
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	drain(gl, &c);
	assert_int_equal(c.n, 3); /* queries 1 to 3: 3 came of age at frame 11 */
	for (unsigned i = 0; i < c.n; i++, expected++)
		assert_int_equal(c.s[i].ticks, 1000 + 10 * expected);
	/* A GPU that finishes queries 15 frames late and runs requests every
	 * third frame: the ring fills, the frames that find it full overflow,
	 * every stamped frame's value comes in order. */
	unsigned stamped = XL_GL_REQUEST_AGE + 4, overflows = 0;
	int64_t last = 100 + 3;
	for (; frame <= 300; frame++) {
		if (frame > 15)
			finish_up_to(frame - 15);
		if (frame % 3 == 0)
			gpu_run();
		if (stamp(gl, frame, frame % 2) == XL_GL_STAMPED)
			stamped++;
		else
			overflows++;
		drain(gl, &c);
		for (unsigned i = 0; i < c.n; i++, expected++) {
			assert_true(c.s[i].display_time > last);
			last = c.s[i].display_time;
			assert_int_equal(c.s[i].ticks, 1000 + 10 * (uint64_t)(last - 100));
		}
	}
	assert_true(f.reasks > 10);
	assert_true(expected - 1 + xl_gl_pending(gl) == stamped);
	assert_true(expected > 200);
	assert_true(overflows > 0);
	assert_int_equal(f.requests_after_flush, 0);
	f.in_finish = true;
	end_undisturbed(gl);
}

/*
 * A request's result copy has run, its mark's not yet (they are two
 * copies): the result is not taken until the mark is written too, for only
 * then has every request of that query run, and none can land on the cell
 * once it is reused for a later query (xl_gl.c, poll_cells). Then it comes.
 */
static void test_buffer_mark_first(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);
	struct collected c = {0};
	uint64_t frame = 1;

	f.deferred = true;
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	finish_up_to(1);
	while (f.requests == 0)
		assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	gpu_run_first(1); /* query 1's result into its cell; its mark still to come */
	assert_int_not_equal(f.cells[0], PENDING);
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	drain(gl, &c);
	assert_int_equal(c.n, 0);
	gpu_run();
	assert_int_equal(stamp(gl, frame++, true), XL_GL_STAMPED);
	drain(gl, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.s[0].ticks, 1000 + 10);
	f.in_finish = true;
	end_undisturbed(gl);
}

/*
 * xrDestroySession with the last queries unfinished: the rest asked with
 * NO_WAIT and flushed, asked again (and flushed) each step while they run,
 * every result read once written; queries that never finish: the bound
 * ends it, its steps counted, no request that waits.
 */
static void test_buffer_finish_unfinished(void **state)
{
	(void)state;
	for (int never = 0; never <= 1; never++) {
		struct xl_gl *gl = create_with(true, NULL);
		struct collected c = {0};

		for (uint64_t frame = 1; frame <= 3; frame++)
			assert_int_equal(stamp(gl, frame, false), XL_GL_STAMPED);
		f.done_after_asks = never ? 0 : 3; /* done by the third request */
		f.frame = 4;
		f.in_finish = true;
		xl_gl_finish(gl, FINISH_NS);
		assert_int_equal(f.waiting_requests, 0);
		assert_int_equal(f.requests, 3);
		if (never) {
			/* One step a millisecond, FINISH_NS / 1 ms steps and the last. */
			const unsigned steps = (unsigned)(FINISH_NS / 1000000ull) + 1;
			assert_int_equal(f.flushes, steps);
			assert_int_equal(f.reasks, 3 * (steps - 1));
		} else {
			assert_int_equal(f.flushes, 3);
			assert_int_equal(f.reasks, 3 * 2);
		}
		assert_int_equal(f.unmaps, 1);
		assert_int_equal(f.deleted, XL_GL_QUERIES);
		assert_false(xl_gl_collect(gl, 1, emit, &c));
		assert_int_equal(c.n, never ? 0 : 3);
		assert_undisturbed();
		xl_gl_destroy(gl);
	}
}

/*
 * Which readback: the mapped buffer on GL 4.5, or on an older context that
 * lists the three extensions; glGetQueryObject without them, or with one
 * entry point missing (still timestamps, not "unsupported").
 */
static void test_buffer_needs(void **state)
{
	(void)state;
	static const struct {
		const char *version;
		bool dsa_extensions;
		bool no_qbo;
		const char *missing;
		bool mapped;
	} cases[] = {
		{"4.5 (Core Profile) fake", false, false, NULL, true},
		{"4.3 (Core Profile) fake", true, false, NULL, true},
		{"4.3 (Core Profile) fake", true, true, NULL, false},
		{"4.3 (Core Profile) fake", false, false, NULL, false},
		{"4.6 (Core Profile) fake", false, false, "glGetQueryBufferObjectui64v", false},
		{"4.6 (Core Profile) fake", false, false, "glUnmapNamedBuffer", false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xl_gl *gl = create_with(true, cases[i].missing);
		f.version = cases[i].version;
		f.dsa_extensions = cases[i].dsa_extensions;
		f.no_qbo = cases[i].no_qbo;
		for (uint64_t frame = 1; frame <= XL_GL_REQUEST_AGE + 2; frame++) {
			finish_up_to(frame - 1);
			assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
		}
		assert_int_equal(atomic_load(&gl->status), XL_GL_STATUS_READY);
		assert_int_equal(gl->mapped_readback, cases[i].mapped);
		assert_int_equal(f.buffers_created, cases[i].mapped);
		assert_int_equal(f.requests > 0, cases[i].mapped);
		assert_int_equal(f.result_reads > 0, !cases[i].mapped);
		end_undisturbed(gl);
	}
}


/*
 * Timer queries found by the context's version: GL 3.0 and later list
 * extensions by index (a core context's glGetString(GL_EXTENSIONS) has
 * none); older ones in one string, where a name must match whole, first
 * and last in the list included.
 */
static void test_extension_lists(void **state)
{
	(void)state;
	static const struct {
		const char *version;
		const char *string; /* GL_EXTENSIONS for glGetString */
		bool indexed;       /* the index list has GL_ARB_timer_query */
		bool supported;
	} cases[] = {
		{"3.3 (Core Profile) fake", NULL, true, true},
		{"3.0 fake", NULL, true, true},
		{"2.1 fake", "GL_ARB_timer_query GL_EXT_other", false, true},
		{"2.1 fake", "GL_EXT_other GL_ARB_timer_query", false, true},
		{"2.1 fake", "GL_EXT_a GL_ARB_timer_query GL_EXT_b", false, true},
		{"2.1 fake", "XGL_ARB_timer_query GL_EXT_other", false, false},
		{"2.1 fake", "GL_EXT_other GL_ARB_timer_query_2", false, false},
		{"2.1 fake", "", true, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xl_gl *gl = create();
		f.version = cases[i].version;
		f.ext_string = cases[i].string;
		f.timer_query = cases[i].indexed;
		enum xl_gl_stamp_result r = stamp(gl, 1, true);
		assert_int_equal(r, cases[i].supported ? XL_GL_STAMPED : XL_GL_SKIPPED);
		assert_int_equal(atomic_load(&gl->status),
		                 cases[i].supported ? XL_GL_STATUS_READY : XL_GL_STATUS_UNSUPPORTED);
		end_undisturbed(gl);
	}
}

/*
 * A required entry point the binding's getProcAddress does not give: no
 * state, and which one; eglGetCurrentContext, when it does not give that,
 * is looked up in the process (this test exports its own).
 */
static void test_entry_points(void **state)
{
	(void)state;
	char why[160] = "";

	assert_null(try_create(false, "glQueryCounter", why, sizeof(why)));
	assert_string_equal(why, "glQueryCounter is missing");
	struct xl_gl *gl = try_create(false, "eglGetCurrentContext", why, sizeof(why));
	assert_non_null(gl);
	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	f.current = NULL;
	assert_int_equal(stamp(gl, 2, true), XL_GL_SKIPPED);
	f.current = binding_context();
	end_undisturbed(gl);
}

/* A binding without a context: no state, and why. */
static void test_no_context(void **state)
{
	(void)state;
	XrGraphicsBindingEGLMNDX b = {
		.type = XR_TYPE_GRAPHICS_BINDING_EGL_MNDX,
		.getProcAddress = fake_getproc,
		.display = (EGLDisplay)&f,
		.context = NULL,
	};
	char why[160] = "";
	memset(&f, 0, sizeof(f));
	assert_null(xl_gl_create((XrSession)(uintptr_t)1, (const XrBaseInStructure *)&b, why,
	                         sizeof(why)));
	assert_string_equal(why, "the binding has no EGL context");
	assert_int_equal(f.calls, 0);
}

/*
 * A GL 4.4 context has query buffer objects in core whether or not it
 * lists the extension: a buffer the app bound to GL_QUERY_BUFFER is
 * stepped around there too.
 */
static void test_query_buffer_core(void **state)
{
	(void)state;
	struct xl_gl *gl = create();

	f.version = "4.4 (Core Profile) fake";
	f.no_qbo = true;
	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	f.query_buffer = 7;
	finish_up_to(1);
	assert_int_equal(stamp(gl, 2, true), XL_GL_STAMPED);
	assert_int_equal(f.result_reads, 1);
	assert_int_equal(f.query_buffer, 7);
	end_undisturbed(gl);
}

/*
 * Nothing in flight: no GL call to read back (glGetIntegerv of the query
 * buffer binding would make a glthread application wait for its GL thread).
 */
static void test_nothing_in_flight(void **state)
{
	(void)state;
	struct xl_gl *gl = create();

	assert_int_equal(stamp(gl, 1, true), XL_GL_STAMPED);
	assert_int_equal(f.binding_reads, 0);
	finish_up_to(1);
	assert_int_equal(stamp(gl, 2, true), XL_GL_STAMPED);
	assert_int_equal(f.binding_reads, 1);
	end_undisturbed(gl);
}

/* A mapping that fails: the buffer deleted, the glGetQueryObject readback used. */
static void test_buffer_map_fails(void **state)
{
	(void)state;
	struct xl_gl *gl = create_with(true, NULL);

	f.map_fails = true;
	for (uint64_t frame = 1; frame <= 3; frame++) {
		finish_up_to(frame - 1);
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	}
	assert_false(gl->mapped_readback);
	assert_int_equal(f.buffers_created, 1);
	assert_int_equal(f.buffers_deleted, 1);
	assert_int_equal(f.result_reads, 2);
	assert_int_equal(f.requests, 0);
	end_undisturbed(gl);
	assert_int_equal(f.buffers_deleted, 1); /* not again at the end */
}

/*
 * A writer that falls behind: the samples beyond what the ring holds are
 * counted lost, and those kept are the oldest, whole and in order (none
 * written over before the writer took it).
 */
static void test_writer_behind(void **state)
{
	(void)state;
	struct xl_gl *gl = create();
	struct collected c = {0};
	const unsigned frames = XL_GL_DONE + 10;

	/* The calibration takes one entry of the ring. */
	for (uint64_t frame = 1; frame <= frames; frame++) {
		finish_up_to(frame - 1);
		assert_int_equal(stamp(gl, frame, true), XL_GL_STAMPED);
	}
	/* Frames 1 .. frames - 1 read back: one calibration and frames - 1 samples offered. */
	assert_int_equal(atomic_load(&gl->done_overflow), frames - XL_GL_DONE);
	drain(gl, &c);
	assert_int_equal(c.n, XL_GL_DONE - 1);
	for (unsigned i = 0; i < c.n; i++)
		assert_int_equal(c.s[i].display_time, 100 + 1 + i);
	end_undisturbed(gl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readback_never_blocks),
		cmocka_unit_test(test_pool_full_overflows),
		cmocka_unit_test(test_query_buffer_restored),
		cmocka_unit_test(test_not_current_skips),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_counter_bits),
		cmocka_unit_test(test_finish_deletes),
		cmocka_unit_test(test_buffer_readback),
		cmocka_unit_test(test_buffer_pool_full),
		cmocka_unit_test(test_buffer_request_order),
		cmocka_unit_test(test_buffer_idle),
		cmocka_unit_test(test_idle_objects),
		cmocka_unit_test(test_buffer_stuck),
		cmocka_unit_test(test_buffer_torn),
		cmocka_unit_test(test_buffer_finish_not_current),
		cmocka_unit_test(test_buffer_finish),
		cmocka_unit_test(test_buffer_no_wait),
		cmocka_unit_test(test_buffer_mark_first),
		cmocka_unit_test(test_buffer_finish_unfinished),
		cmocka_unit_test(test_buffer_needs),
		cmocka_unit_test(test_extension_lists),
		cmocka_unit_test(test_entry_points),
		cmocka_unit_test(test_no_context),
		cmocka_unit_test(test_query_buffer_core),
		cmocka_unit_test(test_nothing_in_flight),
		cmocka_unit_test(test_buffer_map_fails),
		cmocka_unit_test(test_writer_behind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
