/*
 * LD_PRELOAD shim (test fixture only) of exit_in_transition.sh: lands a
 * signal whose handler calls exit(0) on the frame thread while pre is
 * inside a recording start, as an application's SIGINT handler that
 * exits would. The start reads CLOCK_REALTIME (the session's slot) with
 * XL_BUSY held: the first such read from the code of pre's library in
 * REL_EXIT_RANGES ("offset:size,..." in hex, nm's), after REL_EXIT_SKIP
 * of them, raises SIGUSR1 there. Says so on stderr.
 *
 * With REL_EXIT_JOIN (exit_in_destroy.sh), the exit() comes instead while
 * xrDestroyInstance stops post's writer, at post's first pthread_join on
 * an application thread (not one of the layer's, which block the signal):
 *   same   the handler, on that thread, once the writer is joined
 *   other  another thread, before that thread joins the writer, which
 *          waits until a destructor of the layers sleeps on the exiting
 *          thread (waits for the stop: xl_thread_sleep_ns's nanosleep),
 *          or says it never did after 10 s
 * With REL_EXIT_CREATE, another thread calls exit() while pre's
 * xrCreateInstance starts its first thread (the writer), 300 ms before
 * that thread is created.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static atomic_int skip;
static atomic_bool fired;
static int (*real_pthread_join)(pthread_t, void **);
static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static sem_t exit_now;
static pthread_t exiter;
static atomic_bool destructor_waited;
static int (*real_nanosleep)(const struct timespec *, struct timespec *);

static void say(const char *line)
{
	if (write(2, line, strlen(line)) < 0)
		return;
}

static void on_signal(int sig)
{
	(void)sig;
	say("rel_exit_shim: the handler calls exit(0)\n");
	exit(0);
}

static void *exit_thread(void *arg)
{
	(void)arg;
	while (sem_wait(&exit_now) != 0)
		;
	say("rel_exit_shim: another thread calls exit(0)\n");
	exit(0);
}

__attribute__((constructor)) static void init(void)
{
	struct sigaction sa;

	real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
	                                                                   "clock_gettime");
	atomic_store(&skip, getenv("REL_EXIT_SKIP") ? atoi(getenv("REL_EXIT_SKIP")) : 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	real_pthread_join = (int (*)(pthread_t, void **))dlsym(RTLD_NEXT, "pthread_join");
	real_nanosleep = (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT,
	                                                                            "nanosleep");
	real_pthread_create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
	                               void *))dlsym(RTLD_NEXT, "pthread_create");
	sem_init(&exit_now, 0, 0);
	const char *join = getenv("REL_EXIT_JOIN");
	if ((join && strcmp(join, "other") == 0) || getenv("REL_EXIT_CREATE"))
		real_pthread_create(&exiter, NULL, exit_thread, NULL);
}

/* Whether @p caller is in the library whose name contains @p lib. */
static int from_library(const void *caller, const char *lib)
{
	Dl_info info;
	return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, lib);
}

/* Whether @p caller lies in one of REL_EXIT_RANGES of pre's library. */
static int in_transition(const void *caller)
{
	Dl_info info;
	struct link_map *map = NULL;
	const char *ranges = getenv("REL_EXIT_RANGES");

	if (!ranges || !dladdr1(caller, &info, (void **)&map, RTLD_DL_LINKMAP) ||
	    !info.dli_fname || !strstr(info.dli_fname, "xrlm_monitor_pre") || !map)
		return 0;
	unsigned long off = (unsigned long)caller - (unsigned long)map->l_addr;
	for (const char *p = ranges; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 16);
		if (*end != ':')
			return 0;
		unsigned long size = strtoul(end + 1, &end, 16);
		if (off >= lo && off < lo + size)
			return 1;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t clock, struct timespec *ts)
{
	if (clock == CLOCK_REALTIME && !atomic_load(&fired) &&
	    in_transition(__builtin_return_address(0)) && atomic_fetch_sub(&skip, 1) <= 0 &&
	    !atomic_exchange(&fired, 1)) {
		say("rel_exit_shim: pre is starting a session: SIGUSR1 on the frame thread\n");
		raise(SIGUSR1);
	}
	return real_clock_gettime(clock, ts);
}

/* Whether the calling thread blocks SIGUSR1: one of the layers' own threads. */
static bool layer_thread(void)
{
	sigset_t mask;
	return pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, SIGUSR1) == 1;
}

__attribute__((visibility("default"))) int pthread_join(pthread_t thread, void **ret)
{
	const char *join = getenv("REL_EXIT_JOIN");

	/* Not a join on one of post's own threads (its merge thread joining
	 * the worker of a session that ended first, on a loaded machine): the
	 * signal stayed pending there, blocked, and exit() never came. */
	if (!join || atomic_load(&fired) ||
	    !from_library(__builtin_return_address(0), "xrlm_monitor_post") || layer_thread() ||
	    atomic_exchange(&fired, 1))
		return real_pthread_join(thread, ret);
	if (strcmp(join, "other") == 0) {
		sem_post(&exit_now);
		/* Until a destructor waits for this stop, on the exiting thread. */
		for (int ms = 0; !atomic_load(&destructor_waited); ms++) {
			if (ms == 10000) {
				say("rel_exit_shim: no destructor waited for the stop\n");
				break;
			}
			usleep(1000);
		}
		return real_pthread_join(thread, ret);
	}
	int err = real_pthread_join(thread, ret);
	say("rel_exit_shim: post's writer joined: SIGUSR1 on that thread\n");
	raise(SIGUSR1);
	return err;
}

__attribute__((visibility("default"))) int pthread_create(pthread_t *thread,
                                                          const pthread_attr_t *attr,
                                                          void *(*fn)(void *), void *arg)
{
	if (getenv("REL_EXIT_CREATE") && !atomic_load(&fired) &&
	    from_library(__builtin_return_address(0), "xrlm_monitor_pre") &&
	    !atomic_exchange(&fired, 1)) {
		say("rel_exit_shim: pre starts its first thread: exit(0) on another thread\n");
		sem_post(&exit_now);
		usleep(300000); /* the exit() reaches the destructors meanwhile */
	}
	return real_pthread_create(thread, attr, fn, arg);
}

/* A layer's sleep on the exiting thread: its destructor waits for the stop. */
__attribute__((visibility("default"))) int nanosleep(const struct timespec *req,
                                                     struct timespec *rem)
{
	if (getenv("REL_EXIT_JOIN") && atomic_load(&fired) && pthread_equal(pthread_self(), exiter) &&
	    from_library(__builtin_return_address(0), "xrlm_monitor_"))
		atomic_store(&destructor_waited, 1);
	return real_nanosleep(req, rem);
}
