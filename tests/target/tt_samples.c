/*
 * Per-frame samples of the target's own GPU work: summary and CSV.
 */
#include "tt_samples.h"

#include "stats.h"
#include "tt_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* About three hours at 90 Hz: a bound on memory for endless runs. */
#define TT_SAMPLES_MAX (1u << 20)

void tt_samples_add(void *ctx, uint64_t display_time, uint64_t ns)
{
	struct tt_samples *s = ctx;
	if (s->count == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		struct tt_sample *v = cap <= TT_SAMPLES_MAX ? realloc(s->v, cap * sizeof(*v)) : NULL;
		if (!v) {
			if (!s->full_logged)
				tt_log("GPU work samples: keeping only the first %zu", s->count);
			s->full_logged = true;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->count++] = (struct tt_sample){(int64_t)display_time, ns};
}

void tt_samples_log_summary(const struct tt_samples *s, uint64_t requested_us)
{
	/* The settling frames only count when there is little else. */
	size_t skip = s->count > 2 * TT_SAMPLES_SETTLE ? TT_SAMPLES_SETTLE : 0;
	size_t n = s->count - skip;
	if (n == 0) {
		tt_log("GPU work: requested %" PRIu64 " us, no frame measured", requested_us);
		return;
	}
	double *ns = malloc(n * sizeof(*ns));
	if (!ns)
		return;
	for (size_t i = 0; i < n; i++)
		ns[i] = (double)s->v[skip + i].ns;
	/* xrlm's percentiles (merge/stats.h), as xrlm-test-app's --stats. */
	double p50 = stats_percentile(ns, n, 0.50);
	double p5 = stats_percentile(ns, n, 0.05);
	double p95 = stats_percentile(ns, n, 0.95);
	tt_log("GPU work: requested %" PRIu64 " us, measured median %.1f us p5 %.1f us "
	       "p95 %.1f us over %zu frames (first %zu left out)",
	       requested_us, p50 / 1000.0, p5 / 1000.0, p95 / 1000.0, n, skip);
	free(ns);
}

static atomic_flag csv_started = ATOMIC_FLAG_INIT;

void tt_samples_write_csv(const struct tt_samples *s, const char *path)
{
	/* One file per process: --cycles and several sessions add up. */
	bool append = atomic_flag_test_and_set(&csv_started);
	FILE *f = fopen(path, append ? "a" : "w");
	if (!f) {
		tt_log("XRTEST_TARGET_GPU_LOG: cannot open %s: %s", path, strerror(errno));
		return;
	}
	if (!append)
		fputs("display_time,target_gpu_ns\n", f);
	for (size_t i = 0; i < s->count; i++)
		fprintf(f, "%" PRId64 ",%" PRIu64 "\n", s->v[i].display_time, s->v[i].ns);
	if (fclose(f) != 0)
		tt_log("XRTEST_TARGET_GPU_LOG: writing %s failed: %s", path, strerror(errno));
	else
		tt_log("XRTEST_TARGET_GPU_LOG: %zu frames written to %s", s->count, path);
}

void tt_samples_free(struct tt_samples *s)
{
	free(s->v);
	*s = (struct tt_samples){0};
}
