/*
 * The thread that runs the writer's session-closed hook (post: the merge of
 * the session's files), so that the writer goes on draining the rings and
 * collecting GPU samples while a merge runs: a merge at SCHED_IDLE on a
 * loaded machine takes seconds, and a session started meanwhile would
 * lose its records and GPU samples to full rings and slots.
 *
 * Sessions wait in a small queue; the thread is started at the first one
 * and runs each hook on a worker thread of its own at SCHED_IDLE, so that
 * it never takes a core from the application's frame thread, giving the
 * memory back after each itself, at its normal policy (malloc_trim locks
 * the application's malloc arenas too; a thread without CAP_SYS_NICE that
 * went idle could never come back).
 */
#ifndef XL_HOOK_THREAD_H
#define XL_HOOK_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Sessions waiting for the hook at most; more are left to `xrlm merge DIR`. */
#define XL_HOOK_QUEUE 8
#define XL_HOOK_QUEUE_TEXT "8" /* for messages */

/* The hook: session @p id, named @p tag, whose files are in @p dir_fd. */
typedef void (*xl_hook_fn)(void *ctx, uint32_t id, const char *tag, int dir_fd);

struct xl_hook_job {
	uint32_t id;
	int dir_fd; /* the hook's own descriptor of the directory, closed after it */
	char tag[64];
};

struct xl_hook_thread {
	xl_hook_fn hook;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct xl_hook_job jobs[XL_HOOK_QUEUE];
	unsigned head, count; /* guarded by lock */
	uint32_t running_id;  /* guarded by lock: the session whose hook runs, 0: none */
	atomic_bool stop;     /* finish the queue, then return */
	bool started;         /* guarded by lock */
	bool worker_running;  /* guarded by lock: worker runs a job (cleared by it as it ends) */
	pthread_t thread;
	pthread_t worker;     /* the running job's thread, at SCHED_IDLE (guarded by lock) */
};

/* Prepares @p t to run @p hook with @p ctx; no thread yet. */
void xl_hook_thread_init(struct xl_hook_thread *t, xl_hook_fn hook, void *ctx);

/*
 * Queues session @p id (@p tag, files in @p dir_fd, duplicated) for the
 * hook, starting the thread at the first. Returns false, having queued
 * nothing, when the queue is full or the thread cannot start (started
 * then false): the caller leaves the session (post: to `xrlm merge`).
 */
bool xl_hook_thread_post(struct xl_hook_thread *t, uint32_t id, const char *tag, int dir_fd);

/* The oldest session whose hook is queued or running; 0 when none. */
uint32_t xl_hook_thread_busy_from(struct xl_hook_thread *t);

/*
 * Runs the queued hooks at the normal policy from now on (an exiting
 * process must not wait for a starved merge), lets the thread finish
 * them, and joins it.
 */
void xl_hook_thread_stop(struct xl_hook_thread *t);

#endif /* XL_HOOK_THREAD_H */
