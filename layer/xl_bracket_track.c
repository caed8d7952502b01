/*
 * The GPU bracket correction's measurements, followed: see
 * xl_bracket_track.h.
 */
#include "xl_bracket_track.h"

uint32_t xl_bracket_track_count(const struct xl_bracket_track *t)
{
	return t->measured < XL_BRACKET_WINDOW ? t->measured : XL_BRACKET_WINDOW;
}

int64_t xl_bracket_track_median(const struct xl_bracket_track *t)
{
	int64_t v[XL_BRACKET_WINDOW];
	uint32_t n = xl_bracket_track_count(t);

	if (n == 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		v[i] = t->recent[i];
	for (uint32_t i = 1; i < n; i++) /* insertion sort: a few values */
		for (uint32_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int64_t x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* +1 or -1 when @p ns is a step away from @p median, else 0. */
static int step_of(int64_t median, int64_t ns)
{
	int64_t d = ns - median;
	int64_t bound = median / 4 > XL_BRACKET_STEP_MIN_NS ? median / 4 : XL_BRACKET_STEP_MIN_NS;

	if (d > bound)
		return 1;
	if (-d > bound)
		return -1;
	return 0;
}

/* Starts the window again from its last XL_BRACKET_CONFIRM measurements, oldest first. */
static void restart(struct xl_bracket_track *t)
{
	int64_t last[XL_BRACKET_CONFIRM];

	for (uint32_t i = 0; i < XL_BRACKET_CONFIRM; i++)
		last[i] = t->recent[(t->measured - XL_BRACKET_CONFIRM + i) % XL_BRACKET_WINDOW];
	for (uint32_t i = 0; i < XL_BRACKET_CONFIRM; i++)
		t->recent[i] = last[i];
	t->measured = XL_BRACKET_CONFIRM;
	t->off = 0;
	t->off_sign = 0;
}

enum xl_bracket_change xl_bracket_track_take(struct xl_bracket_track *t, int64_t ns)
{
	int sign = t->measured ? step_of(xl_bracket_track_median(t), ns) : 0;

	t->off = sign == 0 ? 0 : sign == t->off_sign ? t->off + 1 : 1;
	t->off_sign = sign;
	t->recent[t->measured++ % XL_BRACKET_WINDOW] = ns;
	if (t->off >= XL_BRACKET_CONFIRM) {
		restart(t);
		return XL_BRACKET_RESTART;
	}
	return t->off ? XL_BRACKET_DOUBT : XL_BRACKET_STEADY;
}
