/*
 * The fixture's environment knobs, parsed strictly with u_parse.
 */
#include "rt_internal.h"

#include "u_parse.h"

#include <stdio.h>
#include <stdlib.h>

static void knob_warn(void *ctx, const char *message)
{
	(void)ctx;
	rt_log("warning: %s", message);
}

void rt_knobs_read(struct rt_knobs *knobs)
{
	/* Upper bounds keep a typo from hanging a test for hours. */
	knobs->frame_rate_hz = u_env_double("XRTEST_FRAME_RATE", 90.0, 0.0, 1000.0, knob_warn, NULL);
	knobs->exit_after_frames =
		u_env_u64("XRTEST_EXIT_AFTER_FRAMES", 0, 0, 1000000000ull, knob_warn, NULL);
	knobs->compositor_cpu_us =
		u_env_u64("XRTEST_COMPOSITOR_CPU_US", 0, 0, 1000000, knob_warn, NULL);
	knobs->compositor_gpu_us =
		u_env_u64("XRTEST_COMPOSITOR_GPU_US", 0, 0, 1000000, knob_warn, NULL);
	knobs->compositor_gpu_wait =
		u_env_u64("XRTEST_COMPOSITOR_GPU_WAIT", 0, 0, 1, knob_warn, NULL) != 0;
	knobs->vk_minimal = u_env_u64("XRTEST_VK_MINIMAL", 0, 0, 1, knob_warn, NULL) != 0;
	knobs->name_full = u_env_u64("XRTEST_RUNTIME_NAME_FULL", 0, 0, 1, knob_warn, NULL) != 0;
	const char *refuse = getenv("XRTEST_VK_REFUSE_EXT");
	snprintf(knobs->vk_refuse_ext, sizeof(knobs->vk_refuse_ext), "%s", refuse ? refuse : "");
	rt_log("knobs: XRTEST_FRAME_RATE=%g XRTEST_EXIT_AFTER_FRAMES=%llu "
	       "XRTEST_COMPOSITOR_CPU_US=%llu XRTEST_COMPOSITOR_GPU_US=%llu "
	       "XRTEST_COMPOSITOR_GPU_WAIT=%d XRTEST_VK_MINIMAL=%d XRTEST_RUNTIME_NAME_FULL=%d "
	       "XRTEST_VK_REFUSE_EXT=%s",
	       knobs->frame_rate_hz, (unsigned long long)knobs->exit_after_frames,
	       (unsigned long long)knobs->compositor_cpu_us,
	       (unsigned long long)knobs->compositor_gpu_us, knobs->compositor_gpu_wait,
	       knobs->vk_minimal, knobs->name_full, knobs->vk_refuse_ext);
}
