/*
 * Call counts of the test runtime (see rt_calls.h). A counting wrapper per
 * function of the monitor's generated list (layer/xl_fn.h) calls the
 * runtime's own function through a table filled by xrGetInstanceProcAddr.
 * Counters are relaxed atomics in a fixed table, one row per thread: no
 * lock and no allocation on any call. Compiled the way the monitor's layers
 * are (their platform defines), not with rt_internal.h's: the function ids
 * must be those of layer/xl_fn.c.
 */
#include "rt_calls.h"

#include "rt_log.h"
#include "xl_fn.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Threads with a row of their own; later ones share the last row (thread_id 0). */
#define RT_CALLS_THREADS 64

static const char *path; /* XRTEST_CALL_COUNTS; NULL = off */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static PFN_xrVoidFunction real[XL_FN_COUNT];
static uint64_t counts[RT_CALLS_THREADS][XL_FN_COUNT];
static uint32_t tids[RT_CALLS_THREADS];
static uint32_t rows_used;
static __thread int my_row = -1;

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static bool written; /* guarded by write_lock */

static void read_knob(void)
{
	const char *p = getenv("XRTEST_CALL_COUNTS");
	if (!p || !*p)
		return;
	path = p;
	rt_log("counting calls per function and thread into %s", path);
}

static int row(void)
{
	if (my_row >= 0)
		return my_row;
	uint32_t r = __atomic_fetch_add(&rows_used, 1, __ATOMIC_RELAXED);
	if (r >= RT_CALLS_THREADS - 1) {
		r = RT_CALLS_THREADS - 1; /* the shared overflow row, thread_id 0 */
	} else {
		__atomic_store_n(&tids[r], (uint32_t)gettid(), __ATOMIC_RELAXED);
	}
	my_row = (int)r;
	return my_row;
}

static void count(enum xl_fn_id id)
{
	__atomic_fetch_add(&counts[row()][id], 1, __ATOMIC_RELAXED);
}

#define XL_FN(ret, name, params, args)                                               \
	static ret XRAPI_CALL count_##name params                                     \
	{                                                                             \
		count(XL_FN_##name);                                                  \
		return ((PFN_##name)__atomic_load_n(&real[XL_FN_##name], __ATOMIC_RELAXED))args; \
	}
#include "xl_fn_list.h"
#undef XL_FN

static const PFN_xrVoidFunction wrappers[XL_FN_COUNT] = {
#define XL_FN(ret, name, params, args) [XL_FN_##name] = (PFN_xrVoidFunction)count_##name,
#include "xl_fn_list.h"
#undef XL_FN
};

PFN_xrVoidFunction rt_calls_wrap(const char *name, PFN_xrVoidFunction fn)
{
	pthread_once(&once, read_knob);
	if (!path || !fn)
		return fn;
	enum xl_fn_id id = xl_fn_lookup(name);
	if (id == XL_FN_COUNT)
		return fn;
	__atomic_store_n(&real[id], fn, __ATOMIC_RELAXED);
	return wrappers[id];
}

void rt_calls_write(void)
{
	if (!path)
		return;
	pthread_mutex_lock(&write_lock);
	FILE *f = fopen(path, written ? "a" : "w");
	if (!f) {
		rt_log("warning: XRTEST_CALL_COUNTS: cannot open %s", path);
	} else {
		if (!written)
			fputs("fn,thread_id,calls\n", f);
		for (int id = 0; id < XL_FN_COUNT; id++) {
			for (int r = 0; r < RT_CALLS_THREADS; r++) {
				uint64_t n = __atomic_exchange_n(&counts[r][id], 0, __ATOMIC_RELAXED);
				uint32_t tid = r == RT_CALLS_THREADS - 1 ? 0 : __atomic_load_n(&tids[r], __ATOMIC_RELAXED);
				if (n)
					fprintf(f, "%s,%u,%llu\n", xl_fn_names[id], tid, (unsigned long long)n);
			}
		}
		if (fclose(f) != 0)
			rt_log("warning: XRTEST_CALL_COUNTS: cannot write %s", path);
	}
	written = true;
	pthread_mutex_unlock(&write_lock);
}
