/*
 * Layer threads and bounded waits; see xl_thread.h.
 */
#include "xl_thread.h"

#include <errno.h>
#include <signal.h>
#include <time.h>

int xl_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, const char *name)
{
	sigset_t all, old;

	/* The new thread inherits the creator's mask: block everything around
	 * the creation, so it starts with every signal blocked. */
	sigfillset(&all);
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
