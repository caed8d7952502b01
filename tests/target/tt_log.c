/*
 * Prefixed stderr logging for the synthetic target layer.
 */
#include "tt_log.h"

#include <stdarg.h>
#include <stdio.h>

void tt_log(const char *fmt, ...)
{
	/* Format into one buffer and write it with one call, so lines from
	 * several threads or processes do not interleave mid-line. */
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "[xrlm-test-target] %s\n", line);
}

void tt_log_warn(void *ctx, const char *message)
{
	(void)ctx;
	tt_log("%s", message);
}
