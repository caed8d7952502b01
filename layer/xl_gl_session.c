/*
 * The XrSession hooks' OpenGL half; see xl_gl_session.h.
 */
#include "xl_gl_session.h"

#include "xl_instance.h"
#include "xl_log.h"

/* How long xrDestroySession waits for the last timestamps and the writer. */
#define FINISH_NS 100000000ull

void xl_gl_session_start(struct xl_instance *in, XrSession session,
                         const XrBaseInStructure *binding)
{
	char why[160];

	if (!xl_gpu_holder_claim(&in->gpu, session)) {
		xl_log("GPU: a second concurrent session is not measured on the GPU");
		return;
	}
	struct xl_gl *gl = xl_gl_create(session, binding, why, sizeof(why));
	if (!gl) {
		xl_gpu_holder_release(&in->gpu);
		xl_log("GPU timestamps unavailable (OpenGL: %s): GPU columns stay blank", why);
		return;
	}
	if (xl_side.index == XL_SIDE_PRE && in->settings.gpu_mode == XL_GPU_GATED)
		xl_log_loud("XRLM_GPU_MODE=gated is not possible for an OpenGL session (GL cannot "
		            "hold the target's work behind a gate); using the plain sandwich");
	pthread_mutex_lock(&in->gpu.lock);
	atomic_store(&in->gpu.gl, gl);
	pthread_mutex_unlock(&in->gpu.lock);
	xl_log("GPU timestamps: OpenGL session (%s context %p), GL_TIMESTAMP queries in "
	       "xrEndFrame, created on the first recorded frame", gl->window_system, gl->context);
}

/* Takes the GL state out of the holder, so the writer lets go of it. */
static struct xl_gl *take(struct xl_instance *in)
{
	pthread_mutex_lock(&in->gpu.lock);
	struct xl_gl *gl = atomic_exchange(&in->gpu.gl, NULL);
	pthread_mutex_unlock(&in->gpu.lock);
	return gl;
}

void xl_gl_session_end(struct xl_instance *in, XrSession session)
{
	/* The caller holds the claim: a state here is this session's. */
	struct xl_gl *gl = atomic_load(&in->gpu.gl);
	if (!gl || gl->session != session)
		return;
	xl_gl_finish(gl, FINISH_NS);
	xl_gl_destroy(take(in));
}

void xl_gl_session_abandon(struct xl_instance *in)
{
	struct xl_gl *gl = take(in);
	if (!gl)
		return;
	xl_log("xrDestroyInstance with an OpenGL session still alive: its query objects are "
	       "left to the application's context");
	xl_gl_destroy(gl);
}
