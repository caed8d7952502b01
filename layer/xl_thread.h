/*
 * The layer's own threads (the writers, the gate's watchdog) and its bounded
 * waits. A layer thread must never take one of the application's signals
 * (but the faults its own code raises: see xl_thread_start), and no wait
 * of the layer may be unbounded: the application's shutdown must not hang
 * on the monitor.
 */
#ifndef XL_THREAD_H
#define XL_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Starts @p fn(@p arg) on a new thread named @p name, with every signal
 * blocked (they are the application's) but the synchronous faults
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS): blocked, a fault on
 * the thread would kill the process without running the application's
 * crash handler. Returns 0 or an errno value.
 */
int xl_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, const char *name);

/* Sleeps @p ns nanoseconds, also across signal interruptions. */
void xl_thread_sleep_ns(uint64_t ns);

/*
 * A sleep another thread can cut short: a thread's poll loop sleeps in it,
 * and whoever asks the thread to finish wakes it, so joining the thread
 * costs no part of its poll period (the process's exit must not wait up to
 * a period per thread). Once woken it stays woken: later sleeps return at
 * once.
 */
struct xl_sleeper {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on CLOCK_MONOTONIC */
	bool woken;
};

/* Initialises @p s (not woken). Returns 0 or an errno value. */
int xl_sleeper_init(struct xl_sleeper *s);

/* Destroys @p s; no thread may be sleeping in it. */
void xl_sleeper_destroy(struct xl_sleeper *s);

/* Sleeps up to @p ns nanoseconds, less when xl_sleeper_wake() is called. */
void xl_sleeper_sleep_ns(struct xl_sleeper *s, uint64_t ns);

/* Ends the current and every later sleep of @p s. */
void xl_sleeper_wake(struct xl_sleeper *s);

/*
 * Asks @p done(@p ctx) every @p step_ns until it answers true or
 * @p timeout_ns have passed (counted in steps: time spent in @p done is
 * not counted). Returns its last answer.
 */
bool xl_thread_wait(bool (*done)(void *ctx), void *ctx, uint64_t timeout_ns, uint64_t step_ns);

#endif /* XL_THREAD_H */
