/*
 * A negotiation the layer refuses says why, in one line on stderr, with no
 * instance (so no log file): a layer name that is not the library's (a
 * renamed manifest), structures of another size or version, and version
 * ranges that do not meet. Before, each was XR_ERROR_INITIALIZATION_FAILED
 * and nothing else: the layer was just missing from the chain.
 *
 * Each case in a child of its own (a fresh library, its stderr in a file):
 * refused many times over, one line, naming the side; the right request
 * still succeeds after it, silently. Every member of the two structures'
 * headers is checked alone, and an interface range below the layer's as
 * well as one above it; two kinds of refusal in turn say one line each.
 * An accepted negotiation asks for the lower of the loader's highest API
 * version and the layer's own, and a range that is the layer's version
 * alone meets it.
 * Usage: tl_negotiate_refusals LAYER_LIBRARY LAYER_NAME SIDE
 */
#include "tl_negotiate.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRIES 200

static const char *layer_path, *layer_name, *side;

enum tl_case {
	CASE_NAME, CASE_STRUCT_SIZE, CASE_NO_REQUEST, CASE_INTERFACE, CASE_API, CASE_OK,
	/* Each member of the structures' headers alone; an interface below ours. */
	CASE_INFO_TYPE, CASE_INFO_VERSION, CASE_REQUEST_TYPE, CASE_REQUEST_VERSION,
	CASE_REQUEST_SIZE, CASE_INTERFACE_LOW,
	/* A renamed manifest and version ranges that do not meet, in turn:
	 * once per kind, not once in all. */
	CASE_TWO_KINDS,
};

/* The child: negotiates as @p c asks, TRIES times, then as the loader does. */
static int child(enum tl_case c)
{
	void *lib = dlopen(layer_path, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return 10;
	PFN_xrNegotiateLoaderApiLayerInterface negotiate = (PFN_xrNegotiateLoaderApiLayerInterface)
		dlsym(lib, "xrNegotiateLoaderApiLayerInterface");
	if (!negotiate)
		return 10;
	for (int i = 0; i < TRIES; i++) {
		XrNegotiateLoaderInfo info = tl_loader_info();
		XrNegotiateApiLayerRequest request = tl_layer_request();
		XrNegotiateApiLayerRequest *req = &request;
		/* A control byte in the name must reach the terminal escaped. */
		const char *name = c == CASE_NAME || (c == CASE_TWO_KINDS && i % 2)
		                           ? "XR_APILAYER_renamed_\033[2J" : layer_name;
		if (c == CASE_STRUCT_SIZE)
			info.structSize -= 8;
		if (c == CASE_INFO_TYPE)
			info.structType = XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST;
		if (c == CASE_INFO_VERSION)
			info.structVersion++;
		if (c == CASE_REQUEST_TYPE)
			request.structType = XR_LOADER_INTERFACE_STRUCT_LOADER_INFO;
		if (c == CASE_REQUEST_VERSION)
			request.structVersion++;
		if (c == CASE_REQUEST_SIZE)
			request.structSize += 8;
		if (c == CASE_INTERFACE_LOW)
			info.minInterfaceVersion = info.maxInterfaceVersion = 0;
		if (c == CASE_NO_REQUEST)
			req = NULL;
		if (c == CASE_INTERFACE)
			info.minInterfaceVersion = info.maxInterfaceVersion = 2;
		if (c == CASE_API || (c == CASE_TWO_KINDS && !(i % 2))) {
			info.minApiVersion = XR_MAKE_VERSION(2, 0, 0);
			info.maxApiVersion = XR_MAKE_VERSION(2, 1, 0);
		}
		XrResult r = negotiate(&info, name, req);
		if (c == CASE_OK ? r != XR_SUCCESS : r != XR_ERROR_INITIALIZATION_FAILED)
			return 11;
	}
	XrNegotiateLoaderInfo info = tl_loader_info();
	XrNegotiateApiLayerRequest request = tl_layer_request();
	if (negotiate(&info, layer_name, &request) != XR_SUCCESS || !request.getInstanceProcAddr ||
	    !request.createApiLayerInstance)
		return 12;
	return 0;
}

/* Runs case @p c in a child; its stderr into @p text (@p size). */
static bool run_case(enum tl_case c, char *text, size_t size)
{
	FILE *err = tmpfile();
	if (!err)
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fileno(err), STDERR_FILENO);
		_exit(child(c));
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "case %d: the child failed (status 0x%x)\n", (int)c, status);
		fclose(err);
		return false;
	}
	rewind(err);
	size_t n = fread(text, 1, size - 1, err);
	text[n] = '\0';
	fclose(err);
	return true;
}

static unsigned lines_of(const char *text)
{
	unsigned n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Case @p c's stderr is @p lines lines, the first of this side, holding
 * each of @p want (NULL-ended).
 */
static bool check_lines(enum tl_case c, unsigned lines, const char *const *want)
{
	char text[8192], prefix[32];

	if (!run_case(c, text, sizeof(text)))
		return false;
	snprintf(prefix, sizeof(prefix), "xrlm %s: ", side);
	bool ok = lines_of(text) == lines && strncmp(text, prefix, strlen(prefix)) == 0 &&
	          !strchr(text, '\033');
	for (; ok && *want; want++)
		ok = strstr(text, *want) != NULL;
	if (!ok)
		fprintf(stderr, "FAIL: case %d: expected %u line(s) \"%s...\" holding %s; "
		        "stderr was:\n%s\n", (int)c, lines, prefix, *want ? *want : "the rest", text);
	return ok;
}

/* Case @p c's stderr is one line, of this side, holding each of @p want (NULL-ended). */
static bool check(enum tl_case c, const char *const *want)
{
	return check_lines(c, 1, want);
}

/*
 * The API version the layer asks for, offered @p min to @p max: the
 * lower of its own and @p max; @p want_ok: whether it is accepted at all.
 */
static bool check_api(XrVersion min, XrVersion max, bool want_ok, XrVersion want)
{
	void *lib = dlopen(layer_path, RTLD_NOW | RTLD_LOCAL);
	PFN_xrNegotiateLoaderApiLayerInterface negotiate = lib ?
		(PFN_xrNegotiateLoaderApiLayerInterface)dlsym(lib, "xrNegotiateLoaderApiLayerInterface")
		: NULL;
	XrNegotiateLoaderInfo info = tl_loader_info();
	XrNegotiateApiLayerRequest request = tl_layer_request();

	info.minApiVersion = min;
	info.maxApiVersion = max;
	XrResult r = negotiate ? negotiate(&info, layer_name, &request) : XR_ERROR_RUNTIME_FAILURE;
	bool ok = want_ok ? r == XR_SUCCESS && request.layerApiVersion == want &&
	                    request.layerInterfaceVersion == XR_CURRENT_LOADER_API_LAYER_VERSION
	                  : r == XR_ERROR_INITIALIZATION_FAILED;
	if (!ok)
		fprintf(stderr, "FAIL: OpenXR 0x%llx to 0x%llx offered: result %d, API version 0x%llx, "
		        "expected %s 0x%llx\n", (unsigned long long)min, (unsigned long long)max,
		        (int)r, (unsigned long long)request.layerApiVersion,
		        want_ok ? "success with" : "a refusal, not", (unsigned long long)want);
	return ok;
}

int main(int argc, char **argv)
{
	char text[4096], is[160], back[160], size[32];

	if (argc != 4) {
		fprintf(stderr, "usage: tl_negotiate_refusals LAYER_LIBRARY LAYER_NAME SIDE\n");
		return 2;
	}
	layer_path = argv[1], layer_name = argv[2], side = argv[3];
	snprintf(is, sizeof(is), "but that library is %s", layer_name);
	snprintf(back, sizeof(back), "\"name\" back to \"%s\"", layer_name);
	snprintf(size, sizeof(size), "size %zu;", sizeof(XrNegotiateLoaderInfo) - 8);

	const char *name[] = {"for layer \"XR_APILAYER_renamed_\\033[2J\"", is, back,
	                      "left out of the chain", NULL};
	const char *structs[] = {"negotiation structures", size, "left out of the chain", NULL};
	const char *no_request[] = {"layer request: none", NULL};
	const char *interface[] = {"layer interface 2 to 2", "speaks interface 1", NULL};
	const char *api[] = {"OpenXR 2.0.0 to 2.1.0", "OpenXR up to 1.", NULL};
	bool ok = check(CASE_NAME, name);
	ok &= check(CASE_STRUCT_SIZE, structs);
	ok &= check(CASE_NO_REQUEST, no_request);
	ok &= check(CASE_INTERFACE, interface);
	ok &= check(CASE_API, api);
	const char *structs_only[] = {"negotiation structures", "left out of the chain", NULL};
	ok &= check(CASE_INFO_TYPE, structs_only);
	ok &= check(CASE_INFO_VERSION, structs_only);
	ok &= check(CASE_REQUEST_TYPE, structs_only);
	ok &= check(CASE_REQUEST_VERSION, structs_only);
	ok &= check(CASE_REQUEST_SIZE, structs_only);
	const char *interface_low[] = {"layer interface 0 to 0", "speaks interface 1", NULL};
	ok &= check(CASE_INTERFACE_LOW, interface_low);
	const char *two_kinds[] = {"OpenXR 2.0.0 to 2.1.0", "for layer \"XR_APILAYER_renamed_", NULL};
	ok &= check_lines(CASE_TWO_KINDS, 2, two_kinds);
	/* The API version asked: the loader's highest when below ours, ours
	 * otherwise; a range that is ours alone meets. */
	ok &= check_api(XR_MAKE_VERSION(1, 0, 0), XR_MAKE_VERSION(1, 0, 0), true,
	                XR_MAKE_VERSION(1, 0, 0));
	ok &= check_api(XR_MAKE_VERSION(1, 0, 0), XR_MAKE_VERSION(1, 0x3ff, 0xfff), true,
	                XR_CURRENT_API_VERSION);
	ok &= check_api(XR_CURRENT_API_VERSION, XR_CURRENT_API_VERSION, true,
	                XR_CURRENT_API_VERSION);
	ok &= check_api(XR_CURRENT_API_VERSION + 1, XR_MAKE_VERSION(1, 0x3ff, 0xfff), false, 0);
	/* The loader's own negotiation says nothing. */
	if (!run_case(CASE_OK, text, sizeof(text)) || text[0]) {
		fprintf(stderr, "FAIL: a successful negotiation wrote: %s\n", text);
		ok = false;
	}
	if (ok)
		printf("each refused negotiation said why, once\n");
	return ok ? 0 : 1;
}
