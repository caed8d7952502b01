/*
 * Locale-independent number formatting; see fmt.h.
 */
#include "fmt.h"

#include <math.h>
#include <string.h>

static const double pow10_table[10] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
};

/* Beyond 2^53 a double no longer holds every integer, so r / 10^d would not
 * be the correctly rounded value of the text; such values are absurd for
 * frame timings and are printed through the slow exact path instead. */
#define FMT_EXACT_LIMIT 9007199254740992.0

char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
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

/* Writes |r| as an integer with @p decimals digits after an inserted point. */
static char *put_scaled(char *p, uint64_t r, int decimals)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + r % 10);
		r /= 10;
	} while (r);
	/* Pad so there is at least one digit before the point. */
	while (n < decimals + 1)
		tmp[n++] = '0';
	while (n > decimals)
		*p++ = tmp[--n];
	if (decimals > 0) {
		*p++ = '.';
		while (n)
			*p++ = tmp[--n];
	}
	return p;
}

char *fmt_ns_as_us(char *p, int64_t ns)
{
	if (ns < 0) {
		*p++ = '-';
		return put_scaled(p, 0 - (uint64_t)ns, 3);
	}
	return put_scaled(p, (uint64_t)ns, 3);
}

/* Exact decimal expansion of a huge finite double; only used past 2^53. */
static char *fmt_huge(char *p, double v, int decimals)
{
	/* Every double >= 2^53 is an integer, so it has no fractional digits:
	 * peel decimal digits off with exact fmod/division steps. */
	char tmp[330];
	int n = 0;
	double a = fabs(v);

	while (a >= 1.0 && n < (int)sizeof(tmp)) {
		double q = floor(a / 10.0);
		double digit = a - q * 10.0;
		/* The subtraction is exact for integers of this size, but guard
		 * against the quotient being rounded up by one. */
		if (digit < 0) {
			q -= 1.0;
			digit += 10.0;
		}
		tmp[n++] = (char)('0' + (int)digit);
		a = q;
	}
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	if (decimals > 0) {
		*p++ = '.';
		for (int i = 0; i < decimals; i++)
			*p++ = '0';
	}
	return p;
}

char *fmt_fixed(char *p, double v, int decimals)
{
	if (!isfinite(v))
		return p;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;

	double scaled = v * pow10_table[decimals];
	if (fabs(scaled) >= FMT_EXACT_LIMIT)
		return fmt_huge(p, v, decimals);

	double r = round(scaled); /* half away from zero */
	if (r < 0) {
		*p++ = '-';
		return put_scaled(p, (uint64_t)-r, decimals);
	}
	return put_scaled(p, (uint64_t)r, decimals);
}

double fmt_round(double v, int decimals)
{
	if (!isfinite(v))
		return v;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;

	double scaled = v * pow10_table[decimals];
	if (fabs(scaled) >= FMT_EXACT_LIMIT)
		return v;
	double r = round(scaled);
	if (r == 0)
		return 0.0; /* "0.000", never "-0.000" */
	return r / pow10_table[decimals];
}

const char *fmt_fixed_str(char *buf, double v, int decimals)
{
	char *end = fmt_fixed(buf, v, decimals);
	*end = '\0';
	return buf;
}
