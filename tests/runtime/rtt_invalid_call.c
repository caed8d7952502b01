/*
 * The negative control for the core_validation checks: makes one call that
 * core_validation must report (xrGetSystem with a wrongly typed info
 * struct), so the test can show its checker fails on a real report.
 */
#include "rtt_common.h"

#include <stdio.h>

int main(void)
{
	struct rtt_xr xr;
	if (!rtt_create_headless(&xr) || !rtt_begin(&xr))
		return 1;
	XrSystemGetInfo bad = {.type = XR_TYPE_INSTANCE_CREATE_INFO,
	                       .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
	XrSystemId id;
	XrResult r = xrGetSystem(xr.instance, &bad, &id);
	printf("xrGetSystem with a wrongly typed info returned %d\n", r);
	return rtt_finish(&xr) ? 0 : 1;
}
