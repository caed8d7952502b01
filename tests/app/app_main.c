/*
 * xrlm-test-app: a small OpenXR application for the XRLM test bed. Runs N
 * frames through the loader (and any enabled layers), measures every
 * xrEndFrame from outside, exits 0 only if every call succeeded.
 */
#include "app.h"

#include "app_check.h"

#include <stdio.h>

static void print_stats(struct app *app)
{
	printf("run graphics=%s threads=%u frames=%llu warmup=%llu frames_run=%llu\n",
	       app_graphics_name(app->opts.graphics), app->opts.threads,
	       (unsigned long long)app->opts.frames, (unsigned long long)app->opts.warmup,
	       (unsigned long long)app->frames_done);
	app_stats_print(&app->stats, stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct app app = {0};
	switch (app_args_parse(argc, argv, &app.opts)) {
	case APP_ARGS_OK: break;
	case APP_ARGS_HELP: return 0;
	case APP_ARGS_BAD: return 2;
	}
	if (!app_stats_create(&app.stats, app.opts.frames, app.opts.warmup)) {
		app_error("out of memory");
		return 1;
	}
	bool ok = app_xr_create(&app) && app_loop_run(&app);
	if (app.gpu.vk)
		ok = app_gpu_drain(&app.gpu, &app.stats) && ok;
	ok = app_xr_destroy(&app) && ok;
	if (ok && app.frames_done < app.opts.frames)
		app_error("note: the runtime ended the session after %llu of %llu frames",
		          (unsigned long long)app.frames_done, (unsigned long long)app.opts.frames);
	if (ok && app.opts.stats)
		print_stats(&app);
	app_stats_destroy(&app.stats);
	return ok ? 0 : 1;
}
