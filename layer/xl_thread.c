/*
 * Layer threads and bounded waits; see xl_thread.h.
 */
#include "xl_thread.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

/*
 * The signals a thread's own fault raises, synchronously, on that thread.
 * Left unblocked: the kernel kills the process with the default action
 * when one of them is blocked on the faulting thread, and the
 * application's crash handler (a report, a core of its own) would never
 * run. One sent with kill() may now reach a layer thread and run the
 * application's handler there, as it may on any of the application's own
 * threads.
 */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};

int xl_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, const char *name)
{
	sigset_t all, old;

	/* The new thread inherits the creator's mask: block everything around
	 * the creation but the faults, so it starts with every other signal
	 * blocked. */
	sigfillset(&all);
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		sigdelset(&all, fault_signals[i]);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err == 0)
		pthread_setname_np(*thread, name);
	return err;
}

void xl_thread_sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u),
	                      .tv_nsec = (long)(ns % 1000000000u)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int xl_sleeper_init(struct xl_sleeper *s)
{
	pthread_condattr_t attr;
	int err = pthread_condattr_init(&attr);

	s->woken = false;
	if (err)
		return err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&s->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (err)
		return err;
	err = pthread_mutex_init(&s->lock, NULL);
	if (err)
		pthread_cond_destroy(&s->cond);
	return err;
}

void xl_sleeper_destroy(struct xl_sleeper *s)
{
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}

void xl_sleeper_sleep_ns(struct xl_sleeper *s, uint64_t ns)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)(ns / 1000000000u);
	until.tv_nsec += (long)(ns % 1000000000u);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&s->lock);
	/* Returns on the deadline, on a wake, or (rarely) spuriously: the
	 * callers poll, so an early return costs one extra pass. */
	if (!s->woken)
		pthread_cond_timedwait(&s->cond, &s->lock, &until);
	pthread_mutex_unlock(&s->lock);
}

void xl_sleeper_wake(struct xl_sleeper *s)
{
	pthread_mutex_lock(&s->lock);
	s->woken = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

bool xl_thread_wait(bool (*done)(void *ctx), void *ctx, uint64_t timeout_ns, uint64_t step_ns)
{
	for (uint64_t waited = 0;; waited += step_ns) {
		if (done(ctx))
			return true;
		if (waited >= timeout_ns)
			return false;
		xl_thread_sleep_ns(step_ns);
	}
}
