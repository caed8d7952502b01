/*
 * xrlm-bench-spawn: a command's whole cost, process start included.
 *
 *   xrlm-bench-spawn [--runs N] [--rm PATH]... -- COMMAND [ARG...]
 *
 * Runs COMMAND N times (default 5), one after another. Each run is timed
 * from just before posix_spawn() to just after wait4() returned its status,
 * so the figure holds the exec, the dynamic linking and the exit, and
 * nothing of a wrapper (a `/usr/bin/time` around it adds its own fork and
 * exec, ~2 ms on a VM). The PATHs are removed before each run, untimed
 * (`xrlm merge` never replaces an output). Prints one line per run and a
 * summary with bench/pct.awk's percentiles:
 *
 *   run i=1 wall_ms=4.512 cpu_ms=3.900 maxrss_kb=9120 faults=310
 *   wall_ms n=5 p10=.. p25=.. p50=.. ...
 *
 * Exit status 0 when every run exited 0; 1 otherwise (its status said).
 */
#include "bx_stats.h"
#include "u_parse.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SPAWN_MAX_RUNS 10000
#define SPAWN_MAX_RM 8

extern char **environ;

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static double timeval_ms(const struct timeval *t)
{
	return (double)t->tv_sec * 1e3 + (double)t->tv_usec / 1e3;
}

static int usage(void)
{
	fprintf(stderr, "usage: xrlm-bench-spawn [--runs N] [--rm PATH]... -- COMMAND [ARG...]\n");
	return 2;
}

/* One timed run; its figures into the arrays at @p i. Returns 0 or -1 (said). */
static int run_once(char **cmd, int i, double *wall, double *cpu, double *rss)
{
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	int err = posix_spawnp(&pid, cmd[0], NULL, NULL, cmd, environ);
	if (err) {
		fprintf(stderr, "xrlm-bench-spawn: %s: %s\n", cmd[0], strerror(err));
		return -1;
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall[i] = ms_between(&t0, &t1);
	cpu[i] = timeval_ms(&ru.ru_utime) + timeval_ms(&ru.ru_stime);
	rss[i] = (double)ru.ru_maxrss;
	/* Page faults: on a VM each can cost 2-40 us (bench/RESULTS.md). */
	printf("run i=%d wall_ms=%.3f cpu_ms=%.3f maxrss_kb=%ld faults=%ld\n", i + 1, wall[i], cpu[i],
	       ru.ru_maxrss, ru.ru_minflt + ru.ru_majflt);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "xrlm-bench-spawn: %s: %s %d\n", cmd[0],
		        WIFEXITED(status) ? "exit status" : "killed by signal",
		        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *rm[SPAWN_MAX_RM];
	int rm_count = 0;
	uint64_t runs = 5;
	int i = 1;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--runs")) {
			if (u_parse_u64(argv[++i], 1, SPAWN_MAX_RUNS, &runs) != U_PARSE_OK)
				return usage();
		} else if (!strcmp(argv[i], "--rm") && rm_count < SPAWN_MAX_RM) {
			rm[rm_count++] = argv[++i];
		} else {
			return usage();
		}
	}
	if (i + 1 >= argc)
		return usage();
	char **cmd = argv + i + 1;

	double *wall = calloc(runs, sizeof(double));
	double *cpu = calloc(runs, sizeof(double));
	double *rss = calloc(runs, sizeof(double));
	int ret = wall && cpu && rss ? 0 : 1;
	for (int r = 0; ret == 0 && r < (int)runs; r++) {
		for (int k = 0; k < rm_count; k++)
			unlink(rm[k]);
		if (run_once(cmd, r, wall, cpu, rss) != 0)
			ret = 1;
	}
	if (ret == 0) {
		bx_print_series("wall_ms", wall, runs);
		bx_print_series("cpu_ms", cpu, runs);
		bx_print_series("maxrss_kb", rss, runs);
	}
	free(wall);
	free(cpu);
	free(rss);
	return ret;
}
