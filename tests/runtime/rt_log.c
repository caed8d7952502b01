/*
 * Logging: init information and warnings on stderr, never per-frame lines.
 */
#include "rt_log.h"
#include "tc_log.h"

#include <stdarg.h>

void rt_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_log_v("[xrlm-test-runtime] ", 1024, fmt, ap);
	va_end(ap);
}
