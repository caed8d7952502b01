/*
 * xrlm-test-app: a small OpenXR application for the XRLM test bed. Runs N
 * frames through the loader (and any enabled layers), measures every
 * xrEndFrame from outside, exits 0 only if every call succeeded.
 */
#include "app.h"

#include "app_check.h"
#include "app_proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_stats(struct app *app)
{
	char threads[16];
	if (app->opts.new_threads)
		snprintf(threads, sizeof(threads), "new");
	else
		snprintf(threads, sizeof(threads), "%u", app->opts.threads);
	printf("run graphics=%s threads=%s frames=%llu warmup=%llu frames_run=%llu "
	       "frame_faults=%llu\n",
	       app_graphics_name(app->opts.graphics), threads,
	       (unsigned long long)app->opts.frames, (unsigned long long)app->opts.warmup,
	       (unsigned long long)app->frames_done, (unsigned long long)app->stats.frame_faults);
	app_stats_print(&app->stats, stdout);
	fflush(stdout);
}

/* After a cycle's xrDestroyInstance: what the process still holds. */
static bool print_cycle(uint32_t cycle)
{
	unsigned threads, fds;
	if (!app_proc_counts(&threads, &fds)) {
		app_error("cannot read /proc/self");
		return false;
	}
	printf("cycle %u threads=%u fds=%u\n", cycle, threads, fds);
	fflush(stdout);
	return true;
}

/* --frame-log: the frames ended, a line each, after a header line. */
static bool write_frame_log(const struct app *app)
{
	const char *path = app->opts.frame_log;
	FILE *f = fopen(path, "w");
	if (!f) {
		app_error("--frame-log %s: %s", path, strerror(errno));
		return false;
	}
	fprintf(f, "display_time,end_entry_ns,end_exit_ns\n");
	for (uint64_t i = 0; i < app->frame_log_len; i++) {
		const struct app_frame_time *t = &app->frame_log[i];
		fprintf(f, "%lld,%llu,%llu\n", (long long)t->display_time,
		        (unsigned long long)t->end_entry_ns, (unsigned long long)t->end_exit_ns);
	}
	bool written = !ferror(f);
	if (fclose(f) != 0 || !written) {
		app_error("--frame-log %s: cannot write it", path);
		return false;
	}
	return true;
}

/* One instance's whole life: create, run the loop, destroy. */
static bool run_cycle(struct app *app)
{
	if (app->opts.frame_log) {
		/* Before the loop: no allocation among the frames. */
		app->frame_log = calloc(app->opts.frames, sizeof(*app->frame_log));
		if (!app->frame_log) {
			app_error("out of memory");
			return false;
		}
	}
	bool ok = app_xr_create(app) && app_loop_run(app);
	if (app->opts.frame_log)
		ok = write_frame_log(app) && ok;
	free(app->frame_log);
	app->frame_log = NULL;
	if (app->opts.exit_without_destroy) {
		/* A host that quits with the instance alive: the monitor's
		 * destructors must still finish the recording. */
		fflush(stdout);
		exit(ok ? 0 : 1);
	}
	if (app->gpu.vk)
		ok = app_gpu_drain(&app->gpu, &app->stats) && ok;
	ok = app_xr_destroy(app) && ok;
	if (ok && app->frames_done < app->opts.frames)
		app_error("note: the runtime ended the session after %llu of %llu frames",
		          (unsigned long long)app->frames_done, (unsigned long long)app->opts.frames);
	return ok;
}

int main(int argc, char **argv)
{
	struct app_options opts;
	switch (app_args_parse(argc, argv, &opts)) {
	case APP_ARGS_OK: break;
	case APP_ARGS_HELP: return 0;
	case APP_ARGS_BAD: return 2;
	}
	bool ok = true;
	for (uint32_t cycle = 1; ok && cycle <= opts.cycles; cycle++) {
		struct app app = {.opts = opts};
		/* Samples are kept only when printed: a long run stays small. */
		uint64_t frames = opts.stats ? opts.frames : 0, warmup = opts.stats ? opts.warmup : 0;
		if (!app_stats_create(&app.stats, frames, warmup)) {
			app_error("out of memory");
			return 1;
		}
		ok = run_cycle(&app);
		if (ok && opts.stats && cycle == opts.cycles)
			print_stats(&app);
		app_stats_destroy(&app.stats);
		if (ok && opts.cycles > 1)
			ok = print_cycle(cycle);
	}
	return ok ? 0 : 1;
}
