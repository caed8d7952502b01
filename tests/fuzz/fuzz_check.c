/*
 * Checks shared by the fuzz entry points; see fuzz_check.h.
 */
#include "fuzz_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_io.h"

void fuzz_hash_mix(uint64_t *hash, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		*hash = (*hash ^ b[i]) * 0x100000001b3ull;
}

void fuzz_check_line(const char *message)
{
	if (!message[0])
		fuzz_fail("empty message");
	if (strchr(message, '\n'))
		fuzz_fail("message spans lines");
	if (!strstr(message, ": error: ") && !strstr(message, ": warning: "))
		fuzz_fail("message is neither an error nor a warning");
}

void fuzz_check_diag(const struct csvr_diag *d, int ret)
{
	if ((ret != 0) != d->failed)
		fuzz_fail("return value and error flag disagree");
	if (memchr(d->error, '\0', sizeof(d->error)) == NULL)
		fuzz_fail("error message not terminated");
	if (d->failed)
		fuzz_check_line(d->error);
	if (d->warning_count < 0 || d->warning_count > CSVR_MAX_WARNINGS)
		fuzz_fail("warning count out of range");
	for (int i = 0; i < d->warning_count; i++) {
		if (memchr(d->warnings[i], '\0', sizeof(d->warnings[i])) == NULL)
			fuzz_fail("warning not terminated");
		fuzz_check_line(d->warnings[i]);
	}
}

/* Equal, counting NaN equal to NaN (bitwise-different zeros are equal). */
static bool same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static void check_same_summary(const char *what, const struct stats_summary *a,
                               const struct stats_summary *b)
{
	if (a->count == b->count && same(a->mean, b->mean) && same(a->median, b->median) &&
	    same(a->p95, b->p95) && same(a->p99, b->p99) && same(a->min, b->min) &&
	    same(a->max, b->max))
		return;
	fprintf(stderr, "fuzz: %s: merge count=%llu mean=%.17g median=%.17g min=%.17g max=%.17g\n",
	        what, (unsigned long long)a->count, a->mean, a->median, a->min, a->max);
	fprintf(stderr, "fuzz: %s: stats count=%llu mean=%.17g median=%.17g min=%.17g max=%.17g\n",
	        what, (unsigned long long)b->count, b->mean, b->median, b->min, b->max);
	fuzz_fail("xrlm stats does not reproduce the merge's statistics");
}

void fuzz_check_same_stats(const struct merge_summary *merged, const struct merge_summary *again)
{
	if (merged->frame_count != again->frame_count ||
	    merged->gpu_frame_count != again->gpu_frame_count ||
	    merged->negative_target_frames != again->negative_target_frames)
		fuzz_fail("xrlm stats does not reproduce the merge's counts");
	check_same_summary("target_cpu_us", &merged->target_cpu_us, &again->target_cpu_us);
	check_same_summary("target_cpu_pct", &merged->target_cpu_pct, &again->target_cpu_pct);
	check_same_summary("target_gpu_us", &merged->target_gpu_us, &again->target_gpu_us);
	check_same_summary("target_gpu_pct", &merged->target_gpu_pct, &again->target_gpu_pct);
	check_same_summary("frame_interval_us", &merged->frame_interval_us,
	                   &again->frame_interval_us);
	if (!same(merged->frame_rate_hz, again->frame_rate_hz))
		fuzz_fail("xrlm stats does not reproduce the frame rate");
}
