/*
 * The test runtime's log (rt_log.c), in a header of its own for the files
 * that cannot include rt_internal.h's platform defines (rt_calls.c).
 */
#ifndef RT_LOG_H
#define RT_LOG_H

/* Writes one "[xrlm-test-runtime] ..." line to stderr. */
void rt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* RT_LOG_H */
