/*
 * Frame-thread cost frame by frame, hot or as a real application sees it:
 * every frame (xrWaitFrame, xrBeginFrame, xrEndFrame; the runtime unpaced,
 * so xrWaitFrame never sleeps) is bracketed by two clock reads, and
 * xrEndFrame alone by a third read nested inside (the same in every
 * configuration, so the brackets cancel in a paired difference):
 * "frame_ns ..." and "end_ns ..." lines.
 *
 *  - hot: frames back to back (--hz 0 --disturb-kb 0): caches and branch
 *    predictors stay warm, as in bx_cost.c;
 *  - cold: the program paces the frames itself at --hz, and between two
 *    frames touches --disturb-kb of its own memory (one write per cache
 *    line), as a real application's rendering and simulation would,
 *    evicting the layers' code and data from the caches.
 *
 * --threads N starts N idle threads first, in every configuration: glibc
 * takes cheaper paths while a process has a single thread (its
 * single-thread flag), and the layers' writer threads would otherwise make
 * the no-layer baseline the only single-threaded configuration.
 */
#include "bx_bench.h"

#include "bx_session.h"
#include "bx_stats.h"
#include "bx_time.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The idle threads wait here until the run ends. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static bool idle_done;

static void *idle_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&idle_lock);
	while (!idle_done)
		pthread_cond_wait(&idle_cond, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
	return NULL;
}

static uint64_t start_idle(pthread_t *threads, uint64_t n)
{
	uint64_t started = 0;
	while (started < n && pthread_create(&threads[started], NULL, idle_main, NULL) == 0)
		started++;
	return started;
}

static void stop_idle(pthread_t *threads, uint64_t n)
{
	pthread_mutex_lock(&idle_lock);
	idle_done = true;
	pthread_cond_broadcast(&idle_cond);
	pthread_mutex_unlock(&idle_lock);
	for (uint64_t i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
}

/* One write per cache line of @p buf: what an application's own frame does to the caches. */
static void disturb(volatile unsigned char *buf, size_t size)
{
	for (size_t i = 0; i < size; i += 64)
		buf[i]++;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000u), (long)(t_ns % 1000000000u)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

/* One frame: @p frame gets wait+begin+end, @p end xrEndFrame alone (nested brackets). */
static bool timed_frame(struct bx_session *s, double *frame, double *end)
{
	uint64_t t0 = bx_now_ns(), end_ns;
	if (!bx_session_frame(s, &end_ns))
		return false;
	*frame = (double)(bx_now_ns() - t0);
	*end = (double)end_ns;
	return true;
}

static bool run_paced(struct bx_session *s, const struct bx_opts *o, double *dur, double *end,
                      unsigned char *buf, size_t size)
{
	uint64_t period = o->hz ? 1000000000u / o->hz : 0, next = bx_now_ns();

	for (uint64_t i = 0; i < o->frames; i++) {
		if (period) {
			next += period;
			sleep_until(next);
		}
		if (size)
			disturb(buf, size);
		if (!timed_frame(s, &dur[i], &end[i]))
			return false;
		/* Events outside the bracket; unpaced, every 1000 frames. */
		if ((period || i % 1000 == 999) && !bx_session_poll(s))
			return false;
	}
	return true;
}

bool bx_run_paced(const struct bx_opts *o)
{
	pthread_t threads[16];
	uint64_t nthreads = start_idle(threads, o->threads < 16 ? o->threads : 16);
	size_t size = (size_t)o->disturb_kb * 1024;
	unsigned char *buf = size ? calloc(size, 1) : NULL;
	double *dur = calloc(o->frames ? o->frames : 1, sizeof(*dur));
	double *end = calloc(o->frames ? o->frames : 1, sizeof(*end));
	struct bx_session s = {0};

	bool ok = dur && end && (!size || buf) && nthreads == o->threads && bx_session_create(&s);
	for (uint64_t i = 0; ok && i < o->warmup; i++)
		ok = bx_session_frame(&s, NULL);
	ok = ok && bx_session_poll(&s) && run_paced(&s, o, dur, end, buf, size);
	bx_session_destroy(&s);
	stop_idle(threads, nthreads);
	if (ok) {
		bx_print_series("frame_ns", dur, o->frames);
		bx_print_series("end_ns", end, o->frames);
	}
	free(dur);
	free(end);
	free(buf);
	return ok;
}
