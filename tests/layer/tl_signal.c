/*
 * Unit tests of the toggle signal (layer/xl_signal.c): its handler flips
 * the control word's toggle bit and is installed with SA_RESTART (an
 * application's blocking call interrupted by a toggle is restarted, not
 * failed with EINTR); a signal the application handles or ignores is left
 * alone; xl_signal_remove() gives back the disposition it found, but never
 * over a handler the application installed since.
 *
 * SIGWINCH is the toggle signal here: its default action is to ignore it,
 * so a raise() after the handler went does no harm.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_signal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define SIG SIGWINCH

static struct xl_control *ctl;

static int setup(void **state)
{
	(void)state;
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIG, &dfl, NULL);
	/* Only its word is used: the handler flips a bit of it. */
	ctl = calloc(1, sizeof(*ctl));
	return ctl ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	xl_signal_remove();
	free(ctl);
	return 0;
}

static struct sigaction current(void)
{
	struct sigaction sa;
	assert_int_equal(sigaction(SIG, NULL, &sa), 0);
	return sa;
}

static bool toggled(void)
{
	return atomic_load(&ctl->word) & XL_REQ_TOGGLE;
}

static void test_toggles(void **state)
{
	(void)state;
	assert_true(xl_signal_install(ctl, SIG, "WINCH"));
	struct sigaction sa = current();
	assert_true(sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
	assert_true(sa.sa_flags & SA_RESTART);
	raise(SIG);
	assert_true(toggled());
	raise(SIG);
	assert_false(toggled());
	/* Removed: the default is back, and the signal toggles nothing. */
	xl_signal_remove();
	assert_true(current().sa_handler == SIG_DFL);
	raise(SIG);
	assert_false(toggled());
}

static void app_handler(int sig)
{
	(void)sig;
}

static void app_action(int sig, siginfo_t *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
}

/* The application installs its own handler after ours: removing ours leaves it. */
static void test_app_handler_kept(void **state)
{
	(void)state;
	struct sigaction app;

	memset(&app, 0, sizeof(app));
	sigemptyset(&app.sa_mask);
	assert_true(xl_signal_install(ctl, SIG, "WINCH"));
	app.sa_handler = app_handler;
	sigaction(SIG, &app, NULL);
	xl_signal_remove();
	assert_true(current().sa_handler == app_handler);

	/* The same with an SA_SIGINFO handler. */
	sigaction(SIG, &(struct sigaction){.sa_handler = SIG_DFL}, NULL);
	assert_true(xl_signal_install(ctl, SIG, "WINCH"));
	app.sa_handler = NULL;
	app.sa_sigaction = app_action;
	app.sa_flags = SA_SIGINFO;
	sigaction(SIG, &app, NULL);
	xl_signal_remove();
	struct sigaction sa = current();
	assert_true((sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == app_action);
}

/* A signal the application handles, or ignores, is not taken. */
static void test_taken_left_alone(void **state)
{
	(void)state;
	struct sigaction app;

	memset(&app, 0, sizeof(app));
	sigemptyset(&app.sa_mask);
	app.sa_handler = app_handler;
	sigaction(SIG, &app, NULL);
	assert_false(xl_signal_install(ctl, SIG, "WINCH"));
	assert_true(current().sa_handler == app_handler);
	raise(SIG);
	assert_false(toggled());

	app.sa_handler = SIG_IGN;
	sigaction(SIG, &app, NULL);
	assert_false(xl_signal_install(ctl, SIG, "WINCH"));
	assert_true(current().sa_handler == SIG_IGN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_toggles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_app_handler_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_taken_left_alone, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
