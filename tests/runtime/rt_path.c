/*
 * XrPath interning: xrStringToPath / xrPathToString.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <stdlib.h>
#include <string.h>

#define RT_MAX_PATHS 65536

void rt_path_table_init(struct rt_path_table *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
}

void rt_path_table_fini(struct rt_path_table *t)
{
	for (uint32_t i = 0; i < t->count; i++)
		free(t->strings[i]);
	free(t->strings);
	pthread_mutex_destroy(&t->lock);
}

bool rt_path_valid(struct rt_path_table *t, XrPath path)
{
	pthread_mutex_lock(&t->lock);
	bool ok = path != XR_NULL_PATH && path <= t->count;
	pthread_mutex_unlock(&t->lock);
	return ok;
}

/* The well-formedness rules of the spec's "Path Atom Type" section. */
static bool path_well_formed(const char *s)
{
	size_t len = strnlen(s, XR_MAX_PATH_LENGTH);
	if (len == 0 || len >= XR_MAX_PATH_LENGTH || s[0] != '/' || s[len - 1] == '/')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		          c == '.' || c == '/';
		if (!ok || (c == '/' && s[i + 1] == '/'))
			return false;
		/* A component may not be "." or ".." or start with neither letter nor digit. */
		if (c == '/' && s[i + 1] == '.')
			return false;
	}
	return true;
}

/* Finds or adds @p s; lock held. Returns XR_NULL_PATH when full. */
static XrPath intern(struct rt_path_table *t, const char *s)
{
	for (uint32_t i = 0; i < t->count; i++)
		if (strcmp(t->strings[i], s) == 0)
			return i + 1;
	if (t->count == RT_MAX_PATHS)
		return XR_NULL_PATH;
	if (t->count == t->capacity) {
		uint32_t cap = t->capacity ? t->capacity * 2 : 64;
		char **n = realloc(t->strings, cap * sizeof(*n));
		if (!n)
			return XR_NULL_PATH;
		t->strings = n;
		t->capacity = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		return XR_NULL_PATH;
	t->strings[t->count++] = copy;
	return t->count;
}

XrResult XRAPI_CALL rt_xrStringToPath(XrInstance instance, const char *pathString, XrPath *path)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get(instance, &inst);
	if (r != XR_SUCCESS)
		return r;
	if (!pathString || !path)
		return XR_ERROR_VALIDATION_FAILURE;
	if (!path_well_formed(pathString))
		return XR_ERROR_PATH_FORMAT_INVALID;
	pthread_mutex_lock(&inst->paths.lock);
	XrPath p = intern(&inst->paths, pathString);
	pthread_mutex_unlock(&inst->paths.lock);
	if (p == XR_NULL_PATH)
		return XR_ERROR_PATH_COUNT_EXCEEDED;
	*path = p;
	return XR_SUCCESS;
}

XrResult XRAPI_CALL rt_xrPathToString(XrInstance instance, XrPath path, uint32_t bufferCapacityInput,
                                      uint32_t *bufferCountOutput, char *buffer)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get(instance, &inst);
	if (r != XR_SUCCESS)
		return r;
	pthread_mutex_lock(&inst->paths.lock);
	if (path == XR_NULL_PATH || path > inst->paths.count)
		r = XR_ERROR_PATH_INVALID;
	else
		r = rt_two_call_string(bufferCapacityInput, bufferCountOutput, buffer,
		                       inst->paths.strings[path - 1]);
	pthread_mutex_unlock(&inst->paths.lock);
	return r;
}
