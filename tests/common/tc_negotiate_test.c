/*
 * tc_negotiate's checks: a well-formed pair passes, and each member the
 * loader could get wrong, changed alone, makes the check fail.
 */
#include "tc_negotiate.h"

#include <stdio.h>

static int g_failures;

static void expect(const char *what, bool got, bool want)
{
	if (got == want)
		return;
	fprintf(stderr, "FAIL: %s: %s, expected %s\n", what, got ? "accepted" : "refused",
	        want ? "accepted" : "refused");
	g_failures++;
}

static XrNegotiateLoaderInfo good_info(void)
{
	return (XrNegotiateLoaderInfo){
		.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO,
		.structVersion = XR_LOADER_INFO_STRUCT_VERSION,
		.structSize = sizeof(XrNegotiateLoaderInfo),
		.minInterfaceVersion = 1,
		.maxInterfaceVersion = 1,
		.minApiVersion = XR_MAKE_VERSION(1, 0, 0),
		.maxApiVersion = XR_CURRENT_API_VERSION,
	};
}

/* One loader info member set to a wrong value. */
struct info_change {
	const char *what;
	void (*apply)(XrNegotiateLoaderInfo *info);
};

static void bad_type(XrNegotiateLoaderInfo *i) { i->structType = XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST; }
static void bad_version(XrNegotiateLoaderInfo *i) { i->structVersion = XR_LOADER_INFO_STRUCT_VERSION + 1; }
static void bad_size(XrNegotiateLoaderInfo *i) { i->structSize = sizeof(*i) - 1; }
static void range_above(XrNegotiateLoaderInfo *i) { i->minInterfaceVersion = i->maxInterfaceVersion = 2; }
static void range_below(XrNegotiateLoaderInfo *i) { i->minInterfaceVersion = i->maxInterfaceVersion = 0; }

static const struct info_change g_info_changes[] = {
	{"loader info structType", bad_type},
	{"loader info structVersion", bad_version},
	{"loader info structSize", bad_size},
	{"interface range above ours", range_above},
	{"interface range below ours", range_below},
};

/* Either request; both start with the same three header members. */
union request {
	XrNegotiateRuntimeRequest runtime;
	XrNegotiateApiLayerRequest layer;
};

/* One side of the negotiation: its check and a request it must accept. */
struct kind {
	const char *name;
	bool (*ok)(const XrNegotiateLoaderInfo *info, const union request *req);
	union request good;
};

static bool runtime_ok(const XrNegotiateLoaderInfo *info, const union request *req)
{
	return tc_negotiate_runtime_ok(info, req ? &req->runtime : NULL);
}

static bool layer_ok(const XrNegotiateLoaderInfo *info, const union request *req)
{
	return tc_negotiate_layer_ok(info, req ? &req->layer : NULL);
}

static void check(const struct kind *k, const char *what, const XrNegotiateLoaderInfo *info,
                  const union request *req, bool want)
{
	char name[128];
	snprintf(name, sizeof(name), "%s: %s", k->name, what);
	expect(name, k->ok(info, req), want);
}

static void test_kind(const struct kind *k)
{
	XrNegotiateLoaderInfo info = good_info();
	check(k, "good pair", &info, &k->good, true);
	check(k, "no info", NULL, &k->good, false);
	check(k, "no request", &info, NULL, false);
	for (size_t c = 0; c < sizeof(g_info_changes) / sizeof(g_info_changes[0]); c++) {
		XrNegotiateLoaderInfo bad = info;
		g_info_changes[c].apply(&bad);
		check(k, g_info_changes[c].what, &bad, &k->good, false);
	}
	union request bad = k->good;
	bad.runtime.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO;
	check(k, "request structType", &info, &bad, false);
	bad = k->good;
	bad.runtime.structVersion++;
	check(k, "request structVersion", &info, &bad, false);
	bad = k->good;
	bad.runtime.structSize--;
	check(k, "request structSize", &info, &bad, false);
}

int main(void)
{
	static const struct kind kinds[] = {
		{"runtime", runtime_ok, {.runtime = {
			.structType = XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST,
			.structVersion = XR_RUNTIME_INFO_STRUCT_VERSION,
			.structSize = sizeof(XrNegotiateRuntimeRequest)}}},
		{"layer", layer_ok, {.layer = {
			.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST,
			.structVersion = XR_API_LAYER_INFO_STRUCT_VERSION,
			.structSize = sizeof(XrNegotiateApiLayerRequest)}}},
	};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		test_kind(&kinds[k]);
	printf("%s\n", g_failures ? "FAIL" : "PASS");
	return g_failures ? 1 : 0;
}
