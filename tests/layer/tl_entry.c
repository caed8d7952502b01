/*
 * The loader's entry into a layer library (layer/xl_entry.c), on the real
 * library loaded and negotiated as the loader does, above stand-ins for
 * the rest of the chain (two of them, each with its own
 * xrGetInstanceProcAddr, as under two loaders):
 *  - before any instance, xrGetInstanceProcAddr answers
 *    XR_ERROR_HANDLE_INVALID and a NULL function; without a name or a
 *    place for the function, XR_ERROR_VALIDATION_FAILURE;
 *  - a creation with a malformed chain (no create info, a structure of
 *    another type, no next layer or one without its entry points, nothing
 *    below but copies of the library) fails with
 *    XR_ERROR_INITIALIZATION_FAILED and calls nothing below;
 *  - each instance's lookups go to the chain that created it, whatever was
 *    created (or failed to be) since; one not known, to the latest's;
 * and on post, which monitors an instance whose creation pre handed a
 * control block (here: this build's xl_control.c, as tl_handoff does):
 *  - an instance whose next layer lacks one of the functions the layer
 *    calls (its xrGetInstanceProcAddr failing, whatever it left in the
 *    function) is passed through, and the next creation is monitored again;
 *  - a monitored instance's functions are handed out wrapped (its
 *    xrGetInstanceProcAddr: the layer's own), and its
 *    xrDestroyInstance (through the layer) reaches the chain once; given a
 *    handle the chain does not know, it answers XR_ERROR_HANDLE_INVALID;
 *  - many monitored instances created and destroyed one after another
 *    keep another loader's instance's lookups where they were.
 * Usage: tl_entry LAYER_LIBRARY LAYER_NAME pre|post
 */
#include "loader_abi.h"
#include "xl_control.h"
#include "xl_instance.h"
#include "tl_negotiate.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define HANDLE_A ((XrInstance)(uintptr_t)0xa000)
#define HANDLE_UNKNOWN ((XrInstance)(uintptr_t)0xdead)
/* Monitored instances created and destroyed: more than the layer's slots (16). */
#define CYCLES 20

static int failures;

static void expect(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

/* Chain 1: creates HANDLE_A. */
static int creates1, destroys1;
static void dummy1(void) {}

static XRAPI_ATTR XrResult XRAPI_CALL destroy1(XrInstance instance)
{
	destroys1 += instance == HANDLE_A;
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL gipa1(XrInstance instance, const char *name,
                                            PFN_xrVoidFunction *function)
{
	(void)instance;
	*function = strcmp(name, "xrDestroyInstance") == 0 ? (PFN_xrVoidFunction)destroy1
	                                                   : (PFN_xrVoidFunction)dummy1;
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL create1(const XrInstanceCreateInfo *create,
                                              const struct XrApiLayerCreateInfo *info,
                                              XrInstance *instance)
{
	(void)create, (void)info;
	creates1++;
	*instance = HANDLE_A;
	return XR_SUCCESS;
}

/*
 * Chain 2: a new handle each creation; fails them (leaving a handle
 * behind nonetheless) while fail2 is set; answers every name but missing2,
 * (leaving a function behind even so), and no name for HANDLE_UNKNOWN.
 */
static int creates2, destroys2;
static bool fail2;
static const char *missing2;
static uintptr_t next_handle2 = 0x20000;
static void dummy2(void) {}

static XRAPI_ATTR XrResult XRAPI_CALL destroy2(XrInstance instance)
{
	(void)instance;
	destroys2++;
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL properties2(XrInstance instance,
                                                  XrInstanceProperties *properties)
{
	(void)instance;
	snprintf(properties->runtimeName, sizeof(properties->runtimeName), "tl_entry");
	properties->runtimeVersion = XR_MAKE_VERSION(1, 0, 0);
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL gipa2(XrInstance instance, const char *name,
                                            PFN_xrVoidFunction *function)
{
	*function = NULL;
	if (instance == HANDLE_UNKNOWN)
		return XR_ERROR_HANDLE_INVALID;
	if (missing2 && strcmp(name, missing2) == 0) {
		/* What it answered another name, left behind: the result says. */
		*function = (PFN_xrVoidFunction)dummy2;
		return XR_ERROR_FUNCTION_UNSUPPORTED;
	}
	if (strcmp(name, "xrDestroyInstance") == 0)
		*function = (PFN_xrVoidFunction)destroy2;
	else if (strcmp(name, "xrGetInstanceProperties") == 0)
		*function = (PFN_xrVoidFunction)properties2;
	else
		*function = (PFN_xrVoidFunction)dummy2;
	return XR_SUCCESS;
}

static XRAPI_ATTR XrResult XRAPI_CALL create2(const XrInstanceCreateInfo *create,
                                              const struct XrApiLayerCreateInfo *info,
                                              XrInstance *instance)
{
	(void)create, (void)info;
	creates2++;
	*instance = (XrInstance)next_handle2++;
	return fail2 ? XR_ERROR_RUNTIME_FAILURE : XR_SUCCESS;
}

static XrNegotiateApiLayerRequest layer;
static XrInstanceCreateInfo app_create = {.type = XR_TYPE_INSTANCE_CREATE_INFO};

/* What the layer hands out for @p name of @p instance (NULL: nothing, or an error). */
static PFN_xrVoidFunction lookup(XrInstance instance, const char *name)
{
	PFN_xrVoidFunction f = NULL;
	return layer.getInstanceProcAddr(instance, name, &f) == XR_SUCCESS ? f : NULL;
}

/* Creates an instance through the layer above chain 2; XR_NULL_HANDLE on failure. */
static XrInstance create_on_2(void)
{
	XrApiLayerNextInfo rest = tl_next_info("XR_APILAYER_rest2", gipa2, create2, NULL);
	XrApiLayerCreateInfo info = tl_create_info(&rest);
	XrInstance instance = XR_NULL_HANDLE;
	return layer.createApiLayerInstance(&app_create, &info, &instance) == XR_SUCCESS
	               ? instance
	               : XR_NULL_HANDLE;
}

/* A creation with the malformed create info @p info fails and calls nothing below. */
static void refused(const XrApiLayerCreateInfo *info, const char *what)
{
	int before = creates1 + creates2;
	XrInstance instance = XR_NULL_HANDLE;
	XrResult r = layer.createApiLayerInstance(&app_create, info, &instance);
	if (r != XR_ERROR_INITIALIZATION_FAILED || creates1 + creates2 != before) {
		fprintf(stderr, "FAIL: %s: result %d, %d creation(s) below\n", what, (int)r,
		        creates1 + creates2 - before);
		failures++;
	}
}

static void malformed_chains(const char *layer_name)
{
	XrApiLayerNextInfo rest = tl_next_info("XR_APILAYER_rest2", gipa2, create2, NULL);
	XrApiLayerCreateInfo info;

	refused(NULL, "no create info");
	info = tl_create_info(&rest);
	info.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO;
	refused(&info, "a create info of another type");
	info = tl_create_info(NULL);
	refused(&info, "no next layer");
	XrApiLayerNextInfo bad = rest;
	bad.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO;
	info = tl_create_info(&bad);
	refused(&info, "a next layer's info of another type");
	bad = rest;
	bad.nextCreateApiLayerInstance = NULL;
	info = tl_create_info(&bad);
	refused(&info, "a next layer without its create function");
	bad = rest;
	bad.nextGetInstanceProcAddr = NULL;
	info = tl_create_info(&bad);
	refused(&info, "a next layer without its xrGetInstanceProcAddr");
	/* Below the library, nothing but two more copies of it. */
	XrApiLayerNextInfo copy2 = tl_next_info(layer_name, layer.getInstanceProcAddr,
	                                        layer.createApiLayerInstance, NULL);
	XrApiLayerNextInfo copy1 = tl_next_info(layer_name, layer.getInstanceProcAddr,
	                                        layer.createApiLayerInstance, &copy2);
	info = tl_create_info(&copy1);
	refused(&info, "nothing below but copies of the library");
}

/* A block handed to post as pre does; false: post has no attach function. */
static bool hand_block(struct xl_control *ctl)
{
	PFN_xrVoidFunction attach = lookup(XR_NULL_HANDLE, ATTACH_PROC_NAME);
	if (!attach)
		return false;
	((xl_attach_fn)attach)(ctl);
	return true;
}

/* Post: what it monitors, and what it passes through. */
static void monitored(XrInstance a)
{
	static const char *const needed[] = {"xrDestroyInstance", "xrEndFrame",
	                                     "xrGetInstanceProperties", "xrCreateSession",
	                                     "xrDestroySession"};
	struct xl_settings settings = {.delay_s = -1.0};
	struct xl_control *ctl = xl_control_create(&settings);
	char what[160];

	if (!ctl) {
		expect(false, "out of memory");
		return;
	}
	/* A next layer without one of them: the instance is passed through,
	 * and nothing of its creation stays behind for the next one's. */
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		missing2 = needed[i];
		expect(hand_block(ctl), "post has no " ATTACH_PROC_NAME);
		XrInstance b = create_on_2();
		snprintf(what, sizeof(what), "an instance whose next layer lacks %s is created",
		         needed[i]);
		expect(b != XR_NULL_HANDLE, what);
		snprintf(what, sizeof(what), "an instance whose next layer lacks %s is passed through",
		         needed[i]);
		expect(lookup(b, "xrWaitFrame") == (PFN_xrVoidFunction)dummy2, what);
	}
	missing2 = NULL;
	for (int i = 0; i < CYCLES; i++) {
		int destroyed = destroys2;
		expect(hand_block(ctl), "post has no " ATTACH_PROC_NAME);
		XrInstance b = create_on_2();
		expect(b != XR_NULL_HANDLE, "a monitored instance is created");
		PFN_xrVoidFunction wait = lookup(b, "xrWaitFrame");
		expect(wait && wait != (PFN_xrVoidFunction)dummy2,
		       "a monitored instance's xrWaitFrame is not wrapped");
		expect(lookup(b, "xrGetInstanceProcAddr") == (PFN_xrVoidFunction)layer.getInstanceProcAddr,
		       "a monitored instance's xrGetInstanceProcAddr is not the layer's");
		PFN_xrDestroyInstance destroy = (PFN_xrDestroyInstance)lookup(b, "xrDestroyInstance");
		expect(destroy && destroy != destroy2,
		       "a monitored instance's xrDestroyInstance is not the layer's");
		if (!destroy)
			break;
		if (i == 0)
			expect(destroy(HANDLE_UNKNOWN) == XR_ERROR_HANDLE_INVALID && destroys2 == destroyed,
			       "xrDestroyInstance of a handle the chain does not know did not answer "
			       "XR_ERROR_HANDLE_INVALID");
		expect(destroy(b) == XR_SUCCESS && destroys2 == destroyed + 1,
		       "xrDestroyInstance did not reach the chain once");
	}
	expect(lookup(a, "xrDestroyInstance") == (PFN_xrVoidFunction)destroy1,
	       "after many monitored instances, another loader's instance's look-up went to the "
	       "wrong chain");
	xl_control_unref(ctl);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: tl_entry LAYER_LIBRARY LAYER_NAME pre|post\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib || !tl_negotiate(lib, &layer)) {
		fprintf(stderr, "FAIL: cannot load and negotiate with the layer\n");
		return 1;
	}
	snprintf(app_create.applicationInfo.applicationName, XR_MAX_APPLICATION_NAME_SIZE,
	         "tl_entry");
	app_create.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);

	/* No instance yet: no next layer to ask. */
	PFN_xrVoidFunction f = (PFN_xrVoidFunction)dummy1;
	expect(layer.getInstanceProcAddr(XR_NULL_HANDLE, "xrDestroyInstance", &f) ==
	               XR_ERROR_HANDLE_INVALID && !f,
	       "before any instance, a look-up did not answer XR_ERROR_HANDLE_INVALID and NULL");
	expect(layer.getInstanceProcAddr(XR_NULL_HANDLE, NULL, &f) == XR_ERROR_VALIDATION_FAILURE,
	       "a look-up without a name was not refused");
	expect(layer.getInstanceProcAddr(XR_NULL_HANDLE, "xrDestroyInstance", NULL) ==
	               XR_ERROR_VALIDATION_FAILURE,
	       "a look-up without a place for the function was not refused");

	malformed_chains(argv[2]);

	XrApiLayerNextInfo rest1 = tl_next_info("XR_APILAYER_rest1", gipa1, create1, NULL);
	XrApiLayerCreateInfo info1 = tl_create_info(&rest1);
	XrInstance a = XR_NULL_HANDLE;
	expect(layer.createApiLayerInstance(&app_create, &info1, &a) == XR_SUCCESS && a == HANDLE_A &&
	               creates1 == 1,
	       "the instance was not created through chain 1");
	expect(lookup(a, "xrWaitFrame") == (PFN_xrVoidFunction)dummy1,
	       "an instance not monitored does not get its chain's own functions");
	expect(lookup(HANDLE_UNKNOWN, "xrDestroyInstance") == (PFN_xrVoidFunction)destroy1,
	       "a look-up for an instance not known did not go to the latest creation's chain");
	/* Failed creations on chain 2 (a handle left behind each time) take nothing of A's. */
	fail2 = true;
	for (int i = 0; i < CYCLES; i++)
		expect(create_on_2() == XR_NULL_HANDLE, "a failed creation succeeded");
	fail2 = false;
	expect(lookup(a, "xrDestroyInstance") == (PFN_xrVoidFunction)destroy1,
	       "after failed creations, an instance's look-up went to another chain");

	if (strcmp(argv[3], "post") == 0)
		monitored(a);
	expect(destroys1 == 0, "chain 1's instance was destroyed");
	if (failures)
		return 1;
	printf("the layer's entry points answered as expected\n");
	return 0;
}
