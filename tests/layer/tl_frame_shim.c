/*
 * LD_PRELOAD shim (test fixture only) of frame_allocs.sh: counts the
 * allocations (malloc, calloc, realloc, the aligned ones) and the
 * pthread_mutex_lock calls the main thread, the test app's frame thread,
 * makes, and writes "<allocations> <locks>" to the file
 * XRLM_TEST_SHIM_COUNTS names when the process exits. Other threads'
 * calls are not counted. Under ASan, whose allocator comes first, it sees
 * no allocation (the test says so instead of passing).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc's own allocator, under the names it exports for interposers. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

static __thread int main_thread = -1;
static atomic_ullong allocations, locks;

static int on_main_thread(void)
{
	if (main_thread < 0)
		main_thread = syscall(SYS_gettid) == getpid();
	return main_thread;
}

static void count_allocation(void)
{
	if (on_main_thread())
		atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

__attribute__((visibility("default"))) void *malloc(size_t size)
{
	count_allocation();
	return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t n, size_t size)
{
	count_allocation();
	return __libc_calloc(n, size);
}

__attribute__((visibility("default"))) void *realloc(void *p, size_t size)
{
	count_allocation();
	return __libc_realloc(p, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t align, size_t size)
{
	count_allocation();
	return __libc_memalign(align, size);
}

/* As glibc's: EINVAL for an alignment that is not a power of two times
 * sizeof(void *), and *p written only on success. */
__attribute__((visibility("default"))) int posix_memalign(void **p, size_t align, size_t size)
{
	count_allocation();
	if (align % sizeof(void *) != 0 || (align & (align - 1)) != 0 || align == 0)
		return EINVAL;
	void *got = __libc_memalign(align, size);
	if (!got)
		return ENOMEM;
	*p = got;
	return 0;
}

__attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	if (!real)
		real = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	if (on_main_thread())
		atomic_fetch_add_explicit(&locks, 1, memory_order_relaxed);
	return real(m);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("XRLM_TEST_SHIM_COUNTS");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		return;
	fprintf(f, "%llu %llu\n", (unsigned long long)atomic_load(&allocations),
	        (unsigned long long)atomic_load(&locks));
	fclose(f);
}
