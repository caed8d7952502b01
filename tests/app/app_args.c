/*
 * Strict command-line parsing: a bad argument is one clear line, exit 2.
 */
#include "app_args.h"

#include "app_check.h"
#include "u_parse.h"

#include <stdio.h>
#include <string.h>

#define APP_MAX_FRAMES 10000000u
#define APP_MAX_CYCLES 1000u
/* One second per frame: far beyond any frame budget. */
#define APP_MAX_GPU_US 1000000u

static const char *const graphics_names[] = {
	[APP_GRAPHICS_HEADLESS] = "headless",
	[APP_GRAPHICS_VULKAN] = "vulkan",
	[APP_GRAPHICS_VULKAN2] = "vulkan2",
	[APP_GRAPHICS_EGL] = "egl",
};

const char *app_graphics_name(enum app_graphics g)
{
	return graphics_names[g];
}

static void usage(void)
{
	printf("usage: xrlm-test-app [--frames N] [--graphics vulkan|vulkan2|egl|headless]\n"
	       "                     [--warmup N] [--threads 1|2|new] [--stats]\n"
	       "                     [--cycles N] [--toggle-every N] [--exit-without-destroy]\n"
	       "                     [--keep-session]\n"
	       "                     [--gpu-us N] [--calls full|frame] [--vk-1.0]\n"
	       "                     [--gl-uncurrent-every N] [--fork-at N] [--fork-destroy]\n"
	       "                     [--pipeline] [--wait-ahead] [--frame-log FILE]\n"
	       "  --frames N     frames (xrEndFrame calls) before requesting exit (default 300)\n"
	       "  --graphics G   graphics binding (default vulkan2)\n"
	       "  --warmup N     first N frames left out of --stats (default 0)\n"
	       "  --threads T    1, 2 to alternate frames between two threads, or new to run\n"
	       "                 each iteration on a new thread, once the last one exited\n"
	       "                 (default 1)\n"
	       "  --stats        print endframe_cpu_ns/endframe_gpu_ns/frame_interval_ns at exit,\n"
	       "                 and the frame threads' page faults after the warm-up\n"
	       "  --cycles N     run everything N times in this process, printing the\n"
	       "                 thread and descriptor counts after each xrDestroyInstance\n"
	       "  --toggle-every N  raise SIGUSR2 (the monitor's toggle) every N frames\n"
	       "  --exit-without-destroy  call exit(0) after the loop, destroying nothing\n"
	       "  --keep-session xrDestroyInstance with the session alive (an application bug\n"
	       "                 the runtime and the layers must survive)\n"
	       "  --gpu-us N     N us of the app's own GPU work per frame, before xrEndFrame\n"
	       "                 (Vulkan only; --stats adds app_gpu_load_ns)\n"
	       "  --calls C      full: actions, spaces, views, swapchain, events every frame\n"
	       "                 (default); frame: only the frame loop's own calls\n"
	       "  --vk-1.0       create the Vulkan instance for API 1.0, as hello_xr does\n"
	       "                 (default 1.1)\n"
	       "  --gl-uncurrent-every N  (egl) call every Nth xrEndFrame with no GL context\n"
	       "                 current, an application bug the layers must survive\n"
	       "  --fork-at N    after frame N, fork a child that calls exit(0) at once (its\n"
	       "                 destructors run, as a helper process's do) and wait up to\n"
	       "                 30 s for it\n"
	       "  --fork-destroy (with --fork-at) the child first calls xrDestroySession and\n"
	       "                 xrDestroyInstance on the handles it inherited\n"
	       "  --pipeline     a game thread (xrWaitFrame, input, views, spaces) and a render\n"
	       "                 thread (xrBeginFrame, swapchain, xrEndFrame), one frame\n"
	       "                 apart, as engines run them: xrWaitFrame(N+1) starts before\n"
	       "                 xrEndFrame(N) (not with --threads, --stats, --toggle-every,\n"
	       "                 --fork-at or --graphics egl)\n"
	       "  --wait-ahead   each frame's thread calls xrWaitFrame(N+1) after\n"
	       "                 xrBeginFrame(N), before xrEndFrame(N) (not with --pipeline)\n"
	       "  --frame-log FILE  after the loop, write FILE: a line per xrEndFrame,\n"
	       "                 display_time,end_entry_ns,end_exit_ns (the app's\n"
	       "                 CLOCK_MONOTONIC right around the call; not with --cycles)\n");
}

static bool parse_number(const char *opt, const char *text, uint64_t min, uint64_t max,
                         uint64_t *out)
{
	enum u_parse_result r = u_parse_u64(text, min, max, out);
	if (r == U_PARSE_OK)
		return true;
	app_error("%s \"%s\" %s (expected a whole number from %llu to %llu)", opt, text,
	          u_parse_result_str(r), (unsigned long long)min, (unsigned long long)max);
	return false;
}

static bool parse_graphics(const char *text, enum app_graphics *out)
{
	for (size_t i = 0; i < sizeof(graphics_names) / sizeof(graphics_names[0]); i++) {
		if (strcmp(text, graphics_names[i]) == 0) {
			*out = (enum app_graphics)i;
			return true;
		}
	}
	app_error("--graphics \"%s\" is not one of vulkan, vulkan2, egl, headless", text);
	return false;
}

static bool parse_calls(const char *text, enum app_calls *out)
{
	if (strcmp(text, "full") == 0) {
		*out = APP_CALLS_FULL;
		return true;
	}
	if (strcmp(text, "frame") == 0) {
		*out = APP_CALLS_FRAME;
		return true;
	}
	app_error("--calls \"%s\" is not one of full, frame", text);
	return false;
}

/* Handles one option that takes a value. */
static bool parse_valued(const char *opt, const char *value, struct app_options *o)
{
	uint64_t n;
	if (strcmp(opt, "--frames") == 0)
		return parse_number(opt, value, 1, APP_MAX_FRAMES, &o->frames);
	if (strcmp(opt, "--warmup") == 0)
		return parse_number(opt, value, 0, APP_MAX_FRAMES, &o->warmup);
	if (strcmp(opt, "--graphics") == 0)
		return parse_graphics(value, &o->graphics);
	if (strcmp(opt, "--gpu-us") == 0)
		return parse_number(opt, value, 0, APP_MAX_GPU_US, &o->gpu_us);
	if (strcmp(opt, "--calls") == 0)
		return parse_calls(value, &o->calls);
	if (strcmp(opt, "--toggle-every") == 0)
		return parse_number(opt, value, 1, APP_MAX_FRAMES, &o->toggle_every);
	if (strcmp(opt, "--gl-uncurrent-every") == 0)
		return parse_number(opt, value, 1, APP_MAX_FRAMES, &o->gl_uncurrent_every);
	if (strcmp(opt, "--fork-at") == 0)
		return parse_number(opt, value, 1, APP_MAX_FRAMES, &o->fork_at);
	if (strcmp(opt, "--frame-log") == 0) {
		o->frame_log = value;
		if (!value[0])
			app_error("--frame-log needs a file name");
		return value[0] != '\0';
	}
	if (strcmp(opt, "--cycles") == 0) {
		if (!parse_number(opt, value, 1, APP_MAX_CYCLES, &n))
			return false;
		o->cycles = (uint32_t)n;
		return true;
	}
	/* --threads: a count, or new (one thread at a time, each iteration's own). */
	o->new_threads = strcmp(value, "new") == 0;
	if (o->new_threads) {
		o->threads = 1;
		return true;
	}
	if (u_parse_u64(value, 1, 2, &n) != U_PARSE_OK) {
		app_error("--threads \"%s\" is not 1, 2 or new", value);
		return false;
	}
	o->threads = (uint32_t)n;
	return true;
}

static bool takes_value(const char *opt)
{
	return strcmp(opt, "--frames") == 0 || strcmp(opt, "--warmup") == 0 ||
	       strcmp(opt, "--graphics") == 0 || strcmp(opt, "--threads") == 0 ||
	       strcmp(opt, "--cycles") == 0 || strcmp(opt, "--toggle-every") == 0 ||
	       strcmp(opt, "--gpu-us") == 0 || strcmp(opt, "--calls") == 0 ||
	       strcmp(opt, "--gl-uncurrent-every") == 0 || strcmp(opt, "--fork-at") == 0 ||
	       strcmp(opt, "--frame-log") == 0;
}

/*
 * --pipeline runs its own two threads; what needs one frame thread (GL's
 * current context, the stats' series, a signal or fork between frames)
 * does not go with it.
 */
static bool check_pipeline(const struct app_options *o)
{
	const char *other = NULL;
	if (!o->pipeline)
		return true;
	if (o->wait_ahead)
		other = "--wait-ahead";
	else if (o->threads > 1 || o->new_threads)
		other = "--threads";
	else if (o->stats)
		other = "--stats";
	else if (o->toggle_every)
		other = "--toggle-every";
	else if (o->fork_at)
		other = "--fork-at";
	else if (o->graphics == APP_GRAPHICS_EGL)
		other = "--graphics egl";
	if (other)
		app_error("--pipeline runs its own game and render threads: it takes no %s", other);
	return !other;
}

enum app_args_result app_args_parse(int argc, char **argv, struct app_options *o)
{
	*o = (struct app_options){
		.frames = 300,
		.threads = 1,
		.cycles = 1,
		.graphics = APP_GRAPHICS_VULKAN2,
	};
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
			usage();
			return APP_ARGS_HELP;
		}
		if (strcmp(opt, "--stats") == 0) {
			o->stats = true;
			continue;
		}
		if (strcmp(opt, "--exit-without-destroy") == 0) {
			o->exit_without_destroy = true;
			continue;
		}
		if (strcmp(opt, "--keep-session") == 0) {
			o->keep_session = true;
			continue;
		}
		if (strcmp(opt, "--vk-1.0") == 0) {
			o->vk_1_0 = true;
			continue;
		}
		if (strcmp(opt, "--pipeline") == 0) {
			o->pipeline = true;
			continue;
		}
		if (strcmp(opt, "--wait-ahead") == 0) {
			o->wait_ahead = true;
			continue;
		}
		if (strcmp(opt, "--fork-destroy") == 0) {
			o->fork_destroy = true;
			continue;
		}
		if (!takes_value(opt)) {
			app_error("unknown argument \"%s\" (try --help)", opt);
			return APP_ARGS_BAD;
		}
		if (i + 1 >= argc) {
			app_error("%s needs a value", opt);
			return APP_ARGS_BAD;
		}
		if (!parse_valued(opt, argv[++i], o))
			return APP_ARGS_BAD;
	}
	if (o->warmup >= o->frames) {
		app_error("--warmup %llu leaves no frames to measure (--frames %llu)",
		          (unsigned long long)o->warmup, (unsigned long long)o->frames);
		return APP_ARGS_BAD;
	}
	if (o->fork_destroy && !o->fork_at) {
		app_error("--fork-destroy is what the child of --fork-at does: it needs --fork-at");
		return APP_ARGS_BAD;
	}
	if (o->frame_log && o->cycles > 1) {
		app_error("--frame-log holds one cycle's frames: it takes no --cycles");
		return APP_ARGS_BAD;
	}
	if (o->exit_without_destroy && o->cycles > 1) {
		app_error("--exit-without-destroy ends the first cycle: it takes no --cycles");
		return APP_ARGS_BAD;
	}
	if (o->gpu_us && (o->graphics == APP_GRAPHICS_HEADLESS || o->graphics == APP_GRAPHICS_EGL)) {
		app_error("--gpu-us needs a Vulkan session, not --graphics %s",
		          app_graphics_name(o->graphics));
		return APP_ARGS_BAD;
	}
	if (o->gl_uncurrent_every && o->graphics != APP_GRAPHICS_EGL) {
		app_error("--gl-uncurrent-every needs --graphics egl, not --graphics %s",
		          app_graphics_name(o->graphics));
		return APP_ARGS_BAD;
	}
	/* A GL context is current on one thread: frames cannot alternate threads. */
	if ((o->threads > 1 || o->new_threads) && o->graphics == APP_GRAPHICS_EGL) {
		app_error("--graphics egl runs its frames on one thread: it takes no --threads %s",
		          o->new_threads ? "new" : "2");
		return APP_ARGS_BAD;
	}
	return check_pipeline(o) ? APP_ARGS_OK : APP_ARGS_BAD;
}
