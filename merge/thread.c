/*
 * The merge's threads and xrlm's reserve of their stacks; see thread.h.
 */
#include "thread.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Enough for the threads one merge runs at once on WORKERS_MAX CPUs (four
 * readers, the calls files' readers and sandwich, the prefault, the row
 * writers, the statistics); the rare one beyond gets glibc's stack.
 */
#define STACKS_MAX 40
/* The merge's threads use tens of KiB (gcc -fstack-usage); glibc keeps
 * the thread's descriptor and static TLS at the stack's top. TSan keeps
 * ~900 KiB of its thread state in static TLS: glibc refuses a smaller
 * stack (EINVAL, and thread_start() falls back on its own). */
#if defined(__SANITIZE_THREAD__)
#define STACK_BYTES ((size_t)2 << 20)
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STACK_BYTES ((size_t)2 << 20)
#endif
#endif
#ifndef STACK_BYTES
#define STACK_BYTES ((size_t)512 << 10)
#endif

/* Linux 6.13's guard pages without a mapping of their own (Debian 12's headers lack it). */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

static char *stacks;         /* the reserve: STACKS_MAX × (guard, stack) */
static size_t guard_bytes;   /* a page */
static atomic_bool taken[STACKS_MAX];

int thread_stacks_reserve(void)
{
	long page = sysconf(_SC_PAGESIZE);

	if (stacks || page <= 0)
		return stacks ? 0 : -1;
	size_t each = (size_t)page + STACK_BYTES;
	char *p = mmap(NULL, STACKS_MAX * each, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* A stack that overflows faults on its guard instead of writing over
	 * the stack below it. A guard installed by madvise() leaves the
	 * mapping whole, where mprotect() splits it in two at every guard:
	 * 40 of them took 0.11 ms on the device's VMs, the main thread's
	 * before a merge's first thread (bench/RESULTS.md, nineteenth and
	 * twenty-seventh sessions). Kernels before 6.13 refuse it (EINVAL):
	 * mprotect() then. */
	bool advise = true;
	for (int i = 0; i < STACKS_MAX; i++) {
		char *guard = p + (size_t)i * each;
		if (advise && madvise(guard, (size_t)page, MADV_GUARD_INSTALL) == 0)
			continue;
		advise = false;
		if (mprotect(guard, (size_t)page, PROT_NONE) != 0) {
			munmap(p, STACKS_MAX * each);
			return -1;
		}
	}
	guard_bytes = (size_t)page;
	stacks = p;
	return 0;
}

/* A free reserved stack, taken: its index, or -1. */
static int take_stack(void)
{
	if (!stacks)
		return -1;
	for (int i = 0; i < STACKS_MAX; i++)
		if (!atomic_load_explicit(&taken[i], memory_order_relaxed) &&
		    !atomic_exchange(&taken[i], true))
			return i;
	return -1;
}

/* Starts @p t on reserved stack @p i. Returns 0 or an errno value. */
static int start_on(struct thread *t, int i, void *(*fn)(void *), void *arg)
{
	char *base = stacks + (size_t)i * (guard_bytes + STACK_BYTES) + guard_bytes;
	pthread_attr_t attr;
	int err = pthread_attr_init(&attr);

	if (err)
		return err;
	err = pthread_attr_setstack(&attr, base, STACK_BYTES);
	if (!err)
		err = pthread_create(&t->id, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

int thread_start(struct thread *t, void *(*fn)(void *), void *arg)
{
	t->stack = take_stack();
	if (t->stack >= 0) {
		if (start_on(t, t->stack, fn, arg) == 0)
			return 0;
		atomic_store(&taken[t->stack], false);
		t->stack = -1;
	}
	return pthread_create(&t->id, NULL, fn, arg);
}

void thread_join(struct thread *t)
{
	pthread_join(t->id, NULL);
	/* Joined: the thread runs on its stack no more. */
	if (t->stack >= 0)
		atomic_store(&taken[t->stack], false);
	t->stack = -1;
}
