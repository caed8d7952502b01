/*
 * XRTEST_CALL_COUNTS: the runtime counts the calls it receives, per
 * function and per calling thread, and writes them at xrDestroyInstance,
 * so tests can check exactly what reached the runtime (e.g. the calls a
 * layer makes on its own) without any layer's help.
 */
#ifndef RT_CALLS_H
#define RT_CALLS_H

#include <openxr/openxr.h>

/*
 * What xrGetInstanceProcAddr hands out for @p name, the runtime's @p fn:
 * with counting on, a counting wrapper of the generated function list;
 * else (or for a name the list does not know) @p fn itself.
 */
PFN_xrVoidFunction rt_calls_wrap(const char *name, PFN_xrVoidFunction fn);

/*
 * With counting on, writes the counts since the last write as CSV rows
 * "fn,thread_id,calls" to the file (the first write of the process
 * truncates it and writes the header, later ones append) and starts over.
 */
void rt_calls_write(void);

#endif /* RT_CALLS_H */
