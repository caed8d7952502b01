/*
 * Small helpers for the OpenXR calling conventions.
 */
#include "rt_internal.h"

#include <string.h>

XrResult rt_two_call_begin(uint32_t capacity, uint32_t *count_out, const void *out,
                           uint32_t count, bool *fill)
{
	*fill = false;
	if (!count_out)
		return XR_ERROR_VALIDATION_FAILURE;
	*count_out = count;
	if (capacity == 0)
		return XR_SUCCESS;
	if (capacity < count)
		return XR_ERROR_SIZE_INSUFFICIENT;
	if (!out)
		return XR_ERROR_VALIDATION_FAILURE;
	*fill = true;
	return XR_SUCCESS;
}

XrResult rt_two_call(uint32_t capacity, uint32_t *count_out, void *out, const void *src,
                     uint32_t count, size_t elem_size)
{
	bool fill;
	XrResult r = rt_two_call_begin(capacity, count_out, out, count, &fill);
	if (r == XR_SUCCESS && fill && count > 0)
		memcpy(out, src, (size_t)count * elem_size);
	return r;
}

XrResult rt_two_call_string(uint32_t capacity, uint32_t *count_out, char *out, const char *src)
{
	return rt_two_call(capacity, count_out, out, src, (uint32_t)strlen(src) + 1, 1);
}

XrResult rt_check_struct(const void *s, XrStructureType type)
{
	const XrBaseInStructure *base = s;
	return base && base->type == type ? XR_SUCCESS : XR_ERROR_VALIDATION_FAILURE;
}

XrResult rt_check_struct_opt(const void *s, XrStructureType type)
{
	return s ? rt_check_struct(s, type) : XR_SUCCESS;
}

bool rt_name_ok(const char *s, size_t max)
{
	return s[0] != '\0' && memchr(s, '\0', max) != NULL;
}
