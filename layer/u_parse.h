/*
 * Strict, locale-independent parsing of numbers from environment variables
 * and command lines. Shared by the layers, the test fixtures and `xrlm`.
 *
 * "Strict" means the whole string must be one number: "12abc", "", " ",
 * "nan" and "1e999" are all refused, never half-accepted.
 */
#ifndef XRLM_U_PARSE_H
#define XRLM_U_PARSE_H

#include <stdint.h>

enum u_parse_result {
	U_PARSE_OK = 0,
	U_PARSE_EMPTY,        /* empty or only blanks */
	U_PARSE_NOT_A_NUMBER, /* trailing garbage, nan, inf, sign on unsigned */
	U_PARSE_OUT_OF_RANGE, /* a number, but outside [min, max] */
};

/* A short human-readable reason for @p r, e.g. "is not a number". */
const char *u_parse_result_str(enum u_parse_result r);

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
