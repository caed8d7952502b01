/*
 * Prefixed stderr logging for the synthetic target layer.
 */
#include "tt_log.h"
#include "tc_log.h"

#include <stdarg.h>

void tt_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_log_v("[xrlm-test-target] ", 512, fmt, ap);
	va_end(ap);
}

void tt_log_warn(void *ctx, const char *message)
{
	(void)ctx;
	tt_log("%s", message);
}
