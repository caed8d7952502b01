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

static struct fake {
	int context_token;     /* the binding's context is its address */
	void *current;         /* what eglGetCurrentContext answers */
	bool timer_query;      /* GL_ARB_timer_query listed */
	GLint counter_bits;
	GLuint query_buffer;   /* bound to GL_QUERY_BUFFER */
	uint64_t frame;        /* the test's frame number, set before each stamp */
	struct {
		bool issued;
		bool done;          /* the fake GPU wrote it */
		bool seen_available;
		uint64_t frame;     /* the frame it was issued in */
		uint64_t value;
	} q[FAKE_QUERIES + 1]; /* by name; 0 unused */
	GLuint next_name;
	unsigned calls;                 /* every GL call but the current-context check */
	unsigned gen_calls, delete_calls, deleted, counters, flushes, result_reads, timestamp_reads;
	unsigned blocking_reads;        /* GL_QUERY_RESULT not known available */
	unsigned same_frame_polls;      /* availability of this frame's own query */
	unsigned reads_into_buffer;     /* a result read with GL_QUERY_BUFFER bound */
	unsigned calls_not_current;     /* GL calls without the context current */
} f;

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

static const GLubyte *fake_get_string(GLenum name)
{
	call();
	return (const GLubyte *)(name == GL_VERSION ? "4.5 (Core Profile) fake" : "");
}

static const char *const extensions[] = {"GL_ARB_timer_query", "GL_ARB_query_buffer_object"};

static const GLubyte *fake_get_stringi(GLenum name, GLuint i)
{
	call();
	if (name != GL_EXTENSIONS || i >= 2)
		return NULL;
	return (const GLubyte *)extensions[f.timer_query ? i : i + 1];
}

static void fake_get_integerv(GLenum pname, GLint *v)
{
	call();
	if (pname == GL_NUM_EXTENSIONS)
		*v = f.timer_query ? 2 : 1;
	else if (pname == GL_QUERY_BUFFER_BINDING)
		*v = (GLint)f.query_buffer;
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
	f.q[id].value = 1000 + 10 * f.frame;
	f.counters++;
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
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(name, table[i].name) == 0) {
			PFN_xrVoidFunction fn;
			memcpy(&fn, &table[i].fn, sizeof(fn));
			return fn;
		}
	}
	return NULL;
}

static struct xl_gl *create(void)
{
	memset(&f, 0, sizeof(f));
	f.current = binding_context();
	f.timer_query = true;
	f.counter_bits = 64;
	XrGraphicsBindingEGLMNDX b = {
		.type = XR_TYPE_GRAPHICS_BINDING_EGL_MNDX,
		.getProcAddress = fake_getproc,
		.display = (EGLDisplay)&f,
		.context = binding_context(),
	};
	char why[160] = "";
	struct xl_gl *gl = xl_gl_create((XrSession)(uintptr_t)1, (const XrBaseInStructure *)&b, why,
	                                sizeof(why));
	assert_non_null(gl);
	return gl;
}

static enum xl_gl_stamp_result stamp(struct xl_gl *gl, uint64_t frame, bool flush)
{
	f.frame = frame;
	return xl_gl_stamp(gl, (int64_t)(100 + frame), 1, flush);
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
	assert_int_equal(stamp(gl, XL_GL_QUERIES + 1, true), XL_GL_OVERFLOW);
	assert_int_equal(f.counters, XL_GL_QUERIES);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readback_never_blocks),
		cmocka_unit_test(test_pool_full_overflows),
		cmocka_unit_test(test_query_buffer_restored),
		cmocka_unit_test(test_not_current_skips),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_finish_deletes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
