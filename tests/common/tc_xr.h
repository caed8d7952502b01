/*
 * OpenXR set-up and event polling shared by the test bed's applications (the
 * test app, the runtime's test programs and the benchmark program).
 */
#ifndef TC_XR_H
#define TC_XR_H

#include <openxr/openxr.h>

/*
 * Creates an instance for application @p app_name (engine "xrlm", API 1.0)
 * with the one extension @p extension enabled. Returns xrCreateInstance's result.
 */
XrResult tc_xr_create_instance(const char *app_name, const char *extension,
                               XrInstance *instance);

/* As tc_xr_create_instance(), with the @p count extensions @p extensions enabled. */
XrResult tc_xr_create_instance_n(const char *app_name, uint32_t count,
                                 const char *const *extensions, XrInstance *instance);

/*
 * The next session state change in @p instance's event queue, other events
 * skipped: XR_SUCCESS with @p state set, XR_EVENT_UNAVAILABLE once the queue
 * is empty, what a failing xrPollEvent returned, or XR_ERROR_INSTANCE_LOST
 * for an XrEventDataInstanceLossPending (what the instance's calls return
 * next anyway).
 */
XrResult tc_xr_next_state(XrInstance instance, XrSessionState *state);

#endif /* TC_XR_H */
