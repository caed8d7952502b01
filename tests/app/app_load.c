/*
 * The app's GPU load (--gpu-us): the test bed's shared closed-loop GPU work
 * on the app's own device and queue. Its samples are tagged with the frame
 * number and end up in app_gpu_load_ns.
 */
#include "app_load.h"

#include "app.h"
#include "app_check.h"
#include "gw_work.h"

static void on_sample(void *ctx, uint64_t frame, uint64_t ns)
{
	app_stats_load(ctx, frame, ns);
}

bool app_load_create(struct app *app)
{
	if (!app->opts.gpu_us)
		return true;
	struct gw_work_info info = {
		.gipa = vkGetInstanceProcAddr,
		.instance = app->vk.instance,
		.physical_device = app->vk.physical_device,
		.device = app->vk.device,
		.queue_family = app->vk.queue_family,
		.queue_index = 0,
		.target_us = app->opts.gpu_us,
		.log = app_error,
		.on_sample = on_sample,
		.sample_ctx = &app->stats,
	};
	app->stats.load_on = true;
	return gw_work_create(&info, &app->load);
}

bool app_load_submit(struct app *app)
{
	return !app->load || gw_work_submit(app->load, app->frames_done);
}

void app_load_destroy(struct app *app)
{
	gw_work_destroy(&app->load);
}
