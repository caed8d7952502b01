/*
 * Generates a synthetic session's per-side files for the merge benchmark:
 *   gen_session DIR TAG FRAMES [--no-gpu] [--calls N]
 * writes DIR/frames-TAG-pre.csv, -post.csv and gpu-TAG-pre.csv, -post.csv;
 * with --calls N also calls-TAG-pre.csv and -post.csv: N calls per frame
 * (the frame-loop functions and more, one in five answered by the target
 * itself, the others forwarded), the last one the frame's xrEndFrame.
 * One render thread at 90 Hz, target ~20 µs CPU and ~100 µs GPU with
 * jitter; every 1000th post row is swapped with its neighbour so the join
 * sees out-of-step rows, as a real writer's queue might.
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

/* The calls of frame @p frame before its xrEndFrame (which ends at @p end), 100 µs apart. */
static void write_calls(FILE *pre, FILE *post, int n, uint64_t frame, int64_t end)
{
	static const char *const fns[] = {
		"xrWaitFrame", "xrBeginFrame", "xrLocateViews", "xrSyncActions",
		"xrGetActionStatePose", "xrGetActionStateFloat", "xrGetActionStateBoolean",
		"xrAcquireSwapchainImage", "xrWaitSwapchainImage", "xrReleaseSwapchainImage",
		"xrLocateSpace", "xrPollEvent",
	};
	int64_t s = end - (int64_t)n * 100000;

	for (int k = 0; k + 1 < n; k++, s += 100000) {
		const char *fn = fns[k % (int)(sizeof(fns) / sizeof(fns[0]))];
		int64_t d = 20000 + (int64_t)(rng() % 30000);
		fprintf(pre, "%s,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n", fn, s, s + d, frame);
		if (k % 5 != 4)
			fprintf(post, "%s,4242,%" PRId64 ",%" PRId64 ",%" PRIu64 ",0\n", fn, s + 2000,
			        s + d - 1000, frame);
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
		fprintf(stderr, "usage: gen_session DIR TAG FRAMES [--no-gpu] [--calls N]\n");
		return 2;
	}
	const char *dir = argv[1], *tag = argv[2];
	uint64_t frames = strtoull(argv[3], NULL, 10);
	int gpu = 1, calls = 0;
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "--no-gpu") == 0)
			gpu = 0;
		else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
			calls = atoi(argv[++i]);
	}
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
		int64_t runtime = 300000 + (int64_t)(rng() % 20000);
		int64_t target = 20000 + (int64_t)(rng() % 5000);
		int64_t pre_entry = t, post_entry = t + 1000 + target;
		int64_t post_exit = post_entry + runtime, pre_exit = post_exit + 900;
		fprintf(pre, "%" PRId64 ",4242,%" PRId64 ",%" PRId64 "\n", display, pre_entry, pre_exit);
		if (calls > 0) {
			write_calls(cpre, cpost, calls, i + 1, pre_entry);
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
		display += 11111111;
		t += 11111111 + (int64_t)(rng() % 1000);
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
