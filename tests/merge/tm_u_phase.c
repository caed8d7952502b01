/*
 * Unit tests of the frame phases (layer/u_phase.c), shared by the layers
 * (XRLM_FUNCTIONS, the "# phases_recorded=" line) and xrlm (the merged
 * phase columns): each function's phase, "xrGetActionState" a prefix and
 * nothing else; each phase's name, and "other" for one out of range; the
 * names parsed back; a set written in phase order and read back, blanks
 * around names ignored, an unknown or too long name refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "u_phase.h"

static void test_phase_of(void **state)
{
	(void)state;
	assert_int_equal(u_phase_of("xrWaitFrame"), U_PHASE_WAIT);
	assert_int_equal(u_phase_of("xrBeginFrame"), U_PHASE_BEGIN);
	assert_int_equal(u_phase_of("xrEndFrame"), U_PHASE_END);
	assert_int_equal(u_phase_of("xrLocateViews"), U_PHASE_LOCATE_VIEWS);
	assert_int_equal(u_phase_of("xrSyncActions"), U_PHASE_SYNC_ACTIONS);
	assert_int_equal(u_phase_of("xrGetActionStateBoolean"), U_PHASE_SYNC_ACTIONS);
	assert_int_equal(u_phase_of("xrGetActionStatePose"), U_PHASE_SYNC_ACTIONS);
	assert_int_equal(u_phase_of("xrAcquireSwapchainImage"), U_PHASE_SWAPCHAIN);
	assert_int_equal(u_phase_of("xrWaitSwapchainImage"), U_PHASE_SWAPCHAIN);
	assert_int_equal(u_phase_of("xrReleaseSwapchainImage"), U_PHASE_SWAPCHAIN);
	/* Whole names only, but for the one prefix. */
	assert_int_equal(u_phase_of("xrWaitFrameX"), U_PHASE_OTHER);
	assert_int_equal(u_phase_of("xrEndFram"), U_PHASE_OTHER);
	assert_int_equal(u_phase_of("xrGetActionStat"), U_PHASE_OTHER);
	assert_int_equal(u_phase_of("xrLocateSpace"), U_PHASE_OTHER);
	assert_int_equal(u_phase_of(""), U_PHASE_OTHER);
}

static void test_names(void **state)
{
	(void)state;
	static const char *const want[U_PHASE_COUNT] = {
		"wait", "begin", "end", "locate_views", "sync_actions", "swapchain", "other",
	};
	enum u_phase p;

	for (int i = 0; i < U_PHASE_COUNT; i++) {
		assert_string_equal(u_phase_name((enum u_phase)i), want[i]);
		assert_true(u_phase_parse(want[i], &p));
		assert_int_equal(p, i);
	}
	assert_string_equal(u_phase_name(U_PHASE_COUNT), "other");
	assert_string_equal(u_phase_name((enum u_phase)-1), "other");
	assert_false(u_phase_parse("wai", &p));
	assert_false(u_phase_parse("waits", &p));
	assert_false(u_phase_parse("", &p));
}

static void test_sets(void **state)
{
	(void)state;
	char text[U_PHASE_SET_MAX];
	unsigned set;

	u_phase_set_format(0, text);
	assert_string_equal(text, "");
	u_phase_set_format(1u << U_PHASE_END, text);
	assert_string_equal(text, "end");
	u_phase_set_format((1u << U_PHASE_OTHER) | (1u << U_PHASE_WAIT) | (1u << U_PHASE_SWAPCHAIN),
	                   text);
	assert_string_equal(text, "wait,swapchain,other");
	u_phase_set_format(U_PHASE_ALL, text);
	assert_string_equal(text, "wait,begin,end,locate_views,sync_actions,swapchain,other");
	assert_true(strlen(text) < U_PHASE_SET_MAX);
	/* Every set reads back. */
	for (unsigned s = 0; s <= U_PHASE_ALL; s++) {
		u_phase_set_format(s, text);
		assert_true(u_phase_set_parse(text, &set));
		assert_int_equal(set, s);
	}

	assert_true(u_phase_set_parse(" end\t, wait ,,other ", &set));
	assert_int_equal(set, (1u << U_PHASE_END) | (1u << U_PHASE_WAIT) | (1u << U_PHASE_OTHER));
	assert_true(u_phase_set_parse("\tbegin", &set));
	assert_int_equal(set, 1u << U_PHASE_BEGIN);
	assert_true(u_phase_set_parse("", &set));
	assert_int_equal(set, 0);
	assert_true(u_phase_set_parse(" , ", &set));
	assert_int_equal(set, 0);
	assert_false(u_phase_set_parse("end,walt", &set));
	assert_false(u_phase_set_parse("end wait", &set));
	/* A name of 31 bytes is looked up (and is none), of 32 refused before. */
	assert_false(u_phase_set_parse("waitwaitwaitwaitwaitwaitwaitwai", &set));
	assert_false(u_phase_set_parse("waitwaitwaitwaitwaitwaitwaitwait", &set));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phase_of),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
