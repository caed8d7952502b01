/*
 * Result checking of the test app: every OpenXR and Vulkan call goes
 * through these, so a failure prints the call and its result and the app
 * exits non-zero.
 */
#ifndef APP_CHECK_H
#define APP_CHECK_H

#include <stdbool.h>
#include <openxr/openxr.h>
#include <vulkan/vulkan.h>

/* True if @p r is a success code; else prints "CALL failed: RESULT". */
bool app_xr_ok(XrResult r, const char *call);

/* True if @p r is VK_SUCCESS; else prints "CALL failed: RESULT". */
bool app_vk_ok(VkResult r, const char *call);

/* Prints one error line, prefixed with the program name, to stderr. */
void app_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Wrap a call: APP_XR(xrFoo(...)) is false (and reported) on failure. */
#define APP_XR(call) app_xr_ok((call), #call)
#define APP_VK(call) app_vk_ok((call), #call)

#endif /* APP_CHECK_H */
