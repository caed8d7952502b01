/*
 * Unit tests of the chain check (layer/xl_chain.c): the layers between
 * pre and post are counted and named, and a name a manifest gave with a
 * control byte in it is named with '?' there, as the files' "#
 * target_layer=" line must stay one line. The partner's own
 * xrGetInstanceProcAddr is the one its element above carries; without a
 * partner every layer below is counted; an element of another structure
 * type ends the walk.
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

/* Stand-ins for the layers' xrGetInstanceProcAddr: told apart by address. */
static XRAPI_ATTR XrResult XRAPI_CALL gipa_a(XrInstance i, const char *n, PFN_xrVoidFunction *f)
{
	(void)i, (void)n, (void)f;
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL gipa_b(XrInstance i, const char *n, PFN_xrVoidFunction *f)
{
	(void)i, (void)n, (void)f;
	return XR_ERROR_RUNTIME_FAILURE;
}

static void test_partner_gipa(void **state)
{
	(void)state;
	XrApiLayerNextInfo list[4];
	struct xl_chain_report r;

	/* Each element carries the functions of the layer below it: the
	 * target's element, post's own. */
	const char *names[] = {PRE, "T", POST, "R"};
	make_list(list, names, 4);
	list[0].nextGetInstanceProcAddr = gipa_a;
	list[1].nextGetInstanceProcAddr = gipa_b;
	list[2].nextGetInstanceProcAddr = gipa_a;
	xl_chain_inspect(list, PRE, POST, &r);
	assert_true(r.partner_found);
	assert_ptr_equal(r.partner_gipa, gipa_b);

	/* A list that does not begin with this layer: no element above the
	 * partner carries its functions. */
	xl_chain_inspect(&list[2], PRE, POST, &r);
	assert_true(r.partner_found);
	assert_null(r.partner_gipa);
}

static void test_no_partner(void **state)
{
	(void)state;
	/* No post: every layer below is counted, the last too. */
	const char *names[] = {PRE, "A", "B"};
	struct xl_chain_report r = inspect(names, 3);
	assert_false(r.partner_found);
	assert_null(r.partner_gipa);
	assert_int_equal(r.between, 2);
	assert_string_equal(r.between_names, "A+B");

	/* Nothing below at all. */
	const char *alone[] = {PRE};
	r = inspect(alone, 1);
	assert_false(r.partner_found);
	assert_int_equal(r.between, 0);
	assert_string_equal(r.between_names, "none");

	/* A name that is a comma alone. */
	const char *comma[] = {PRE, ",", POST};
	r = inspect(comma, 3);
	assert_string_equal(r.between_names, "?");
}

static void test_other_structure_ends(void **state)
{
	(void)state;
	XrApiLayerNextInfo list[4];
	struct xl_chain_report r;

	/* An element of another type is no layer: nothing from it on is read. */
	const char *names[] = {PRE, "A", "B", POST};
	make_list(list, names, 4);
	list[2].structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO;
	xl_chain_inspect(list, PRE, POST, &r);
	assert_false(r.partner_found);
	assert_int_equal(r.between, 1);
	assert_string_equal(r.between_names, "A");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_between_named),
		cmocka_unit_test(test_control_bytes_replaced),
		cmocka_unit_test(test_partner_gipa),
		cmocka_unit_test(test_no_partner),
		cmocka_unit_test(test_other_structure_ends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
