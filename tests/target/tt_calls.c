/*
 * The target's own calls to the layers below (see tt_calls.h).
 */
#include "tt_calls.h"

#include "tt_log.h"
#include "u_parse.h"

#include <stdio.h>
#include <string.h>

static const char *const callee_names[TT_CALLEE_COUNT] = {
	[TT_CALLEE_LOCATE_SPACE] = "xrLocateSpace",
	[TT_CALLEE_LOCATE_VIEWS] = "xrLocateViews",
	[TT_CALLEE_INSTANCE_PROPERTIES] = "xrGetInstanceProperties",
};

const char *tt_callee_name(enum tt_callee c)
{
	return callee_names[c];
}

/* One "name" or "name:N" item of @p len bytes at @p item; false if bad. */
static bool parse_item(const char *item, size_t len, struct tt_calls *out)
{
	const char *colon = memchr(item, ':', len);
	size_t name_len = colon ? (size_t)(colon - item) : len;
	uint64_t n = 1;
	if (colon) {
		if (u_parse_span_u64(colon + 1, len - name_len - 1, &n) != U_PARSE_OK || n < 1 ||
		    n > TT_CALLS_MAX_EACH)
			return false;
	}
	for (int c = 0; c < TT_CALLEE_COUNT; c++) {
		if (strlen(callee_names[c]) == name_len && memcmp(item, callee_names[c], name_len) == 0) {
			if (out->n[c] + n > TT_CALLS_MAX_EACH)
				return false;
			out->n[c] += (uint32_t)n;
			return true;
		}
	}
	return false;
}

bool tt_calls_parse(const char *var, const char *text, struct tt_calls *out)
{
	*out = (struct tt_calls){0};
	const char *p = text;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (!parse_item(p, len, out))
			break;
		if (!end)
			return true;
		p = end + 1;
	}
	*out = (struct tt_calls){0};
	tt_log("%s=\"%s\" is not a comma list of FUNCTION or FUNCTION:N (N 1..%d; functions: "
	       "xrLocateSpace, xrLocateViews, xrGetInstanceProperties); using the default (none)",
	       var, text, TT_CALLS_MAX_EACH);
	return false;
}

bool tt_calls_any(const struct tt_calls *c)
{
	return tt_calls_total(c) > 0;
}

uint32_t tt_calls_total(const struct tt_calls *c)
{
	uint32_t total = 0;
	for (int i = 0; i < TT_CALLEE_COUNT; i++)
		total += c->n[i];
	return total;
}

void tt_calls_format(const struct tt_calls *c, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < TT_CALLEE_COUNT && used < size; i++) {
		if (!c->n[i])
			continue;
		int w = snprintf(buf + used, size - used, "%s%s:%u", used ? "," : "",
		                 callee_names[i], c->n[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	if (!buf[0])
		snprintf(buf, size, "-");
}

static XrResult locate_space(const struct tt_call_ctx *ctx, XrTime time)
{
	PFN_xrLocateSpace fn = (PFN_xrLocateSpace)ctx->next[TT_CALLEE_LOCATE_SPACE];
	XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
	if (!fn || !ctx->view_space || !ctx->local_space)
		return XR_ERROR_HANDLE_INVALID;
	return fn(ctx->view_space, ctx->local_space, time, &loc);
}

static XrResult locate_views(const struct tt_call_ctx *ctx, XrTime time)
{
	PFN_xrLocateViews fn = (PFN_xrLocateViews)ctx->next[TT_CALLEE_LOCATE_VIEWS];
	XrViewLocateInfo info = {
		.type = XR_TYPE_VIEW_LOCATE_INFO,
		.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
		.displayTime = time,
		.space = ctx->local_space,
	};
	XrViewState state = {.type = XR_TYPE_VIEW_STATE};
	XrView views[2] = {{.type = XR_TYPE_VIEW}, {.type = XR_TYPE_VIEW}};
	uint32_t n = 0;
	if (!fn || !ctx->session || !ctx->local_space)
		return XR_ERROR_HANDLE_INVALID;
	return fn(ctx->session, &info, &state, 2, &n, views);
}

static XrResult instance_properties(const struct tt_call_ctx *ctx)
{
	PFN_xrGetInstanceProperties fn =
		(PFN_xrGetInstanceProperties)ctx->next[TT_CALLEE_INSTANCE_PROPERTIES];
	XrInstanceProperties props = {.type = XR_TYPE_INSTANCE_PROPERTIES};
	if (!fn || !ctx->instance)
		return XR_ERROR_HANDLE_INVALID;
	return fn(ctx->instance, &props);
}

static XrResult call_one(enum tt_callee c, const struct tt_call_ctx *ctx, XrTime time)
{
	switch (c) {
	case TT_CALLEE_LOCATE_SPACE: return locate_space(ctx, time);
	case TT_CALLEE_LOCATE_VIEWS: return locate_views(ctx, time);
	case TT_CALLEE_INSTANCE_PROPERTIES: return instance_properties(ctx);
	case TT_CALLEE_COUNT: break;
	}
	return XR_ERROR_FUNCTION_UNSUPPORTED;
}

uint32_t tt_calls_make(const struct tt_calls *c, const struct tt_call_ctx *ctx, XrTime time)
{
	uint32_t failed = 0;
	for (int i = 0; i < TT_CALLEE_COUNT; i++)
		for (uint32_t k = 0; k < c->n[i]; k++)
			failed += call_one((enum tt_callee)i, ctx, time) != XR_SUCCESS;
	return failed;
}
