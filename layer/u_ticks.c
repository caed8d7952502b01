/*
 * Differences of GPU timestamps of any width; see u_ticks.h.
 */
#include "u_ticks.h"

/* @p bits when it names a narrower counter, else the full width. */
static unsigned width(unsigned bits)
{
	return bits >= 1 && bits < U_TICKS_BITS_MAX ? bits : U_TICKS_BITS_MAX;
}

uint64_t u_ticks_mask(unsigned bits)
{
	bits = width(bits);
	return bits == U_TICKS_BITS_MAX ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

int64_t u_ticks_delta(uint64_t later, uint64_t earlier, unsigned bits)
{
	unsigned w = width(bits);
	uint64_t d = (later - earlier) & u_ticks_mask(w);

	/* Sign-extended from the counter's top bit; unsigned arithmetic
	 * throughout, so that no step can overflow. */
	if (w < U_TICKS_BITS_MAX && (d >> (w - 1)) & 1)
		d |= ~u_ticks_mask(w);
	return (int64_t)d;
}

bool u_ticks_since(uint64_t later, uint64_t earlier, unsigned bits, uint64_t *out)
{
	if (width(bits) == U_TICKS_BITS_MAX) {
		if (later < earlier)
			return false;
		*out = later - earlier;
		return true;
	}
	int64_t d = u_ticks_delta(later, earlier, bits);
	if (d < 0)
		return false;
	*out = (uint64_t)d;
	return true;
}
