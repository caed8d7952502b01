/*
 * Unit tests of the chain check (layer/xl_chain.c): the layers between
 * pre and post are counted and named, and a name a manifest gave with a
 * control byte in it is named with '?' there, as the files' "#
 * target_layer=" line must stay one line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "xl_chain.h"

#define PRE "XR_APILAYER_XRLM_monitor_pre"
#define POST "XR_APILAYER_XRLM_monitor_post"

/* The loader's list for @p n layers named @p names, pre first. */
static void make_list(XrApiLayerNextInfo *list, const char *const *names, size_t n)
{
	memset(list, 0, n * sizeof(*list));
	for (size_t i = 0; i < n; i++) {
		list[i].structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO;
		snprintf(list[i].layerName, sizeof(list[i].layerName), "%s", names[i]);
		list[i].next = i + 1 < n ? &list[i + 1] : NULL;
	}
}

/* The report for a chain of @p n layers, pre first. */
static struct xl_chain_report inspect(const char *const *names, size_t n)
{
	XrApiLayerNextInfo list[8];
	struct xl_chain_report r;

	make_list(list, names, n);
	xl_chain_inspect(list, PRE, POST, &r);
	return r;
}

static void test_between_named(void **state)
{
	(void)state;
	const char *one[] = {PRE, "XR_APILAYER_x_target", POST};
	struct xl_chain_report r = inspect(one, 3);
	assert_true(r.partner_found);
	assert_int_equal(r.between, 1);
	assert_string_equal(r.between_names, "XR_APILAYER_x_target");

	const char *two[] = {PRE, "A", "B", POST};
	r = inspect(two, 4);
	assert_int_equal(r.between, 2);
	assert_string_equal(r.between_names, "A+B");

	const char *none[] = {PRE, POST};
	r = inspect(none, 2);
	assert_true(r.partner_found);
	assert_int_equal(r.between, 0);
	assert_string_equal(r.between_names, "none");
}

static void test_control_bytes_replaced(void **state)
{
	(void)state;
	const char *hostile[] = {PRE, "A\n# side=pre", "B\033[31m\xc2\x9b" "x", POST};
	struct xl_chain_report r = inspect(hostile, 4);
	assert_int_equal(r.between, 2);
	assert_string_equal(r.between_names, "A?# side=pre+B?[31m?x");

	/* A comma at a name's end too: the readers take it for padding. */
	const char *comma[] = {PRE, "A,", "B,c", POST};
	r = inspect(comma, 4);
	assert_string_equal(r.between_names, "A?+B,c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_between_named),
		cmocka_unit_test(test_control_bytes_replaced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
