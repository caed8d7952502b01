/*
 * Unit tests of the layer's own threads (layer/xl_thread.c): a thread
 * started by xl_thread_start() has every signal blocked but the
 * synchronous faults (a fault with its signal blocked kills the process
 * without the application's crash handler), and its creator's mask is
 * left as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_thread.h"

#include <signal.h>

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

int main(int argc, char **argv)
{
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
