/*
 * The statistics table; see table.h. Numbers go through fmt.h, so the
 * output does not depend on the locale.
 */
#include "table.h"

#include <inttypes.h>
#include <string.h>

#include "u_phase.h"

#include "fmt.h"

static void print_value(FILE *f, const char *label, double v, int decimals)
{
	char num[FMT_NUM_MAX];
	/* "median" fills its 6 columns: a space before every value, 100 ms
	 * and more too ("median 150000.50"), the same columns below that. */
	fprintf(f, "    %-6s %8s\n", label, fmt_fixed_str(num, v, decimals));
}

static void print_block(FILE *f, const char *name, const char *unit,
                        const struct stats_summary *s, int decimals)
{
	fprintf(f, "%-19s(%s):\n", name, unit);
	if (s->count == 0) {
		fprintf(f, "    (no samples)\n\n");
		return;
	}
	fprintf(f, "    count  %" PRIu64 "\n", s->count);
	print_value(f, "mean", s->mean, decimals);
	print_value(f, "median", s->median, decimals);
	print_value(f, "p95", s->p95, decimals);
	print_value(f, "p99", s->p99, decimals);
	print_value(f, "min", s->min, decimals);
	print_value(f, "max", s->max, decimals);
	fprintf(f, "\n");
}

/*
 * The phases XRLM_FUNCTIONS left out, when it left any: their columns and
 * target_total_us are blank, not 0.
 */
static void print_phases(FILE *f, const struct merge_summary *s)
{
	char phases[U_PHASE_SET_MAX];

	if (!s->has_calls || s->phases_recorded == U_PHASE_ALL)
		return;
	u_phase_set_format(s->phases_recorded, phases);
	fprintf(f, "phases recorded: %s (XRLM_FUNCTIONS left the others out: their columns and "
	        "target_total_us are blank)\n", phases[0] ? phases : "none");
}

/* The GPU mode in effect and the gate's trips (README "GPU cost"). */
static void print_gpu_mode(FILE *f, const struct merge_summary *s)
{
	if (!s->has_gpu_info)
		fprintf(f, "GPU mode: not recorded (a merged file of an older xrlm)\n");
	else if (!s->gpu_mode[0])
		fprintf(f, "GPU mode: none (no GPU files)\n");
	else
		fprintf(f, "GPU mode: %s%s; gate tripped: %" PRIu64 " time%s\n", s->gpu_mode,
		        s->gate_trips && strcmp(s->gpu_mode, "gated") == 0 ?
		                ", the plain sandwich after its trip" : "",
		        s->gate_trips, s->gate_trips == 1 ? "" : "s");
}

/*
 * What the layers could not record (a ring was full), when anything: the
 * statistics are of the frames recorded, and a frame interval spanning a
 * lost frame is as long as the frames it spans.
 */
static void print_lost(FILE *f, const struct merge_summary *s)
{
	if (s->dropped_queue_full_pre || s->dropped_queue_full_post)
		fprintf(f, "frames lost (a ring was full, not recorded): %" PRIu64 " pre, %" PRIu64
		        " post; the frame intervals around them span them\n",
		        s->dropped_queue_full_pre, s->dropped_queue_full_post);
	if (s->calls_dropped_queue_full_pre || s->calls_dropped_queue_full_post)
		fprintf(f, "calls lost (a ring was full, not recorded): %" PRIu64 " pre, %" PRIu64
		        " post\n", s->calls_dropped_queue_full_pre, s->calls_dropped_queue_full_post);
}

void table_print(FILE *f, const struct merge_summary *s)
{
	char a[FMT_NUM_MAX], b[FMT_NUM_MAX];

	fprintf(f, "matched frames: %" PRIu64 "\n", s->frame_count);
	fprintf(f, "unmatched frames: %" PRIu64 " pre only, %" PRIu64 " post only; "
	        "truncated rows skipped: %" PRIu64 "\n", s->unmatched_pre, s->unmatched_post,
	        s->truncated_rows);
	print_lost(f, s);
	print_phases(f, s);
	print_gpu_mode(f, s);
	fprintf(f, "\n");
	print_block(f, "target_cpu_us", "microseconds, CPU", &s->target_cpu_us, 2);
	print_block(f, "target_cpu_pct", "% of frame interval", &s->target_cpu_pct, 3);
	print_block(f, "target_gpu_us", "microseconds, GPU", &s->target_gpu_us, 2);
	print_block(f, "target_gpu_pct", "% of frame interval", &s->target_gpu_pct, 3);
	if (s->frame_interval_us.count == 0) {
		fprintf(f, "frame_interval_us median: (no samples)\n");
		return;
	}
	fmt_fixed_str(a, s->frame_interval_us.median, 2);
	/* A median of 0 or below (a damaged or edited file) has no rate. */
	if (!(s->frame_interval_us.median > 0)) {
		fprintf(f, "frame_interval_us median: %s  (no frame rate)\n", a);
		return;
	}
	fprintf(f, "frame_interval_us median: %s  (~%s Hz)\n", a, fmt_fixed_str(b, s->frame_rate_hz, 1));
}
