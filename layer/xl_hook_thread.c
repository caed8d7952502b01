/*
 * The session-closed hook's thread; see xl_hook_thread.h.
 */
#include "xl_hook_thread.h"

#include "xl_thread.h"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

/*
 * Sets @p thread's scheduling policy (no priority: the normal ones). A
 * refusal (no CAP_SYS_NICE to leave SCHED_IDLE) leaves it as it was.
 */
static void set_policy(pthread_t thread, int policy)
{
	struct sched_param none = {0};
	pthread_setschedparam(thread, policy, &none);
}

/* One job on a worker thread of its own. */
struct hook_run {
	struct xl_hook_thread *t;
	const struct xl_hook_job *job;
};

/*
 * A worker: the hook at SCHED_IDLE, unless the stop came first (an
 * exiting process must not wait for a starved merge). Under the lock, so
 * that xl_hook_thread_stop() either sees it idle and raises it (where the
 * process may: CAP_SYS_NICE, or an RLIMIT_NICE that allows it, sched(7))
 * or keeps it from lowering itself. Its helper threads inherit the policy.
 */
static void *job_main(void *arg)
{
	const struct hook_run *r = arg;
	struct xl_hook_thread *t = r->t;

	pthread_mutex_lock(&t->lock);
	if (!atomic_load(&t->stop))
		set_policy(pthread_self(), SCHED_IDLE);
	pthread_mutex_unlock(&t->lock);
	t->hook(t->ctx, r->job->id, r->job->tag, r->job->dir_fd);
	/* From here the stop leaves this thread alone: it is about to end. */
	pthread_mutex_lock(&t->lock);
	t->worker_running = false;
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/*
 * Runs @p job's hook: on a worker at SCHED_IDLE while the application
 * runs, and here (this thread's normal policy) once stopping, or when no
 * worker can start. A worker, not this thread, goes idle: a thread without
 * CAP_SYS_NICE can never leave SCHED_IDLE, and this one must trim below.
 */
static void run_job(struct xl_hook_thread *t, const struct xl_hook_job *job)
{
	struct hook_run run = {t, job};
	bool started = false;

	/* Under the lock, which the worker takes first: worker_running is set
	 * before the worker can clear it. */
	if (!atomic_load(&t->stop)) {
		pthread_mutex_lock(&t->lock);
		started = xl_thread_start(&t->worker, job_main, &run, "xrlm-merge") == 0;
		t->worker_running = started;
		pthread_mutex_unlock(&t->lock);
	}
	if (started)
		pthread_join(t->worker, NULL);
	else
		t->hook(t->ctx, job->id, job->tag, job->dir_fd);
}

/*
 * The next job into @p job, waiting for one, the previous one done; false
 * once stopped and empty.
 */
static bool next_job(struct xl_hook_thread *t, struct xl_hook_job *job)
{
	pthread_mutex_lock(&t->lock);
	t->running_id = 0;
	while (!t->count && !atomic_load(&t->stop))
		pthread_cond_wait(&t->cond, &t->lock);
	bool got = t->count > 0;
	if (got) {
		*job = t->jobs[t->head];
		t->head = (t->head + 1) % XL_HOOK_QUEUE;
		t->count--;
		t->running_id = job->id;
	}
	pthread_mutex_unlock(&t->lock);
	return got;
}

/*
 * Each job, then what it freed given back to the system (malloc_trim) from
 * this thread, which is never at SCHED_IDLE: malloc_trim locks every malloc
 * arena in turn, the application threads' too, and a SCHED_IDLE thread
 * starved while it held one stalled the application's mallocs (worst
 * 0.46-1.4 s with two CPU hogs on 2 CPUs; 37 ms at the normal policy).
 *
 * The worker's own mallocs are at SCHED_IDLE. They lock one arena, the
 * thread's: glibc gives a thread its arena at its first malloc, one no
 * thread holds (left by a thread that exited) or a new one while the
 * process has fewer than 8 per CPU, and only past that limit one the
 * application's threads use too, the first it finds unlocked (else the
 * next in turn); the thread keeps it. Only then can a starved merge
 * holding it stall an application thread, for one malloc, not for a
 * trim's walk of every arena; most small blocks come from the thread's
 * cache without the lock, and the merge's large ones (64 KiB and up) are
 * mappings of their own (mem.h), no arena's.
 */
static void *hook_main(void *arg)
{
	struct xl_hook_thread *t = arg;
	struct xl_hook_job job;

	while (next_job(t, &job)) {
		run_job(t, &job);
		if (job.dir_fd >= 0)
			close(job.dir_fd);
		malloc_trim(0);
	}
	return NULL;
}

void xl_hook_thread_init(struct xl_hook_thread *t, xl_hook_fn hook, void *ctx)
{
	*t = (struct xl_hook_thread){.hook = hook, .ctx = ctx};
	atomic_init(&t->stop, false);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
}

bool xl_hook_thread_post(struct xl_hook_thread *t, uint32_t id, const char *tag, int dir_fd)
{
	struct xl_hook_job job = {.id = id, .dir_fd = -1};
	snprintf(job.tag, sizeof(job.tag), "%s", tag);

	pthread_mutex_lock(&t->lock);
	bool room = t->count < XL_HOOK_QUEUE;
	if (room && !t->started)
		t->started = xl_thread_start(&t->thread, hook_main, t, "xrlm-merge") == 0;
	bool queued = room && t->started;
	if (queued) {
		if (dir_fd >= 0)
			job.dir_fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
		t->jobs[(t->head + t->count) % XL_HOOK_QUEUE] = job;
		t->count++;
		pthread_cond_signal(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return queued;
}

uint32_t xl_hook_thread_busy_from(struct xl_hook_thread *t)
{
	pthread_mutex_lock(&t->lock);
	uint32_t oldest = t->running_id ? t->running_id : t->count ? t->jobs[t->head].id : 0;
	pthread_mutex_unlock(&t->lock);
	return oldest;
}

void xl_hook_thread_stop(struct xl_hook_thread *t)
{
	pthread_mutex_lock(&t->lock);
	atomic_store(&t->stop, true);
	pthread_cond_signal(&t->cond);
	bool started = t->started;
	pthread_mutex_unlock(&t->lock);
	if (started) {
		/* A hook already running at SCHED_IDLE finishes at the normal
		 * policy, where the process may raise it (see job_main()). */
		pthread_mutex_lock(&t->lock);
		if (t->worker_running)
			set_policy(t->worker, SCHED_OTHER);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
	}
	for (; t->count; t->count--, t->head = (t->head + 1) % XL_HOOK_QUEUE)
		if (t->jobs[t->head].dir_fd >= 0)
			close(t->jobs[t->head].dir_fd);
	t->started = false;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
}
