/*
 * Prefixed stderr logging shared by the test bed's programs: the test
 * runtime, the synthetic target layer and the test app.
 */
#ifndef TC_LOG_H
#define TC_LOG_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Formats @p fmt with @p ap into at most @p max bytes (NUL included, at most
 * TC_LOG_MAX) and writes "<prefix><line>\n" to stderr with one call, so
 * lines from several threads or processes do not interleave mid-line.
 */
void tc_log_v(const char *prefix, size_t max, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* The longest line tc_log_v() formats, NUL included. */
#define TC_LOG_MAX 1024

#endif /* TC_LOG_H */
