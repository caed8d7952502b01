/*
 * Logging: init information and warnings on stderr, never per-frame lines.
 */
#include "rt_internal.h"

#include <stdarg.h>
#include <stdio.h>

void rt_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One fprintf per line so lines from threads do not interleave. */
	fprintf(stderr, "[xrlm-test-runtime] %s\n", line);
}
