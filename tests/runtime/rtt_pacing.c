/*
 * Pacing test: a headless session runs FRAMES frames and checks that
 * xrWaitFrame paces at the requested rate: predictedDisplayPeriod is
 * 1/HZ, the display times step by whole periods and mostly by one, and
 * no wait returns before its wake-up (see check_paced: what a loaded
 * machine cannot change; the median interval of the returns is printed,
 * not judged); that display times are unique and increasing;
 * and that rate 0 runs unpaced (fast: the median interval).
 *
 * usage: rtt_pacing --rate HZ --frames N [--expect-exit] [--cpu-us US] [--period-only]
 *   HZ is what XRTEST_FRAME_RATE should have produced (ctest sets both).
 *   --cpu-us: XRTEST_COMPOSITOR_CPU_US=US is set; unpaced frames must then
 *   take at least US (the busy wait) and not much more.
 *   --period-only: check predictedDisplayPeriod against HZ but not the
 *   measured intervals (for runs that only check which rate is in effect).
 *   --expect-exit: XRTEST_EXIT_AFTER_FRAMES=N is set; the runtime must end
 *   the session after exactly N frames through the normal state path.
 */
#include "rtt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RTT_MAX_FRAMES 10000

struct args {
	double rate;
	uint32_t frames;
	bool expect_exit;
	double cpu_us;
	bool period_only;
};

static bool parse_args(int argc, char **argv, struct args *a)
{
	*a = (struct args){.rate = -1};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc)
			a->rate = atof(argv[++i]);
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
			a->frames = (uint32_t)atoi(argv[++i]);
		else if (strcmp(argv[i], "--expect-exit") == 0)
			a->expect_exit = true;
		else if (strcmp(argv[i], "--period-only") == 0)
			a->period_only = true;
		else if (strcmp(argv[i], "--cpu-us") == 0 && i + 1 < argc)
			a->cpu_us = atof(argv[++i]);
		else
			return false;
	}
	return a->rate >= 0 && a->frames >= 2 && a->frames <= RTT_MAX_FRAMES;
}

static int compare_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median of @p n values, reordering them. */
static int64_t median_i64(int64_t *v, uint32_t n)
{
	qsort(v, n, sizeof(v[0]), compare_i64);
	return v[(n - 1) / 2];
}

/*
 * The calling thread's time so far runnable but not running, waiting for
 * a CPU (ns: the second field of /proc/thread-self/schedstat), or -1 where
 * the kernel does not say.
 */
static int64_t run_delay_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	long long cpu, delay;
	int got = f ? fscanf(f, "%lld %lld", &cpu, &delay) : 0;

	if (f)
		fclose(f);
	return got == 2 ? delay : -1;
}

/*
 * Unpaced frames take the compositor's busy wait and little else. The
 * wait spins on the clock, so a frame is never shorter than it (the
 * median interval: the sanitizers' own threads may cut one short of
 * nothing, but not most). What else a frame takes is judged without the
 * time the thread waited for a CPU (@p ready, run_delay_ns() after each
 * frame): the median interval alone read 4.2 ms for a 3 ms wait beside
 * two busy loops on two CPUs, and 9 to 17 ms beside ten, the spin
 * preempted inside; less that wait, 1.6 to 2.8 ms (a spin preempted past
 * its end on the clock ends when it runs again). Where the kernel keeps
 * no such count, the interval is judged as it is.
 */
static bool check_unpaced(const int64_t *wake, const int64_t *ready, uint32_t n, double cpu_us)
{
	static int64_t interval[RTT_MAX_FRAMES + 50], own[RTT_MAX_FRAMES + 50];
	bool counted = ready[0] >= 0;
	for (uint32_t i = 1; i < n; i++) {
		interval[i - 1] = wake[i] - wake[i - 1];
		own[i - 1] = interval[i - 1] - (counted ? ready[i] - ready[i - 1] : 0);
	}
	double median_ns = (double)median_i64(interval, n - 1);
	double own_ns = (double)median_i64(own, n - 1);
	printf("unpaced: median interval %.4f ms, %.4f ms less the waits for a CPU%s "
	       "(XRTEST_COMPOSITOR_CPU_US %g)\n", median_ns / 1e6, own_ns / 1e6,
	       counted ? "" : " (not counted here)", cpu_us);
	if (median_ns < cpu_us * 1e3)
		return rtt_fail("frames took %.3f ms, less than the %g us busy wait", median_ns / 1e6, cpu_us);
	if (own_ns > cpu_us * 1e3 + 1e6)
		return rtt_fail("unpaced frames took %.3f ms each, less the waits for a CPU",
		                own_ns / 1e6);
	return true;
}

/*
 * Paced frames, judged by what a loaded machine cannot change. A client
 * preempted past its frame's wake-up (other processes on 2 CPUs) gets
 * its wait back at once and skips to a later period of the runtime's
 * grid: the phase is kept, the display times stay on the grid, and only
 * the intervals between the returns move. The mean interval of the
 * returns and of the display times was judged here, and a few skipped
 * periods (load 15 to 25) took it past 2 %; the median interval of the
 * returns too, once more than a few frames are late (a test at nice 19
 * beside ten busy loops: 6 to 8 ms at 90 Hz). Judged instead, exactly:
 *  - every predictedDisplayTime step is a whole, positive number of
 *    periods (a runtime pacing on another grid, 100 Hz for 90, fails);
 *  - the median step is one period (one that skips every other period,
 *    half the rate, fails);
 *  - no xrWaitFrame returns before its wake-up, its display time less one
 *    period (one that sleeps too little, or not at all, fails: its
 *    returns would come faster than the rate).
 */
static bool check_paced(const int64_t *wake, const int64_t *disp, uint32_t n, int64_t period,
                        double rate)
{
	static int64_t step[RTT_MAX_FRAMES + 50], interval[RTT_MAX_FRAMES + 50];
	uint32_t skipped = 0;
	for (uint32_t i = 1; i < n; i++) {
		int64_t d = disp[i] - disp[i - 1];
		if (d % period != 0)
			return rtt_fail("predictedDisplayTime %u is %lld ns after %u: not a whole "
			                "number of %lld ns periods", i, (long long)d, i - 1,
			                (long long)period);
		skipped += (uint32_t)(d / period - 1);
		step[i - 1] = d;
		interval[i - 1] = wake[i] - wake[i - 1];
	}
	for (uint32_t i = 0; i < n; i++)
		if (wake[i] < disp[i] - period)
			return rtt_fail("xrWaitFrame %u returned %lld ns before its wake-up (display "
			                "time less one period)", i,
			                (long long)(disp[i] - period - wake[i]));
	int64_t median_step = median_i64(step, n - 1);
	double median_ns = (double)median_i64(interval, n - 1);
	printf("predictedDisplayTime steps: median %lld ns, %u periods skipped in %u frames\n",
	       (long long)median_step, skipped, n);
	/* Said, not judged: see above. */
	printf("xrWaitFrame returns: median interval %.4f ms = %.3f Hz (requested %.3f Hz)\n",
	       median_ns / 1e6, 1e9 / median_ns, rate);
	if (median_step != period)
		return rtt_fail("the median predictedDisplayTime step is %lld ns, not one period "
		                "(%lld ns)", (long long)median_step, (long long)period);
	return true;
}

static bool check_times(const int64_t *wake, const int64_t *ready, const int64_t *disp,
                        const XrFrameState *last, uint32_t n, const struct args *a)
{
	double rate = a->rate;
	for (uint32_t i = 1; i < n; i++)
		if (disp[i] <= disp[i - 1])
			return rtt_fail("predictedDisplayTime %u (%lld) is not after %u (%lld)", i,
			                (long long)disp[i], i - 1, (long long)disp[i - 1]);
	if (rate == 0)
		return check_unpaced(wake, ready, n, a->cpu_us);
	int64_t period = (int64_t)(1e9 / rate + 0.5);
	if (last->predictedDisplayPeriod != period)
		return rtt_fail("predictedDisplayPeriod %lld, expected %lld",
		                (long long)last->predictedDisplayPeriod, (long long)period);
	printf("predictedDisplayPeriod %lld ns\n", (long long)period);
	if (a->period_only)
		return true;
	return check_paced(wake, disp, n, period, rate);
}

/* Runs frames until @p a->frames are done or, with --expect-exit, the runtime stops us. */
static bool run(struct rtt_xr *xr, const struct args *a, int64_t *wake, int64_t *ready,
                int64_t *disp, XrFrameState *fs, uint32_t *done)
{
	uint32_t limit = a->expect_exit ? a->frames + 50 : a->frames;
	for (*done = 0; *done < limit; (*done)++) {
		if (!rtt_poll(xr))
			return false;
		if (xr->state == XR_SESSION_STATE_STOPPING)
			break;
		if (!rtt_frame(xr, fs))
			return false;
		wake[*done] = rtt_now_ns();
		ready[*done] = a->rate == 0 ? run_delay_ns() : -1;
		disp[*done] = fs->predictedDisplayTime;
	}
	if (a->expect_exit && *done != a->frames)
		return rtt_fail("the runtime stopped the session after %u frames, expected %u", *done,
		                a->frames);
	return true;
}

int main(int argc, char **argv)
{
	struct args a;
	if (!parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: %s --rate HZ --frames N [--expect-exit] [--cpu-us US] [--period-only]\n", argv[0]);
		return 2;
	}
	static int64_t wake[RTT_MAX_FRAMES + 50], ready[RTT_MAX_FRAMES + 50],
		disp[RTT_MAX_FRAMES + 50];
	struct rtt_xr xr;
	XrFrameState fs;
	uint32_t done = 0;
	bool ok = rtt_create_headless(&xr) && rtt_begin(&xr) && run(&xr, &a, wake, ready, disp, &fs, &done) &&
	          rtt_finish(&xr) && rtt_check_life_cycle(&xr) &&
	          check_times(wake, ready, disp, &fs, done, &a);
	printf("%s: %u frames\n", ok ? "PASS" : "FAIL", done);
	return ok ? 0 : 1;
}
