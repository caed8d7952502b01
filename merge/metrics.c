/*
 * The per-frame columns tools know by name; see metrics.h.
 */
#include "metrics.h"

#include <stdio.h>
#include <string.h>

#include "csvr.h"
#include "merged_read.h"
#include "ncsv.h"
#include "quote.h"

/*
 * Every column but app_wait_us is a cost. A longer frame interval is a
 * lower frame rate (a paced app that misses its frames, an unpaced one that
 * does more per frame). The other app columns are the app's own work and
 * the target's in the calls made there (xrLocateViews, xrSyncActions,
 * swapchain images, xrEndFrame); OpenXR paces the app in xrWaitFrame, so
 * the wait for the next frame is in app_wait_us, not in them.
 *
 * The floors are the error of what the layers measure, as README's
 * accuracy table states it: the target's CPU time within 0.5 us + 0.5 %,
 * its time in one phase within 1 us + 1 % (not always met: up to 1.7 us
 * for a phase of 15 calls), the gated GPU time within 2 us + 1 %. A median
 * that moves by less than 1 us of CPU time (2 us of GPU time) between two
 * runs may be that error moving, not the target: a phase of 1 us that
 * reads 0.1 us more grew by 10 %, and by nothing the layers can tell. The
 * other CPU columns are differences of the same clock reads, hence the
 * same floor. A phase of several calls a frame sums their errors: the
 * monitor's own floor at 90 Hz (README, bench/floor.sh) reads ~1 us for the
 * 15 calls of sync_actions on a quiet machine, two to three times that on a
 * loaded one, and 2.8-3.3 us for a whole frame's ~27 calls (identical runs
 * of the test app differed by 1.3 us in target_total_us on a loaded VM):
 * 2 us for such a phase, 3 us for the frame's total. The percentages are
 * compare's noise threshold (1 %).
 */
#define FLOOR_CPU_US 1.0
#define FLOOR_CALLS_US 2.0
#define FLOOR_FRAME_US 3.0
#define FLOOR_GPU_US 2.0
#define CPU_COST METRICS_COST, FLOOR_CPU_US
#define CALLS_COST METRICS_COST, FLOOR_CALLS_US

const struct metrics_column metrics_columns[] = {
	{"target_us", "target CPU time", METRICS_MAIN, CPU_COST},
	{"target_gpu_us", "target GPU time", METRICS_MAIN, METRICS_COST, FLOOR_GPU_US},
	{"frame_interval_us", "frame interval", METRICS_MAIN, CPU_COST},
	{"target_wait_us", "target in xrWaitFrame", METRICS_PHASE, CPU_COST},
	{"target_begin_us", "target in xrBeginFrame", METRICS_PHASE, CPU_COST},
	{"target_end_us", "target in xrEndFrame", METRICS_PHASE, CPU_COST},
	{"target_locate_views_us", "target in xrLocateViews", METRICS_PHASE, CPU_COST},
	{"target_sync_actions_us", "target in action sync and state", METRICS_PHASE, CALLS_COST},
	{"target_swapchain_us", "target in swapchain image calls", METRICS_PHASE, CALLS_COST},
	{"target_other_us", "target in other functions", METRICS_PHASE, CALLS_COST},
	{"target_total_us", "target in all functions", METRICS_PHASE, METRICS_COST,
	 FLOOR_FRAME_US},
	{"app_wait_us", "app: xrWaitFrame", METRICS_APP, METRICS_WAIT, FLOOR_CPU_US},
	{"app_cpu_us", "app: CPU between frames", METRICS_APP, CPU_COST},
	{"app_render_us", "app: xrBeginFrame to xrEndFrame", METRICS_APP, CPU_COST},
	{"app_submit_us", "app: xrEndFrame", METRICS_APP, CPU_COST},
};

const size_t metrics_count = sizeof(metrics_columns) / sizeof(metrics_columns[0]);

bool metrics_gates(const struct metrics_column *col)
{
	return col->sense == METRICS_COST && col->group != METRICS_APP;
}

const struct metrics_column *metrics_find(const char *name)
{
	for (size_t i = 0; i < metrics_count; i++)
		if (strcmp(metrics_columns[i].name, name) == 0)
			return &metrics_columns[i];
	return NULL;
}

int metrics_check_merged(const struct ncsv *t, const char *path, char *msg, size_t msg_size)
{
	char q[QUOTE_PATH_MAX];

	const char *mode = ncsv_meta_value(t, "gpu_mode");
	char why[CSVR_MSG_MAX / 2];

	if (mode && merged_gpu_mode_bad(mode, why, sizeof(why))) {
		snprintf(msg, msg_size, "%s: error: %s", quote_path(q, path), why);
		return -1;
	}
	for (size_t i = 0; i < metrics_count; i++) {
		const struct ncsv_col *col = ncsv_col(t, metrics_columns[i].name);
		if (col && !col->text)
			return 0;
	}
	snprintf(msg, msg_size, "%s: error: not a merged file (no target_us, target_gpu_us, "
	         "frame_interval_us or per-phase column)", quote_path(q, path));
	return -1;
}
