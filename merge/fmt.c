/*
 * Locale-independent number formatting; see fmt.h.
 */
#include "fmt.h"
#include "u_locale.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double pow10_table[10] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
};

/* Beyond 2^53 a double no longer holds every integer: (double)ns is no
 * longer exact. */
#define FMT_EXACT_LIMIT 9007199254740992.0
/*
 * Below 2^50, v * 10^d (for v = r / 10^d, both roundings included) lies
 * within 1/4 of the integer r, so a rounded value's text is its own. Near
 * 2^53 the product's spacing is 0.5 and it may step to r +- 1. Values past
 * this, absurd for frame timings, take the slow exact path.
 */
#define FMT_FAST_LIMIT 1125899906842624.0

/* "00".."99": two digits per division halves the slow part. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* How many decimal digits @p v has (1 for 0). */
static unsigned digit_count(uint64_t v)
{
	unsigned n = 1;

	while (n < 20 && v >= pow10_u64[n])
		n++;
	return n;
}

/* Writes the digits of @p v ending just before @p end; returns the start. */
static char *digits_backward(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned pair = (unsigned)(v % 100) * 2;
		v /= 100;
		*--end = digit_pairs[pair + 1];
		*--end = digit_pairs[pair];
	}
	if (v >= 10) {
		unsigned pair = (unsigned)v * 2;
		*--end = digit_pairs[pair + 1];
		*--end = digit_pairs[pair];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/*
 * The digits go straight to their place, counted first: formatted in a
 * buffer and copied, the copy loop became a memmove() call (the compiler
 * knows the idiom), the largest cost of a merged row's formatting.
 */
char *fmt_u64(char *p, uint64_t v)
{
	char *end = p + digit_count(v);

	digits_backward(end, v);
	return end;
}

char *fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		/* Negate in unsigned arithmetic so INT64_MIN works. */
		return fmt_u64(p, 0 - (uint64_t)v);
	}
	return fmt_u64(p, (uint64_t)v);
}

/* Writes @p r as an integer with @p decimals digits after an inserted point. */
static char *put_scaled(char *p, uint64_t r, int decimals)
{
	unsigned n = digit_count(r);
	unsigned digits = n > (unsigned)decimals ? n : (unsigned)decimals + 1;
	char *end = p + digits + (decimals > 0);
	char *q = end;

	for (int i = 0; i < decimals; i++) {
		*--q = (char)('0' + r % 10);
		r /= 10;
	}
	if (decimals > 0)
		*--q = '.';
	digits_backward(q, r); /* at least the one digit before the point */
	return end;
}

double fmt_ns_as_us_value(int64_t ns)
{
	char text[32];
	char *end;

	/* Both operands exact: one correctly rounded division. */
	if (ns <= (int64_t)FMT_EXACT_LIMIT && ns >= -(int64_t)FMT_EXACT_LIMIT)
		return (double)ns / 1000.0;
	/* (double)ns would round once before the division: read the text. */
	locale_t c = u_locale_c();
	*fmt_ns_as_us(text, ns) = '\0';
	return c ? strtod_l(text, &end, c) : (double)ns / 1000.0;
}

char *fmt_ns_as_us(char *p, int64_t ns)
{
	if (ns < 0) {
		*p++ = '-';
		return put_scaled(p, 0 - (uint64_t)ns, 3);
	}
	return put_scaled(p, (uint64_t)ns, 3);
}

/*
 * A value whose scaled form is past FMT_FAST_LIMIT: printed correctly
 * rounded to @p decimals by printf (exact in glibc). fmt_round() reads
 * that text back (huge_round()). Only this thread's locale is switched to
 * "C" for the call, to get a '.' whatever the caller's locale is.
 */
static char *fmt_huge(char *p, double v, int decimals)
{
	locale_t c = u_locale_c();
	locale_t old = c ? uselocale(c) : (locale_t)0;
	int n = snprintf(p, FMT_NUM_MAX, "%.*f", decimals, v);

	if (c)
		uselocale(old);
	return p + (n > 0 && n < FMT_NUM_MAX ? n : 0);
}

/*
 * What fmt_huge()'s text reads back as. That value's own text reads back
 * as itself: it is the nearest double to a @p decimals-digit number D, so
 * the nearest such number to it is D or one no farther from it.
 */
static double huge_round(double v, int decimals)
{
	char text[FMT_NUM_MAX];
	char *end;
	locale_t c = u_locale_c();

	*fmt_huge(text, v, decimals) = '\0';
	if (!c || !text[0])
		return v;
	return strtod_l(text, &end, c);
}

/*
 * Rounds half away from zero. Truncating after adding 0.5 is not the exact
 * decimal rounding of printf for every halfway-looking binary value, but it
 * is fast and, being the one rounding used by both fmt_fixed() and
 * fmt_round(), keeps text and value consistent, which is what matters.
 */
static int64_t round_away(double scaled)
{
	return scaled < 0 ? -(int64_t)(0.5 - scaled) : (int64_t)(scaled + 0.5);
}

/* The precisions the power table covers: 0 to 9 decimals. */
static int clamp_decimals(int decimals)
{
	return decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
}

char *fmt_fixed(char *p, double v, int decimals)
{
	if (!isfinite(v))
		return p;
	decimals = clamp_decimals(decimals);

	double scaled = v * pow10_table[decimals];
	if (fabs(scaled) >= FMT_FAST_LIMIT)
		return fmt_huge(p, v, decimals);

	int64_t r = round_away(scaled);
	if (r < 0) {
		*p++ = '-';
		return put_scaled(p, 0 - (uint64_t)r, decimals);
	}
	return put_scaled(p, (uint64_t)r, decimals);
}

double fmt_round(double v, int decimals)
{
	if (!isfinite(v))
		return v;
	decimals = clamp_decimals(decimals);

	double scaled = v * pow10_table[decimals];
	if (fabs(scaled) >= FMT_FAST_LIMIT)
		return huge_round(v, decimals);
	int64_t r = round_away(scaled);
	if (r == 0)
		return 0.0; /* "0.000", never "-0.000" */
	return (double)r / pow10_table[decimals];
}

const char *fmt_fixed_str(char *buf, double v, int decimals)
{
	char *end = fmt_fixed(buf, v, decimals);
	*end = '\0';
	return buf;
}
