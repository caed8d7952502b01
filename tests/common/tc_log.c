/*
 * Prefixed stderr logging shared by the test bed's programs.
 */
#include "tc_log.h"

#include <stdio.h>

void tc_log_v(const char *prefix, size_t max, const char *fmt, va_list ap)
{
	char line[TC_LOG_MAX];
	vsnprintf(line, max < sizeof(line) ? max : sizeof(line), fmt, ap);
	fprintf(stderr, "%s%s\n", prefix, line);
}
