/*
 * Strict, locale-independent number parsing; see u_parse.h.
 */
#include "u_parse.h"
#include "u_locale.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *u_parse_result_str(enum u_parse_result r)
{
	switch (r) {
	case U_PARSE_OK: return "is valid";
	case U_PARSE_EMPTY: return "is empty";
	case U_PARSE_NOT_A_NUMBER: return "is not a number";
	case U_PARSE_NEGATIVE: return "is negative";
	case U_PARSE_OUT_OF_RANGE: return "is out of range";
	}
	return "is invalid";
}

static int is_blank(const char *text)
{
	for (; *text; text++)
		if (!isspace((unsigned char)*text))
			return 0;
	return 1;
}

static bool all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned)(s[i] - '0') > 9)
			return false;
	return len > 0;
}

/* The "C" locale (u_locale.h), so that a host application's LC_NUMERIC
 * cannot turn "1.5" into an error. */
static locale_t c_locale(void)
{
	return u_locale_c();
}

/*
 * Converts 8 ASCII digits at @p s to their value, or returns false if any
 * byte is not a digit. Does the work of eight loop steps with a few 64-bit
 * operations (little-endian byte order, as on every target of the layer):
 * the CSV readers parse tens of millions of fields.
 */
static bool eight_digits(const char *s, uint64_t *out)
{
	uint64_t v;

	memcpy(&v, s, 8);
	/* Every byte 0x30..0x39: high nibble 3, and adding 6 keeps it 3. */
	if (((v & 0xF0F0F0F0F0F0F0F0ull) |
	     (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) != 0x3333333333333333ull)
		return false;
	v -= 0x3030303030303030ull;
	v = (v * 10) + (v >> 8);
	v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
	     (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
	*out = v;
	return true;
}

/* Digits only, without overflow; false for anything else (see below why). */
static bool digits_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len == 0 || len > 20)
		return false;
	/* Up to 16 digits in blocks of eight; no overflow possible there. */
	for (; i + 8 <= len && i < 16; i += 8) {
		uint64_t block;
		if (!eight_digits(s + i, &block))
			return false;
		v = v * 100000000ull + block;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			return false;
		/* 19 digits always fit; only the 20th can overflow. */
		if (i >= 19 && v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

enum u_parse_result u_parse_span_u64(const char *s, size_t len, uint64_t *out)
{
	if (digits_u64(s, len, out))
		return U_PARSE_OK;
	/* Off the hot path: say why. */
	if (len == 0)
		return U_PARSE_EMPTY;
	if (s[0] == '-' && all_digits(s + 1, len - 1))
		return U_PARSE_NEGATIVE;
	return all_digits(s, len) ? U_PARSE_OUT_OF_RANGE : U_PARSE_NOT_A_NUMBER;
}

enum u_parse_result u_parse_span_i64(const char *s, size_t len, int64_t *out)
{
	bool neg = len > 0 && s[0] == '-';
	uint64_t mag;

	if (neg && len == 1)
		return U_PARSE_NOT_A_NUMBER;
	enum u_parse_result r = u_parse_span_u64(s + neg, len - neg, &mag);
	if (r != U_PARSE_OK)
		return r == U_PARSE_NEGATIVE ? U_PARSE_NOT_A_NUMBER : r; /* "--5" */
	if (mag > (uint64_t)INT64_MAX + neg)
		return U_PARSE_OUT_OF_RANGE;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return U_PARSE_OK;
}

static const double exact_pow10[23] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * "[-]digits[.digits]" with at most 15 significant digits: the mantissa and
 * the power of ten are both exact doubles, so one division is correctly
 * rounded and gives exactly what strtod() gives (Clinger's fast path).
 * Returns false when the text needs the general path.
 */
static bool f64_fast(const char *s, size_t len, double *out)
{
	size_t i = 0, digits = 0, frac = 0;
	bool neg = false, point = false;
	uint64_t m = 0;

	if (len > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	for (; i < len; i++) {
		char c = s[i];
		if (c == '.' && !point) {
			point = true;
			continue;
		}
		if (c < '0' || c > '9')
			return false;
		if (m == 0 && c == '0' && !point)
			continue; /* leading zeros carry nothing */
		if (++digits > 15)
			return false;
		m = m * 10 + (uint64_t)(c - '0');
		if (point)
			frac++;
	}
	/* Leading zeros after the point count as fraction digits too. */
	if (point) {
		const char *dot = memchr(s, '.', len);
		frac = len - (size_t)(dot - s) - 1;
	}
	if (frac > 22 || (digits == 0 && len == (size_t)neg + point) || (point && len == (size_t)neg + 1))
		return false;
	double v = (double)m / exact_pow10[frac];
	*out = neg ? -v : v;
	return true;
}

/* Longest number text the general path takes (a longer one is refused). */
#define U_PARSE_F64_MAX 400

enum u_parse_result u_parse_span_f64(const char *s, size_t len, double *out)
{
	char buf[U_PARSE_F64_MAX + 1];
	char *end;

	if (f64_fast(s, len, out))
		return U_PARSE_OK;
	if (len == 0)
		return U_PARSE_EMPTY;
	/* Only plain decimal notation: no blanks, hex floats, nan or inf. */
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
			return U_PARSE_NOT_A_NUMBER;
	}
	locale_t loc = c_locale();
	if (len > U_PARSE_F64_MAX || !loc)
		return U_PARSE_NOT_A_NUMBER;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	double v = strtod_l(buf, &end, loc);
	if (end != buf + len)
		return U_PARSE_NOT_A_NUMBER;
	if (errno == ERANGE || !isfinite(v))
		return U_PARSE_OUT_OF_RANGE;
	*out = v;
	return U_PARSE_OK;
}

enum u_parse_result u_parse_double(const char *text, double min, double max, double *out)
{
	double v;

	if (!text || is_blank(text))
		return U_PARSE_EMPTY;
	enum u_parse_result r = u_parse_span_f64(text, strlen(text), &v);
	if (r != U_PARSE_OK)
		return r;
	if (v < min)
		return v < 0 && min >= 0 ? U_PARSE_NEGATIVE : U_PARSE_OUT_OF_RANGE;
	if (v > max)
		return U_PARSE_OUT_OF_RANGE;
	*out = v;
	return U_PARSE_OK;
}

enum u_parse_result u_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (!text || is_blank(text))
		return U_PARSE_EMPTY;
	bool plus = text[0] == '+';
	enum u_parse_result r = u_parse_span_u64(text + plus, strlen(text + plus), &v);
	if (plus && (r == U_PARSE_EMPTY || r == U_PARSE_NEGATIVE))
		return U_PARSE_NOT_A_NUMBER; /* "+", "+-5" */
	if (r != U_PARSE_OK)
		return r;
	if (v < min || v > max)
		return U_PARSE_OUT_OF_RANGE;
	*out = v;
	return U_PARSE_OK;
}

static void warn_bad(const char *name, const char *value, enum u_parse_result r,
                     const char *range, const char *def, u_warn_fn warn, void *ctx)
{
	if (!warn)
		return;
	char msg[512];
	snprintf(msg, sizeof(msg), "%s=\"%.64s%s\" %s (expected %s); using the default %s",
	         name, value, strlen(value) > 64 ? "..." : "", u_parse_result_str(r), range, def);
	warn(ctx, msg);
}

double u_env_double(const char *name, double def, double min, double max,
                    u_warn_fn warn, void *ctx)
{
	const char *value = getenv(name);
	if (!value)
		return def;
	double v;
	enum u_parse_result r = u_parse_double(value, min, max, &v);
	if (r == U_PARSE_OK)
		return v;
	char range[96], defs[48];
	snprintf(range, sizeof(range), "a number from %g to %g", min, max);
	snprintf(defs, sizeof(defs), "%g", def);
	warn_bad(name, value, r, range, defs, warn, ctx);
	return def;
}

uint64_t u_env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max,
                   u_warn_fn warn, void *ctx)
{
	const char *value = getenv(name);
	if (!value)
		return def;
	uint64_t v;
	enum u_parse_result r = u_parse_u64(value, min, max, &v);
	if (r == U_PARSE_OK)
		return v;
	char range[96], defs[32];
	snprintf(range, sizeof(range), "a whole number from %llu to %llu",
	         (unsigned long long)min, (unsigned long long)max);
	snprintf(defs, sizeof(defs), "%llu", (unsigned long long)def);
	warn_bad(name, value, r, range, defs, warn, ctx);
	return def;
}
