/*
 * Strict, locale-independent number parsing; see u_parse.h.
 */
#define _GNU_SOURCE
#include "u_parse.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *u_parse_result_str(enum u_parse_result r)
{
	switch (r) {
	case U_PARSE_OK: return "is valid";
	case U_PARSE_EMPTY: return "is empty";
	case U_PARSE_NOT_A_NUMBER: return "is not a number";
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

/* The "C" locale, so that a host application's LC_NUMERIC cannot turn
 * "1.5" into an error. Created once; never freed (it lives as long as the
 * process, like the global locale objects of libc itself). */
static locale_t c_locale(void)
{
	static locale_t loc;
	locale_t l = __atomic_load_n(&loc, __ATOMIC_ACQUIRE);
	if (l)
		return l;
	l = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t expected = (locale_t)0;
	if (!__atomic_compare_exchange_n(&loc, &expected, l, 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE)) {
		freelocale(l);
		l = expected;
	}
	return l;
}

enum u_parse_result u_parse_double(const char *text, double min, double max, double *out)
{
	if (!text || is_blank(text))
		return U_PARSE_EMPTY;
	/* Only plain decimal notation: no hex floats, nan or inf. */
	for (const char *p = text; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!isdigit(c) && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
			return U_PARSE_NOT_A_NUMBER;
	}
	locale_t loc = c_locale();
	if (!loc)
		return U_PARSE_NOT_A_NUMBER;
	char *end = NULL;
	errno = 0;
	double v = strtod_l(text, &end, loc);
	if (end == text || *end != '\0')
		return U_PARSE_NOT_A_NUMBER;
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return U_PARSE_OUT_OF_RANGE;
	*out = v;
	return U_PARSE_OK;
}

enum u_parse_result u_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	if (!text || is_blank(text))
		return U_PARSE_EMPTY;
	const char *p = text;
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return U_PARSE_NOT_A_NUMBER;
	uint64_t v = 0;
	int overflow = 0;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return U_PARSE_NOT_A_NUMBER;
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	if (overflow || v < min || v > max)
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
