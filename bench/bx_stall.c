/*
 * Stop stall: runs a recording session up to its frame limit (blocks with
 * gaps, so the writers keep every frame and the stop really merges them
 * all), sampling the process's memory on the way; then keeps running
 * unpaced frames, each xrEndFrame bracketed, until post's merged CSV is in
 * place. The longest xrEndFrame after the stop is the stall the frame
 * thread saw; the longest of as many frames before it is this machine's
 * noise.
 */
#include "bx_bench.h"

#include "bx_proc.h"
#include "bx_session.h"
#include "bx_time.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* How often (in frames) the merged file is looked for, between frames. */
#define MERGE_CHECK_EVERY 1024
/* Frames before the limit counted into the stop's window. */
#define STOP_LEAD 2

static bool merged_csv_exists(void)
{
	const char *dir = getenv("XRLM_OUTPUT_DIR");
	char pattern[4096];
	glob_t g;
	if (!dir)
		return false;
	snprintf(pattern, sizeof(pattern), "%s/frames-merged-*.csv", dir);
	bool found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return found;
}

static void maybe_print_mem(uint64_t done)
{
	for (uint64_t at = 10000; at <= done; at *= 10)
		if (done == at) {
			char name[32];
			snprintf(name, sizeof(name), "frames_%llu", (unsigned long long)at);
			bx_proc_print(name);
		}
}

/* Frames [0, o->frames): blocks, gaps, memory samples. */
static bool run_session(struct bx_session *s, const struct bx_opts *o, uint64_t *dur)
{
	for (uint64_t i = 0; i < o->frames; i++) {
		if (!bx_session_frame(s, &dur[i]))
			return false;
		maybe_print_mem(i + 1);
		if ((i + 1) % o->block)
			continue;
		if (!bx_session_poll(s))
			return false;
		bx_sleep_ms(o->gap_ms);
	}
	return true;
}

/* The frame thread's context switches: voluntary (it blocked), involuntary (preempted). */
static void thread_switches(long *voluntary, long *involuntary)
{
	struct rusage ru;
	*voluntary = *involuntary = 0;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return;
	*voluntary = ru.ru_nvcsw;
	*involuntary = ru.ru_nivcsw;
}

/* Unpaced frames after the stop until the merge is done; returns the count. */
static uint64_t run_after(struct bx_session *s, const struct bx_opts *o, uint64_t *dur,
                          uint64_t *wall_ns, bool *merged)
{
	long v0, i0, v1, i1;
	thread_switches(&v0, &i0);
	uint64_t t0 = bx_now_ns(), n = 0;
	*merged = false;
	while (n < o->after) {
		if (!bx_session_frame(s, &dur[n++]))
			break;
		if (n % MERGE_CHECK_EVERY || !o->wait_merge)
			continue;
		if (!bx_session_poll(s))
			break;
		if ((*merged = merged_csv_exists()))
			break;
	}
	*wall_ns = bx_now_ns() - t0;
	thread_switches(&v1, &i1);
	printf("switches after_stop voluntary=%ld involuntary=%ld\n", v1 - v0, i1 - i0);
	return n;
}

/* Frames over the stall target (100 µs): a rare hypervisor preemption
 * makes the maximum a matter of luck; the count says how often. */
#define STALL_TARGET_NS 100000u

static uint64_t count_over(const uint64_t *v, uint64_t n)
{
	uint64_t c = 0;
	for (uint64_t i = 0; i < n; i++)
		c += v[i] > STALL_TARGET_NS;
	return c;
}

static uint64_t max_of(const uint64_t *v, uint64_t n)
{
	uint64_t m = 0;
	for (uint64_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

bool bx_run_stall(const struct bx_opts *o)
{
	size_t bytes = (o->frames + o->after + 1) * sizeof(uint64_t);
	uint64_t *dur = malloc(bytes);
	struct bx_session s = {0};
	/* Touched now: a page fault in a timed frame would be ours, not the layers'. */
	if (dur)
		memset(dur, 0xff, bytes); /* not 0: that becomes calloc */
	bool merged = false, ok = dur && bx_session_create(&s);
	bx_proc_print("session_begun");
	ok = ok && run_session(&s, o, dur);
	bx_proc_print("before_stop");
	uint64_t wall = 0, n = ok ? run_after(&s, o, dur + o->frames, &wall, &merged) : 0;
	bx_proc_print("after_stop");
	bx_session_destroy(&s);
	if (ok) {
		/* The stop lands on the limit's frame or the next: start a little early. */
		uint64_t lead = o->frames < STOP_LEAD ? o->frames : STOP_LEAD;
		uint64_t *stop = dur + o->frames - lead;
		n += lead;
		uint64_t before = n < o->frames - lead ? n : o->frames - lead;
		printf("stall after_frames=%llu after_ms=%.1f merged=%d max_after_ns=%llu "
		       "max_before_ns=%llu over_after=%llu over_before=%llu before_frames=%llu\n",
		       (unsigned long long)n, (double)wall / 1e6, merged,
		       (unsigned long long)max_of(stop, n),
		       (unsigned long long)max_of(stop - before, before),
		       (unsigned long long)count_over(stop, n),
		       (unsigned long long)count_over(stop - before, before),
		       (unsigned long long)before);
	}
	free(dur);
	return ok;
}
