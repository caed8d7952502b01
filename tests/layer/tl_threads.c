/*
 * Unit tests of the layer's own threads (layer/xl_thread.c): a thread
 * started by xl_thread_start() has every signal blocked but the
 * synchronous faults (a fault with its signal blocked kills the process
 * without the application's crash handler), and its creator's mask is
 * left as it was.
 *
 * And of the merge's thread (layer/xl_hook_thread.c): it runs each hook
 * at SCHED_IDLE, and gives the memory back after each (malloc_trim,
 * wrapped here by the linker to note the policy it runs at) at
 * SCHED_OTHER, since malloc_trim locks the application's malloc arenas
 * too; also where a thread may not leave SCHED_IDLE (no CAP_SYS_NICE,
 * RLIMIT_NICE 0: the case "unprivileged" drops root's privileges first),
 * and without a word in the log (xl_log, wrapped too).
 *
 * And of its queue: while a hook runs, XL_HOOK_QUEUE sessions wait and one
 * more is refused; the running session is the oldest busy one; each hook
 * runs once, in order, with its session's id and tag; once stopping, the
 * running hook is raised back to SCHED_OTHER (where the process may) and
 * the queued ones run at SCHED_OTHER.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_hook_thread.h"
#include "xl_thread.h"

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A layer thread's body: reports the mask it runs with. */
static void *report_mask(void *arg)
{
	pthread_sigmask(SIG_BLOCK, NULL, arg);
	return NULL;
}

static void test_thread_mask(void **state)
{
	(void)state;
	static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
	/* The application's: the toggle signal's default and its choices, the usual others. */
	const int blocked[] = {SIGUSR1, SIGUSR2, SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT,
	                       SIGCHLD, SIGALRM, SIGABRT, SIGRTMIN, SIGRTMIN + 3, SIGRTMAX};
	sigset_t before, after, mask;
	pthread_t thread;

	pthread_sigmask(SIG_BLOCK, NULL, &before);
	assert_int_equal(xl_thread_start(&thread, report_mask, &mask, "tl-mask"), 0);
	pthread_join(thread, NULL);
	pthread_sigmask(SIG_BLOCK, NULL, &after);

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		print_message("fault signal %d blocked: %d\n", faults[i], sigismember(&mask, faults[i]));
		assert_int_equal(sigismember(&mask, faults[i]), 0);
	}
	for (size_t i = 0; i < sizeof(blocked) / sizeof(blocked[0]); i++)
		assert_int_equal(sigismember(&mask, blocked[i]), 1);
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		assert_int_equal(sigismember(&after, sig), sigismember(&before, sig));
}

/* The scheduling policy of the calling thread. */
static int own_policy(void)
{
	struct sched_param param;
	int policy = -1;
	pthread_getschedparam(pthread_self(), &policy, &param);
	return policy;
}

#define JOBS 3
static atomic_int hooks_run, hook_policy_other, trims, trims_idle, log_lines;

void __real_malloc_trim(size_t pad);
int __wrap_malloc_trim(size_t pad);
int __wrap_malloc_trim(size_t pad)
{
	atomic_fetch_add(&trims, 1);
	if (own_policy() != SCHED_OTHER)
		atomic_fetch_add(&trims_idle, 1);
	__real_malloc_trim(pad);
	return 0;
}

void __wrap_xl_log(const char *fmt, ...);
void __wrap_xl_log(const char *fmt, ...)
{
	print_message("log: %s\n", fmt);
	atomic_fetch_add(&log_lines, 1);
}

static void hook(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	(void)ctx, (void)id, (void)tag, (void)dir_fd;
	if (own_policy() != SCHED_IDLE)
		atomic_fetch_add(&hook_policy_other, 1);
	atomic_fetch_add(&hooks_run, 1);
}

/* On a thread of its own: whether it may go back from SCHED_IDLE to SCHED_OTHER. */
static void *try_leave_idle(void *arg)
{
	struct sched_param none = {0};
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
	*(bool *)arg = pthread_setschedparam(pthread_self(), SCHED_OTHER, &none) == 0;
	return NULL;
}

/*
 * Whether a thread may go back from SCHED_IDLE to SCHED_OTHER (sched(7)),
 * tried on a thread of its own: this one, were it left at SCHED_IDLE,
 * would pass the policy on to the threads it starts.
 */
static bool may_leave_idle(void)
{
	pthread_t t;
	bool may = false;

	assert_int_equal(pthread_create(&t, NULL, try_leave_idle, &may), 0);
	pthread_join(t, NULL);
	return may;
}

/* Runs JOBS hooks, one at a time, on a merge thread: each at SCHED_IDLE, each trimmed at SCHED_OTHER. */
static void run_jobs(void)
{
	struct xl_hook_thread t;
	xl_hook_thread_init(&t, hook, NULL);
	for (int i = 1; i <= JOBS; i++) {
		assert_true(xl_hook_thread_post(&t, (uint32_t)i, "tag", -1));
		/* One at a time, before the stop: its policy is SCHED_IDLE throughout. */
		for (int waited = 0; xl_hook_thread_busy_from(&t) && waited < 30000; waited++)
			xl_thread_sleep_ns(1000000);
		assert_int_equal(xl_hook_thread_busy_from(&t), 0);
	}
	xl_hook_thread_stop(&t);
	print_message("hooks %d (not at SCHED_IDLE: %d), trims %d (not at SCHED_OTHER: %d), "
	              "log lines %d\n", atomic_load(&hooks_run), atomic_load(&hook_policy_other),
	              atomic_load(&trims), atomic_load(&trims_idle), atomic_load(&log_lines));
	assert_int_equal(atomic_load(&hooks_run), JOBS);
	assert_int_equal(atomic_load(&hook_policy_other), 0);
	assert_int_equal(atomic_load(&trims_idle), 0);
	assert_int_equal(atomic_load(&trims), JOBS);
	assert_int_equal(atomic_load(&log_lines), 0);
}

/* Where a thread may leave SCHED_IDLE (root here). */
static void test_trim_policy(void **state)
{
	(void)state;
	run_jobs();
}

/* Without CAP_SYS_NICE and with RLIMIT_NICE 0, where no thread may leave SCHED_IDLE: the same. */
static void test_trim_unprivileged(void **state)
{
	(void)state;
	struct rlimit none = {0, 0};
	assert_int_equal(setrlimit(RLIMIT_NICE, &none), 0);
	/* Root's uids all non-zero: its capabilities are gone (capabilities(7)). */
	if (geteuid() == 0)
		assert_int_equal(setresuid(65534, 65534, 65534), 0);
	assert_false(may_leave_idle());
	run_jobs();
}

/* The queue's hooks: the first waits until released; each notes its id, tag and policy. */
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static bool q_release;
static atomic_int q_entered, q_count;
static uint32_t q_ids[2 * XL_HOOK_QUEUE];
static int q_policies[2 * XL_HOOK_QUEUE];
static bool q_tags_ok = true;

static void queue_hook(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	char want[16];

	(void)ctx, (void)dir_fd;
	atomic_fetch_add(&q_entered, 1);
	pthread_mutex_lock(&q_lock);
	while (id == 1 && !q_release)
		pthread_cond_wait(&q_cond, &q_lock);
	snprintf(want, sizeof(want), "s%u", (unsigned)id);
	if (strcmp(tag, want) != 0)
		q_tags_ok = false;
	int n = atomic_fetch_add(&q_count, 1);
	if (n < 2 * XL_HOOK_QUEUE) {
		q_ids[n] = id;
		q_policies[n] = own_policy();
	}
	pthread_mutex_unlock(&q_lock);
}

static void *stop_thread(void *arg)
{
	xl_hook_thread_stop(arg);
	return NULL;
}

/* The scheduling policy of @p thread. */
static int policy_of(pthread_t thread)
{
	struct sched_param param;
	int policy = -1;
	pthread_getschedparam(thread, &policy, &param);
	return policy;
}

static void test_queue(void **state)
{
	(void)state;
	struct xl_hook_thread t;
	char tag[16];
	pthread_t stopper;
	bool may = may_leave_idle();

	xl_hook_thread_init(&t, queue_hook, NULL);
	/* Session 1's hook runs and waits; sessions 2 to XL_HOOK_QUEUE + 1 wait in the queue. */
	assert_true(xl_hook_thread_post(&t, 1, "s1", -1));
	for (int waited = 0; !atomic_load(&q_entered) && waited < 30000; waited++)
		xl_thread_sleep_ns(1000000);
	assert_int_equal(atomic_load(&q_entered), 1);
	for (uint32_t id = 2; id <= XL_HOOK_QUEUE + 1; id++) {
		snprintf(tag, sizeof(tag), "s%u", (unsigned)id);
		assert_true(xl_hook_thread_post(&t, id, tag, -1));
	}
	assert_false(xl_hook_thread_post(&t, XL_HOOK_QUEUE + 2, "full", -1));
	/* The running one is the oldest busy. */
	assert_int_equal(xl_hook_thread_busy_from(&t), 1);

	/* The stop raises the running hook; the queued ones run at the normal policy. */
	assert_int_equal(pthread_create(&stopper, NULL, stop_thread, &t), 0);
	for (int waited = 0; waited < 30000; waited++) {
		pthread_mutex_lock(&t.lock);
		bool raised = atomic_load(&t.stop) && (!may || policy_of(t.worker) == SCHED_OTHER);
		pthread_mutex_unlock(&t.lock);
		if (raised)
			break;
		xl_thread_sleep_ns(1000000);
	}
	pthread_mutex_lock(&q_lock);
	q_release = true;
	pthread_cond_broadcast(&q_cond);
	pthread_mutex_unlock(&q_lock);
	pthread_join(stopper, NULL);

	assert_int_equal(atomic_load(&q_count), XL_HOOK_QUEUE + 1);
	assert_true(q_tags_ok);
	for (int i = 0; i < XL_HOOK_QUEUE + 1; i++) {
		assert_int_equal(q_ids[i], (uint32_t)i + 1);
		if (i > 0 || may)
			assert_int_equal(q_policies[i], SCHED_OTHER);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_mask),
		cmocka_unit_test(test_trim_policy),
		cmocka_unit_test(test_trim_unprivileged),
		cmocka_unit_test(test_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
