/*
 * Differences of GPU timestamps, which may be narrower than 64 bits: a
 * Vulkan queue family's timestampValidBits can be 36 (Intel ANV, about
 * 52 ns a tick: a wrap every hour) or 32 on older parts, and the counter
 * then wraps to 0. The one place that knows how two such timestamps are
 * subtracted, for the layers (the bracket measurement, the live view, the
 * LTTng events) and xrlm (the merge, the trace).
 *
 * A width outside 1..63 (0 included: a file that does not say) is the
 * full 64 bits.
 */
#ifndef XRLM_U_TICKS_H
#define XRLM_U_TICKS_H

#include <stdbool.h>
#include <stdint.h>

/* The widest counter; also what a GPU file without `# gpu_valid_bits=` has. */
#define U_TICKS_BITS_MAX 64

/* The mask of a counter @p bits wide: its largest value. */
uint64_t u_ticks_mask(unsigned bits);

/*
 * The nearest distance from @p earlier to @p later on a counter @p bits
 * wide, in ticks: their difference modulo 2^bits, read as signed (in
 * [-2^(bits-1), 2^(bits-1))). So a counter that wrapped once between the
 * two still gives the ticks that passed, as long as less than half its
 * range did. For 64 bits it is (int64_t)(later - earlier).
 */
int64_t u_ticks_delta(uint64_t later, uint64_t earlier, unsigned bits);

/*
 * The ticks from @p earlier forward to @p later on a counter @p bits wide
 * into @p out; false when @p later is in fact before @p earlier ("backwards":
 * a reset clock, or corruption), @p out then untouched. Below 64 bits that
 * is u_ticks_delta() < 0: half the range or more forward reads as
 * backwards. A 64-bit counter is taken never to wrap (584 years at 1 GHz):
 * later < earlier is backwards, as every reader has always had it.
 */
bool u_ticks_since(uint64_t later, uint64_t earlier, unsigned bits, uint64_t *out);

#endif /* XRLM_U_TICKS_H */
