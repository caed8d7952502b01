/*
 * Strict, locale-independent parsing of numbers: the one number parser of
 * the project, shared by the layers (environment), the test fixtures and
 * `xrlm` (command lines, and every number field of the CSV files).
 *
 * "Strict" means the whole text must be one number: "12abc", "", " ",
 * "nan", "0x10" and "1e999" are all refused, never half-accepted.
 */
#ifndef XRLM_U_PARSE_H
#define XRLM_U_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum u_parse_result {
	U_PARSE_OK = 0,
	U_PARSE_EMPTY,        /* empty or only blanks */
	U_PARSE_NOT_A_NUMBER, /* trailing garbage, nan, inf, blanks inside */
	U_PARSE_NEGATIVE,     /* a negative number where only >= 0 is allowed */
	U_PARSE_OUT_OF_RANGE, /* a number, but outside [min, max] or the type */
};

/* A short human-readable reason for @p r, e.g. "is not a number". */
const char *u_parse_result_str(enum u_parse_result r);

/*
 * The span parsers: the @p len bytes at @p s (no NUL needed) must be
 * exactly one number. They are what the CSV readers call per field.
 */

/* Digits only: "0".."18446744073709551615". "-5" is U_PARSE_NEGATIVE. */
enum u_parse_result u_parse_span_u64(const char *s, size_t len, uint64_t *out);

/* An optional '-', then digits, within int64_t. */
enum u_parse_result u_parse_span_i64(const char *s, size_t len, int64_t *out);

/*
 * A plain decimal number ("-1.5", "2e-3", "+7"): no blanks, hex, nan or
 * inf; the result must be finite. Correctly rounded (the same bits as
 * strtod() in the "C" locale), whatever the process's locale.
 */
enum u_parse_result u_parse_span_f64(const char *s, size_t len, double *out);

/*
 * The whole-string parsers, for settings and arguments: as the span
 * parsers, plus a range check. u_parse_u64() also takes a leading '+'.
 * A negative value below a @p min of 0 or more is U_PARSE_NEGATIVE.
 */

/* Parses @p text as a finite decimal number in [@p min, @p max]. */
enum u_parse_result u_parse_double(const char *text, double min, double max, double *out);

/* Parses @p text as a non-negative decimal integer in [@p min, @p max]. */
enum u_parse_result u_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* Called once with a complete message when an environment value is refused. */
typedef void (*u_warn_fn)(void *ctx, const char *message);

/*
 * Reads environment variable @p name as a number in [@p min, @p max].
 * Unset: returns @p def silently. Set but bad: calls @p warn once with a
 * message naming the variable, the value and the default, and returns @p def.
 */
double u_env_double(const char *name, double def, double min, double max,
                    u_warn_fn warn, void *ctx);

/* As u_env_double(), for non-negative integers. */
uint64_t u_env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max,
                   u_warn_fn warn, void *ctx);

#endif /* XRLM_U_PARSE_H */
