/*
 * Locale-independent number formatting for the merged CSV and the tables.
 *
 * Every fixed-point value is produced as r = round(v * 10^d) (half away from
 * zero) printed as an integer with a '.' inserted (past 2^50 for r: by
 * printf), so the text always reads back (strtod) as exactly
 * fmt_round(v, d), and that value's own text as itself: statistics computed
 * from a merged file's text equal those computed while writing it.
 */
#ifndef XRLM_FMT_H
#define XRLM_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Enough for any value these functions write, including the NUL. */
#define FMT_NUM_MAX 352

/* Writes @p v in decimal at @p p (no NUL); returns the end. */
char *fmt_u64(char *p, uint64_t v);

/* Writes @p v in decimal at @p p (no NUL); returns the end. */
char *fmt_i64(char *p, int64_t v);

/* Writes nanoseconds @p ns as microseconds with exactly 3 decimals. */
char *fmt_ns_as_us(char *p, int64_t ns);

/*
 * The value that fmt_ns_as_us(@p ns) text reads back as (the correctly
 * rounded double of ns / 1000), also past 2^53 ns.
 */
double fmt_ns_as_us_value(int64_t ns);

/*
 * Writes @p v with exactly @p decimals (0..9) digits after the point, rounded
 * half away from zero; "-" only when the rounded value is non-zero.
 * Writes nothing for a NaN or infinity. Returns the end (no NUL).
 */
char *fmt_fixed(char *p, double v, int decimals);

/* The value that fmt_fixed(@p v, @p decimals) text reads back as. */
double fmt_round(double v, int decimals);

/* fmt_fixed() into @p buf (at least FMT_NUM_MAX bytes) with a NUL; returns buf. */
const char *fmt_fixed_str(char *buf, double v, int decimals);

#endif /* XRLM_FMT_H */
