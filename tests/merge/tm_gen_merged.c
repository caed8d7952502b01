/*
 * Writes a synthetic merged CSV (and optionally its functions file) for the
 * tests of `xrlm report` and `xrlm compare`:
 *
 *   gen_merged OUT.csv [--frames N] [--seed S] [--cpu-us US] [--gpu-us US]
 *              [--no-gpu] [--shift-pct P] [--bimodal FRAC:PCT] [--ar PHI]
 *              [--phases] [--paced] [--functions FILE] [--hostile]
 *
 * target_us is US * (1 + P/100) * exp(0.05 e_t), where e_t is a unit AR(1)
 * series with coefficient PHI (default 0.6: autocorrelated, as real frame
 * times are), times 1 + PCT/100 on a random FRAC of the frames (a second
 * mode), with a spike of 3-10x on 0.3 % of the frames (a long tail).
 * target_gpu_us follows the same recipe from --gpu-us. The frame interval
 * is 11111 us (90 Hz) with jitter; the last row's is blank. --phases adds
 * the every-function columns (the target's time split over the phases, and
 * the app's timeline); with --paced the app waits in xrWaitFrame for what
 * the frame's other parts leave of the interval, as a paced app does (a
 * cheaper target, a longer wait). --functions writes a functions-merged file.
 * --hostile puts a name that tries to run script (and a U+2028, quotes and
 * a byte that is not UTF-8) into the target layer, a marker, an extra
 * column's name and a function's name.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE "</script><script>document.title='PWNED'</script>\"'&<!-- \xe2\x80\xa8 \xff"

struct gen_args {
	const char *out, *functions;
	long frames;
	uint64_t seed;
	double cpu_us, gpu_us, shift_pct, bimodal_frac, bimodal_pct, phi;
	int gpu, phases, paced, hostile;
};

static uint64_t gen_state;

static double uniform(void)
{
	gen_state ^= gen_state << 13;
	gen_state ^= gen_state >> 7;
	gen_state ^= gen_state << 17;
	return ((gen_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

/* One value of the recipe above; @p e is the AR(1) state. */
static double sample(const struct gen_args *a, double base, double *e)
{
	*e = a->phi * *e + sqrt(1 - a->phi * a->phi) * normal();
	double v = base * (1 + a->shift_pct / 100) * exp(0.05 * *e);
	if (uniform() < a->bimodal_frac)
		v *= 1 + a->bimodal_pct / 100;
	if (uniform() < 0.003)
		v *= 3 + 7 * uniform();
	return v;
}

static int parse(int argc, char **argv, struct gen_args *a)
{
	*a = (struct gen_args){.frames = 2000, .seed = 1, .cpu_us = 100, .gpu_us = 250,
	                       .phi = 0.6, .gpu = 1};
	if (argc < 2)
		return -1;
	a->out = argv[1];
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--no-gpu"))
			a->gpu = 0;
		else if (!strcmp(o, "--phases"))
			a->phases = 1;
		else if (!strcmp(o, "--paced"))
			a->paced = 1;
		else if (!strcmp(o, "--hostile"))
			a->hostile = 1;
		else if (!v)
			return -1;
		else if (i++, !strcmp(o, "--frames"))
			a->frames = atol(v);
		else if (!strcmp(o, "--seed"))
			a->seed = strtoull(v, NULL, 10);
		else if (!strcmp(o, "--cpu-us"))
			a->cpu_us = atof(v);
		else if (!strcmp(o, "--gpu-us"))
			a->gpu_us = atof(v);
		else if (!strcmp(o, "--shift-pct"))
			a->shift_pct = atof(v);
		else if (!strcmp(o, "--ar"))
			a->phi = atof(v);
		else if (!strcmp(o, "--functions"))
			a->functions = v;
		else if (sscanf(v, "%lf:%lf", &a->bimodal_frac, &a->bimodal_pct) != 2 ||
		         strcmp(o, "--bimodal"))
			return -1;
	}
	return a->frames >= 0 ? 0 : -1;
}

static void write_header(FILE *f, const struct gen_args *a)
{
	fprintf(f, "# frame_count=%ld\n# target_cpu_ms_mean=0.1000\n", a->frames);
	fprintf(f, "# target_layer=%s\n", a->hostile ? HOSTILE : "XR_APILAYER_test_target");
	fprintf(f, "# runtime=xrlm test runtime\n# gpu=llvmpipe (synthetic)\n");
	fprintf(f, "# clock=CLOCK_MONOTONIC\n# dropped_queue_full_pre=0\n");
	if (a->hostile)
		fprintf(f, "# marker=%s\n", HOSTILE);
	fprintf(f, "display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,"
	           "target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame");
	/* With --phases, the layouts xrlm merge writes today (merged_write.h):
	 * the calls columns, target_gpu_raw_us with GPU files, gate_tripped
	 * last. Without, the first version's nine columns, which the readers
	 * still take. */
	if (a->phases)
		fprintf(f, ",target_wait_us,target_begin_us,target_end_us,target_locate_views_us,"
		           "target_sync_actions_us,target_swapchain_us,target_other_us,target_total_us,"
		           "app_wait_us,app_cpu_us,app_render_us,app_submit_us%s,gate_tripped",
		        a->gpu ? ",target_gpu_raw_us" : "");
	if (a->hostile)
		fprintf(f, ",\"%s\"", "col</script><script>document.title='PWNED'</script>\"\"");
	fprintf(f, "\n");
}

static void write_phases(FILE *f, const struct gen_args *a, double cpu, double interval)
{
	static const double share[] = {0.10, 0.05, 0.60, 0.10, 0.05, 0.05, 0.05};
	double submit = cpu * 0.8 + 20;
	double wait = a->paced ? interval * 0.6 - submit : interval * 0.55;

	for (int i = 0; i < 7; i++)
		fprintf(f, ",%.3f", cpu * share[i]);
	fprintf(f, ",%.3f,%.3f,%.3f,%.3f,%.3f", cpu, wait, interval * 0.1, interval * 0.3, submit);
}

static void write_rows(FILE *f, const struct gen_args *a)
{
	double ec = 0, eg = 0;
	for (long i = 0; i < a->frames; i++) {
		double cpu = sample(a, a->cpu_us, &ec);
		double gpu = sample(a, a->gpu_us, &eg);
		double interval = 11111 + 200 * normal();
		int last = i == a->frames - 1;
		fprintf(f, "%ld,7,", 1000000000L + i * 11111111L);
		if (!last)
			fprintf(f, "%.3f", interval);
		fprintf(f, ",%.3f,%.3f,%.3f,", cpu + 5, 5.0, cpu);
		if (!last)
			fprintf(f, "%.4f", 100 * cpu / interval);
		if (a->gpu)
			fprintf(f, ",%.3f,", gpu);
		else
			fprintf(f, ",,");
		if (a->gpu && !last)
			fprintf(f, "%.4f", 100 * gpu / interval);
		if (a->phases) {
			write_phases(f, a, cpu, interval);
			/* The raw GPU time: the bracket correction's 5 us more. */
			if (a->gpu)
				fprintf(f, ",%.3f,0", gpu + 5);
			else
				fprintf(f, ",");
		}
		if (a->hostile)
			fprintf(f, ",1");
		fprintf(f, "\n");
	}
}

static int write_functions(const struct gen_args *a)
{
	static const char *const fns[][2] = {
		{"xrEndFrame", "end"}, {"xrWaitFrame", "wait"}, {"xrLocateViews", "locate_views"},
		{"xrSyncActions", "sync_actions"}, {"xrBeginFrame", "begin"},
		{"xrAcquireSwapchainImage", "swapchain"}, {"xrGetActionStateBoolean", "sync_actions"},
	};
	FILE *f = fopen(a->functions, "w");
	if (!f)
		return -1;
	fprintf(f, "fn,phase,calls,calls_per_frame,target_total_us,target_mean_us,target_p50_us,"
	           "target_p99_us,target_max_us,share_pct,induced_calls,own_thread_calls\n");
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		double mean = a->cpu_us * (i == 0 ? 0.6 : 0.4 / (double)(i + 1));
		fprintf(f, "%s,%s,%ld,1.000,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,0,%d\n", fns[i][0], fns[i][1],
		        a->frames, mean * (double)a->frames, mean, mean * 0.98, mean * 2, mean * 5,
		        100.0 * mean / a->cpu_us, i == 3 ? 2 : 0);
	}
	if (a->hostile)
		fprintf(f, "\"%s\",other,1,0.001,1.000,1.000,1.000,1.000,1.000,0.001,0,0\n",
		        "xr</script><script>document.title='PWNED'</script>\"\"");
	return fclose(f);
}

int main(int argc, char **argv)
{
	struct gen_args a;
	if (parse(argc, argv, &a) != 0) {
		fprintf(stderr, "usage: gen_merged OUT.csv [--frames N] [--seed S] [--cpu-us US] "
		                "[--gpu-us US] [--no-gpu] [--shift-pct P] [--bimodal FRAC:PCT] "
		                "[--ar PHI] [--phases] [--paced] [--functions FILE] [--hostile]\n");
		return 2;
	}
	gen_state = a.seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	FILE *f = fopen(a.out, "w");
	if (!f) {
		perror(a.out);
		return 1;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	write_header(f, &a);
	write_rows(f, &a);
	if (fclose(f) != 0 || (a.functions && write_functions(&a) != 0)) {
		perror("gen_merged");
		return 1;
	}
	return 0;
}
