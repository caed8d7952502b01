/*
 * Handle validation, against the runtime directly (the loader would catch
 * most bad handles before they reach us): made-up, stale and wrong-type
 * handles must give XR_ERROR_HANDLE_INVALID, never a crash.
 *
 * usage: rtt_handles PATH/TO/libxrlm_test_runtime.so
 */
#include "loader_abi.h"
#include "rtt_common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static PFN_xrGetInstanceProcAddr g_gipa;
static XrInstance g_instance;

static PFN_xrVoidFunction fn(const char *name)
{
	PFN_xrVoidFunction f = NULL;
	g_gipa(g_instance, name, &f);
	return f;
}
#define FN(name) ((PFN_##name)fn(#name))

static bool negotiate(const char *path)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return rtt_fail("dlopen %s: %s", path, dlerror());
	PFN_xrNegotiateLoaderRuntimeInterface neg =
		(PFN_xrNegotiateLoaderRuntimeInterface)dlsym(lib, "xrNegotiateLoaderRuntimeInterface");
	if (!neg)
		return rtt_fail("no xrNegotiateLoaderRuntimeInterface in %s", path);
	XrNegotiateLoaderInfo li = {
		.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO,
		.structVersion = XR_LOADER_INFO_STRUCT_VERSION, .structSize = sizeof(li),
		.minInterfaceVersion = 1, .maxInterfaceVersion = XR_CURRENT_LOADER_RUNTIME_VERSION,
		.minApiVersion = XR_MAKE_VERSION(1, 0, 0), .maxApiVersion = XR_CURRENT_API_VERSION,
	};
	XrNegotiateRuntimeRequest rr = {
		.structType = XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST,
		.structVersion = XR_RUNTIME_INFO_STRUCT_VERSION, .structSize = sizeof(rr),
	};
	if (!rtt_expect("xrNegotiateLoaderRuntimeInterface", neg(&li, &rr), XR_SUCCESS))
		return false;
	g_gipa = rr.getInstanceProcAddr;
	return true;
}

static bool create_instance(void)
{
	const char *ext = XR_MND_HEADLESS_EXTENSION_NAME;
	XrInstanceCreateInfo ici = {.type = XR_TYPE_INSTANCE_CREATE_INFO,
	                            .enabledExtensionCount = 1, .enabledExtensionNames = &ext};
	snprintf(ici.applicationInfo.applicationName, sizeof(ici.applicationInfo.applicationName), "tc");
	ici.applicationInfo.apiVersion = XR_CURRENT_API_VERSION;
	return rtt_expect("xrCreateInstance", FN(xrCreateInstance)(&ici, &g_instance), XR_SUCCESS);
}

static XrSession create_session(void)
{
	XrSystemGetInfo sgi = {.type = XR_TYPE_SYSTEM_GET_INFO,
	                       .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
	XrSessionCreateInfo sci = {.type = XR_TYPE_SESSION_CREATE_INFO};
	XrSession s = XR_NULL_HANDLE;
	if (FN(xrGetSystem)(g_instance, &sgi, &sci.systemId) == XR_SUCCESS)
		FN(xrCreateSession)(g_instance, &sci, &s);
	return s;
}

static bool test_bad_handles(void)
{
	XrFrameState fs = {.type = XR_TYPE_FRAME_STATE};
	XrSession made_up = (XrSession)(uintptr_t)0xdeadbeefull;
	XrSession session = create_session();
	XrSession as_session = (XrSession)(uintptr_t)g_instance; /* wrong type */
	bool ok = session != XR_NULL_HANDLE &&
	          rtt_expect("xrWaitFrame(made-up handle)", FN(xrWaitFrame)(made_up, NULL, &fs),
	                     XR_ERROR_HANDLE_INVALID) &&
	          rtt_expect("xrWaitFrame(instance as session)", FN(xrWaitFrame)(as_session, NULL, &fs),
	                     XR_ERROR_HANDLE_INVALID) &&
	          rtt_expect("xrDestroySpace(made-up handle)",
	                     FN(xrDestroySpace)((XrSpace)(uintptr_t)0x5254000000011234ull),
	                     XR_ERROR_HANDLE_INVALID) &&
	          rtt_expect("xrDestroySession", FN(xrDestroySession)(session), XR_SUCCESS) &&
	          rtt_expect("xrDestroySession(stale handle)", FN(xrDestroySession)(session),
	                     XR_ERROR_HANDLE_INVALID);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RUNTIME.so\n", argv[0]);
		return 2;
	}
	if (!negotiate(argv[1]) || !create_instance())
		return 1;
	/* Looked up first: a destroyed instance can no longer look anything up. */
	PFN_xrDestroyInstance destroy = FN(xrDestroyInstance);
	bool ok = test_bad_handles() &&
	          rtt_expect("xrDestroyInstance", destroy(g_instance), XR_SUCCESS) &&
	          rtt_expect("xrDestroyInstance(stale handle)", destroy(g_instance),
	                     XR_ERROR_HANDLE_INVALID);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
