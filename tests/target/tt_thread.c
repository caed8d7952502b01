/*
 * The target's own worker thread (see tt_thread.h). It sleeps on a
 * condition variable with a CLOCK_MONOTONIC deadline, so stopping it wakes
 * it at once instead of after up to a whole period.
 */
#include "tt_thread.h"

#include "tt_burn.h"
#include "tt_layer.h"
#include "tt_log.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct tt_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop; /* guarded by lock */
	struct tt_calls calls;
	uint64_t period_ns;
	struct tt_call_ctx ctx;
	/* Only the thread writes these; read after the join. */
	uint64_t ticks;
	uint64_t failed;
};

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / 1000000000u),
	                         .tv_nsec = (long)(ns % 1000000000u)};
}

/* Waits until @p deadline or a stop; true if stopped. */
static bool wait_until(struct tt_thread *t, uint64_t deadline)
{
	struct timespec ts = ts_of(deadline);
	pthread_mutex_lock(&t->lock);
	while (!t->stop && tt_now_ns() < deadline)
		pthread_cond_timedwait(&t->cond, &t->lock, &ts);
	bool stop = t->stop;
	pthread_mutex_unlock(&t->lock);
	return stop;
}

static void *thread_main(void *arg)
{
	struct tt_thread *t = arg;
	uint64_t next = tt_now_ns() + t->period_ns;
	while (!wait_until(t, next)) {
		t->failed += tt_calls_make(&t->calls, &t->ctx, tt_session_time());
		t->ticks++;
		next += t->period_ns;
		/* Fell behind (a loaded machine): skip the missed ticks. */
		uint64_t now = tt_now_ns();
		if (next <= now)
			next += (now - next) / t->period_ns * t->period_ns + t->period_ns;
	}
	return NULL;
}

bool tt_thread_start(const struct tt_calls *calls, uint64_t hz, const struct tt_call_ctx *ctx,
                     struct tt_thread **out)
{
	*out = NULL;
	struct tt_thread *t = calloc(1, sizeof(*t));
	if (!t) {
		tt_log("own thread: out of memory");
		return false;
	}
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&t->lock, NULL);
	t->calls = *calls;
	t->period_ns = 1000000000u / hz;
	t->ctx = *ctx;
	int err = pthread_create(&t->thread, NULL, thread_main, t);
	if (err) {
		tt_log("own thread: pthread_create failed (error %d)", err);
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
		free(t);
		return false;
	}
	pthread_setname_np(t->thread, "xrlm-tt-own");
	*out = t;
	return true;
}

void tt_thread_stop(struct tt_thread **tp)
{
	struct tt_thread *t = *tp;
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	char calls[128];
	tt_calls_format(&t->calls, calls, sizeof(calls));
	tt_log("own thread: ticks=%llu calls=%llu failed=%llu (%s at %.1f Hz)",
	       (unsigned long long)t->ticks,
	       (unsigned long long)(t->ticks * tt_calls_total(&t->calls)),
	       (unsigned long long)t->failed, calls, 1e9 / (double)t->period_ns);
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t);
	*tp = NULL;
}
