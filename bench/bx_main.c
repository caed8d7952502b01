/*
 * xrlm-bench-frames MODE [--frames N] [--block N] [--warmup N] [--gap-ms N]
 *                        [--after N] [--wait-merge] [--hz N] [--disturb-kb N] [--threads N]
 *
 * MODE: cost, calls, clock, stall, startup or paced (see bx_bench.h). Prints "key n=.. p50=.."
 * or "key a=.. b=.." lines for bench/run to parse; exit 0 on success.
 */
#include "bx_bench.h"

#include "u_parse.h"

#include <stdio.h>
#include <string.h>

static int usage(void)
{
	fprintf(stderr, "usage: xrlm-bench-frames cost|calls|clock|stall|startup|paced [--frames N] "
	                "[--block N] [--warmup N] [--gap-ms N] [--after N] [--wait-merge] [--hz N] "
	                "[--disturb-kb N] [--threads N]\n");
	return 2;
}

/* The option's u64 field, or NULL when @p name takes no number. */
static uint64_t *number_option(struct bx_opts *o, const char *name)
{
	if (!strcmp(name, "--frames")) return &o->frames;
	if (!strcmp(name, "--block")) return &o->block;
	if (!strcmp(name, "--warmup")) return &o->warmup;
	if (!strcmp(name, "--gap-ms")) return &o->gap_ms;
	if (!strcmp(name, "--after")) return &o->after;
	if (!strcmp(name, "--hz")) return &o->hz;
	if (!strcmp(name, "--disturb-kb")) return &o->disturb_kb;
	if (!strcmp(name, "--threads")) return &o->threads;
	return NULL;
}

static bool parse(int argc, char **argv, struct bx_opts *o)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--wait-merge")) {
			o->wait_merge = true;
			continue;
		}
		uint64_t *field = number_option(o, argv[i]);
		if (!field || i + 1 >= argc ||
		    u_parse_u64(argv[i + 1], 0, 100000000, field) != U_PARSE_OK)
			return false;
		i++;
	}
	return o->block > 0 && o->frames >= o->block;
}

int main(int argc, char **argv)
{
	struct bx_opts o = {.frames = 200000, .block = 10000, .warmup = 20000, .after = 20000000};
	if (argc < 2 || !parse(argc, argv, &o))
		return usage();
	if (!strcmp(argv[1], "cost"))
		return bx_run_cost(&o) ? 0 : 1;
	if (!strcmp(argv[1], "calls"))
		return bx_run_calls(&o) ? 0 : 1;
	if (!strcmp(argv[1], "clock"))
		return bx_run_clock(&o) ? 0 : 1;
	if (!strcmp(argv[1], "stall"))
		return bx_run_stall(&o) ? 0 : 1;
	if (!strcmp(argv[1], "paced"))
		return bx_run_paced(&o) ? 0 : 1;
	if (!strcmp(argv[1], "startup"))
		return bx_run_startup(&o) ? 0 : 1;
	return usage();
}
