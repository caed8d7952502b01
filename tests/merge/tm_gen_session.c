/*
 * Generates a synthetic session's per-side files for the merge benchmark:
 *   gen_session DIR TAG FRAMES [--no-gpu] [--calls N] [--period-ns NS]
 * writes DIR/frames-TAG-pre.csv, -post.csv and gpu-TAG-pre.csv, -post.csv;
 * with --calls N also calls-TAG-pre.csv and -post.csv: N calls per frame
 * (the frame-loop functions and more, one in five answered by the target
 * itself, the others forwarded), the last one the frame's xrEndFrame.
 * One render thread at 90 Hz, target ~20 µs CPU and ~100 µs GPU with
 * jitter; every 1000th post row is swapped with its neighbour so the join
 * sees out-of-step rows, as a real writer's queue might. --period-ns NS:
 * frames NS apart instead (an unpaced app: NS of a few µs), every time in
 * a frame scaled to fit it; without it the output is what it always was.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static FILE *open_out(const char *dir, const char *fmt, const char *tag)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/", dir);
	size_t n = strlen(path);
	snprintf(path + n, sizeof(path) - n, fmt, tag);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static void cpu_header(FILE *f, const char *side)
{
	fprintf(f, "# clock=CLOCK_MONOTONIC\n# clock_freq=1000000000\n# side=%s\n"
	           "# layer=XR_APILAYER_XRLM_monitor_%s\n# target_layer=XR_APILAYER_XRLM_test_target\n"
	           "# fn=xrEndFrame\ndisplay_time,thread_id,t_entry,t_exit\n",
	        side, side);
}

static void calls_header(FILE *f, const char *side)
{
	fprintf(f, "# clock=CLOCK_MONOTONIC\n# clock_freq=1000000000\n# side=%s\n"
	           "# layer=XR_APILAYER_XRLM_monitor_%s\n# target_layer=XR_APILAYER_XRLM_test_target\n"
	           "fn,thread_id,t_entry,t_exit,frame_id,result\n",
	        side, side);
}

/* A frame's times: the 90 Hz defaults, or scaled to --period-ns. */
struct timing {
	int64_t period;
	int64_t call_step, call_min, call_span;  /* calls: apart, shortest, jitter */
	int64_t call_in, call_out;               /* post's call: after pre's entry, before its exit */
	int64_t runtime_min, runtime_span;       /* post's xrEndFrame */
	int64_t target_min, target_span;         /* the target's share */
	int64_t pre_lead, post_tail, jitter;     /* pre's reads around post's; period jitter */
};

static struct timing timing_of(int64_t period, int calls)
{
	if (period == 0)
		return (struct timing){11111111, 100000, 20000, 30000, 2000, 1000, 300000, 20000,
		                       20000, 5000, 1000, 900, 1000};
	/* The calls in the half period before xrEndFrame, which takes about a fifth of it. */
	int64_t step = period / (2 * (calls + 1));
	return (struct timing){period, step, step / 5 + 1, step / 3 + 1, step / 20, step / 20,
	                       period / 8 + 1,
	                       period / 40 + 1, period / 40 + 1, period / 160 + 1, period / 100 + 1,
	                       period / 100 + 1, period / 100 + 1};
}

/* The calls of frame @p frame before its xrEndFrame (which ends at @p end), call_step apart. */
static void write_calls(FILE *pre, FILE *post, int n, uint64_t frame, int64_t end,
                        const struct timing *tm)
{
	static const char *const fns[] = {
		"xrWaitFrame", "xrBeginFrame", "xrLocateViews", "xrSyncActions",
		"xrGetActionStatePose", "xrGetActionStateFloat", "xrGetActionStateBoolean",
		"xrAcquireSwapchainImage", "xrWaitSwapchainImage", "xrReleaseSwapchainImage",
		"xrLocateSpace", "xrPollEvent",
	};
	int64_t s = end - (int64_t)n * tm->call_step;

	for (int k = 0; k + 1 < n; k++, s += tm->call_step) {
		const char *fn = fns[k % (int)(sizeof(fns) / sizeof(fns[0]))];
		int64_t d = tm->call_min + (int64_t)(rng() % (uint64_t)tm->call_span);
		fprintf(pre, "%s,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n", fn, s, s + d, frame);
		if (k % 5 != 4)
			fprintf(post, "%s,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n", fn, s + tm->call_in,
			        s + d - tm->call_out, frame);
	}
}

static void gpu_header(FILE *f, const char *side)
{
	fprintf(f, "# gpu_clock=vulkan\n# side=%s\n# layer=XR_APILAYER_XRLM_monitor_%s\n"
	           "# fn=xrEndFrame\ndisplay_time,gpu_ticks,gpu_period_ns,valid\n",
	        side, side);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: gen_session DIR TAG FRAMES [--no-gpu] [--calls N] [--period-ns NS]\n");
		return 2;
	}
	const char *dir = argv[1], *tag = argv[2];
	uint64_t frames = strtoull(argv[3], NULL, 10);
	int gpu = 1, calls = 0;
	int64_t period = 0;
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "--no-gpu") == 0)
			gpu = 0;
		else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
			calls = atoi(argv[++i]);
		else if (strcmp(argv[i], "--period-ns") == 0 && i + 1 < argc)
			period = strtoll(argv[++i], NULL, 10);
	}
	if (period < 0 || (period > 0 && period < 400)) {
		fprintf(stderr, "gen_session: --period-ns must be at least 400\n");
		return 2;
	}
	const struct timing tm = timing_of(period, calls);
	FILE *cpre = calls > 0 ? open_out(dir, "calls-%s-pre.csv", tag) : NULL;
	FILE *cpost = calls > 0 ? open_out(dir, "calls-%s-post.csv", tag) : NULL;
	if (calls > 0) {
		calls_header(cpre, "pre");
		calls_header(cpost, "post");
	}

	FILE *pre = open_out(dir, "frames-%s-pre.csv", tag);
	FILE *post = open_out(dir, "frames-%s-post.csv", tag);
	FILE *gpre = gpu ? open_out(dir, "gpu-%s-pre.csv", tag) : NULL;
	FILE *gpost = gpu ? open_out(dir, "gpu-%s-post.csv", tag) : NULL;
	cpu_header(pre, "pre");
	cpu_header(post, "post");
	if (gpu) {
		gpu_header(gpre, "pre");
		gpu_header(gpost, "post");
	}

	int64_t display = 33724160000000;
	int64_t t = 17834950123456;
	uint64_t gticks = 1234567890;
	char held[128] = "";
	for (uint64_t i = 0; i < frames; i++) {
		int64_t runtime = tm.runtime_min + (int64_t)(rng() % (uint64_t)tm.runtime_span);
		int64_t target = tm.target_min + (int64_t)(rng() % (uint64_t)tm.target_span);
		int64_t pre_entry = t, post_entry = t + tm.pre_lead + target;
		int64_t post_exit = post_entry + runtime, pre_exit = post_exit + tm.post_tail;
		fprintf(pre, "%" PRId64 ",4242,%" PRId64 ",%" PRId64 "\n", display, pre_entry, pre_exit);
		if (calls > 0) {
			write_calls(cpre, cpost, calls, i + 1, pre_entry, &tm);
			fprintf(cpre, "xrEndFrame,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n", pre_entry,
			        pre_exit, i + 1);
			fprintf(cpost, "xrEndFrame,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n",
			        post_entry, post_exit, i + 1);
		}

		char line[128];
		snprintf(line, sizeof(line), "%" PRId64 ",4242,%" PRId64 ",%" PRId64 "\n", display,
		         post_entry, post_exit);
		/* Swap each 1000th row with the next one. */
		if (i % 1000 == 500 && i + 1 < frames) {
			memcpy(held, line, sizeof(line));
		} else {
			fputs(line, post);
			if (held[0]) {
				fputs(held, post);
				held[0] = '\0';
			}
		}
		if (gpu) {
			uint64_t work = 100000 + rng() % 10000;
			fprintf(gpre, "%" PRId64 ",%" PRIu64 ",1,1\n", display, gticks);
			fprintf(gpost, "%" PRId64 ",%" PRIu64 ",1,1\n", display, gticks + work);
			gticks += 11111111;
		}
		display += tm.period;
		t += tm.period + (int64_t)(rng() % (uint64_t)tm.jitter);
	}
	if (held[0])
		fputs(held, post);
	fprintf(pre, "# session_end dropped_queue_full=0\n");
	fprintf(post, "# session_end dropped_queue_full=0\n");
	if (gpu) {
		fprintf(gpre, "# session_end gpu_ring_overflow=0\n");
		fprintf(gpost, "# session_end gpu_ring_overflow=0\n");
		fclose(gpre);
		fclose(gpost);
	}
	if (calls > 0) {
		fprintf(cpre, "# session_end dropped_queue_full=0\n");
		fprintf(cpost, "# session_end dropped_queue_full=0\n");
		fclose(cpre);
		fclose(cpost);
	}
	fclose(pre);
	fclose(post);
	return 0;
}
