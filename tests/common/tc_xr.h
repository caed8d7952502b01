/*
 * OpenXR set-up shared by the test bed's applications (the test app and the
 * benchmark program).
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

#endif /* TC_XR_H */
