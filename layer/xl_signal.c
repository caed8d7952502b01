/*
 * The toggle signal; see xl_signal.h.
 */
#include "xl_signal.h"

#include "xl_clock.h"
#include "xl_log.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The toggle signal: the handler only sets a bit in the control word. */
static struct xl_control *_Atomic signal_ctl;
/* Handlers running (any thread): xl_signal_remove() waits for them. */
static atomic_uint signal_running;
/* How long xl_signal_remove() waits for them, at most. */
#define SIGNAL_DRAIN_NS 100000000ull
static int signal_number;
static struct sigaction signal_old;

static void on_toggle_signal(int sig)
{
	(void)sig;
	/* Counted before the block is loaded (both sequentially consistent):
	 * xl_signal_remove() either sees this handler running or it made the
	 * block NULL before the load. */
	atomic_fetch_add(&signal_running, 1);
	struct xl_control *ctl = atomic_load(&signal_ctl);
	/* Lock-free, so async-signal-safe: pre's writer prints the line. */
	if (ctl)
		xl_control_toggle(ctl);
	atomic_fetch_sub(&signal_running, 1);
}

static bool has_app_handler(const struct sigaction *sa)
{
	if (sa->sa_flags & SA_SIGINFO)
		return true;
	return sa->sa_handler != SIG_DFL;
}

bool xl_signal_install(struct xl_control *ctl, int signal, const char *signal_name)
{
	struct sigaction old, sa;

	if (signal == 0) {
		xl_log("toggle signal: off (XRLM_SIGNAL=off)");
		return false;
	}
	if (sigaction(signal, NULL, &old) != 0) {
		xl_log("toggle signal %s: cannot query it (%s); recording can be started by "
		       "XRLM_RECORD only", signal_name, strerror(errno));
		return false;
	}
	if (has_app_handler(&old)) {
		xl_log_loud("toggle signal %s (%d) is already %s by the application; leaving it "
		            "alone. Pick a free one with XRLM_SIGNAL (e.g. XRLM_SIGNAL=RTMIN+3)",
		            signal_name, signal, old.sa_handler == SIG_IGN ? "ignored" : "handled");
		return false;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_toggle_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	atomic_store_explicit(&signal_ctl, ctl, memory_order_release);
	if (sigaction(signal, &sa, NULL) != 0) {
		atomic_store(&signal_ctl, NULL);
		xl_log("toggle signal %s: cannot install the handler (%s)", signal_name,
		       strerror(errno));
		return false;
	}
	signal_number = signal;
	signal_old = old;
	xl_log("toggle signal: %s (%d); send it with: kill -%d %d", signal_name, signal, signal,
	       (int)getpid());
	return true;
}

void xl_signal_remove(void)
{
	struct sigaction cur;

	if (!signal_number)
		return;
	/* Restore only if the handler is still ours: the application may have
	 * installed its own since, and that one must stay. */
	if (sigaction(signal_number, NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == on_toggle_signal)
		sigaction(signal_number, &signal_old, NULL);
	atomic_store(&signal_ctl, NULL);
	/* A handler that loaded the block before it is freed must be done
	 * with it first: a few instructions, on another thread (one that
	 * interrupted this thread has returned already). Bounded all the
	 * same: a thread stopped inside the handler must not hang this one. */
	uint64_t until = xl_clock_mono_ns() + SIGNAL_DRAIN_NS;
	while (atomic_load(&signal_running) && xl_clock_mono_ns() < until)
		sched_yield();
	signal_number = 0;
}
