/*
 * LD_PRELOAD shim (test fixture only) of exit_in_transition.sh: lands a
 * signal whose handler calls exit(0) on the frame thread while pre is
 * inside a recording start, as an application's SIGINT handler that
 * exits would. The start reads CLOCK_REALTIME (the session's slot) with
 * XL_BUSY held: the first such read from the code of pre's library in
 * REL_EXIT_RANGES ("offset:size,..." in hex, nm's), after REL_EXIT_SKIP
 * of them, raises SIGUSR1 there. Says so on stderr.
 */
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static atomic_int skip;
static atomic_bool fired;

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
