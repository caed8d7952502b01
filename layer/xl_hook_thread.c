/*
 * The session-closed hook's thread; see xl_hook_thread.h.
 */
#include "xl_hook_thread.h"

#include "xl_log.h"
#include "xl_thread.h"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Sets @p thread's scheduling policy (no priority: the normal ones); 0 or an errno value. */
static int set_policy(pthread_t thread, int policy)
{
	struct sched_param none = {0};
	return pthread_setschedparam(thread, policy, &none);
}

/*
 * Gives back to the system what the hook freed (malloc_trim), at the
 * thread's normal policy, never at SCHED_IDLE: malloc_trim locks every
 * malloc arena in turn, the application threads' too, and a SCHED_IDLE
 * thread starved while it held one stalled the application's mallocs
 * (worst 0.46-1.4 s with two CPU hogs on 2 CPUs; 37 ms at the normal
 * policy). Back to SCHED_OTHER first; its nice value is the one it had,
 * which no policy change touches (0 unless the application's was not).
 * Leaving SCHED_IDLE takes CAP_SYS_NICE, or an RLIMIT_NICE that allows the
 * thread's nice value (20 - nice: 20 for nice 0; the usual limit is 0:
 * sched(7), "SCHED_IDLE"): a thread that may not is not trimmed, said once.
 *
 * The hook's own mallocs stay at SCHED_IDLE. They lock one arena, the
 * thread's: glibc gives a thread its arena at its first malloc, one no
 * thread holds (left by a thread that exited) or a new one while the
 * process has fewer than 8 per CPU, and only past that limit one the
 * application's threads use too, the first it finds unlocked (else the
 * next in turn); the thread keeps it. Only then can a starved merge
 * holding it stall an application thread, for one malloc, not for a
 * trim's walk of every arena; most small blocks come from the thread's
 * cache without the lock, and the merge's large ones (64 KiB and up) are
 * mappings of their own (mem.h), no arena's. Its helper threads inherit
 * the policy and get arenas the same way.
 */
static void trim_memory(struct xl_hook_thread *t)
{
	int err = set_policy(pthread_self(), SCHED_OTHER);
	if (err) {
		if (!t->trim_refused)
			xl_log("merge thread: cannot leave SCHED_IDLE (%s: needs CAP_SYS_NICE or a "
			       "higher RLIMIT_NICE), so the memory merges free is not trimmed",
			       strerror(err));
		t->trim_refused = true;
		return;
	}
	malloc_trim(0);
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

static void *hook_main(void *arg)
{
	struct xl_hook_thread *t = arg;
	struct xl_hook_job job;

	while (next_job(t, &job)) {
		/* Idle priority while the application runs; normal once it stops
		 * (xl_hook_thread_stop() sets it too, after setting stop). */
		set_policy(pthread_self(), SCHED_IDLE);
		if (atomic_load(&t->stop))
			set_policy(pthread_self(), SCHED_OTHER);
		t->hook(t->ctx, job.id, job.tag, job.dir_fd);
		if (job.dir_fd >= 0)
			close(job.dir_fd);
		trim_memory(t);
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
		/* A hook already running at SCHED_IDLE finishes at the normal policy. */
		set_policy(t->thread, SCHED_OTHER);
		pthread_join(t->thread, NULL);
	}
	for (; t->count; t->count--, t->head = (t->head + 1) % XL_HOOK_QUEUE)
		if (t->jobs[t->head].dir_fd >= 0)
			close(t->jobs[t->head].dir_fd);
	t->started = false;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
}
