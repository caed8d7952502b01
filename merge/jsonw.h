/*
 * A small streaming JSON writer for `xrlm compare --json` and the data
 * block of `xrlm report`.
 *
 * Strings are always escaped so that the output is safe both as JSON and
 * inside an HTML <script> element: besides '"', '\\' and control
 * characters, '<', '>', '&' and '\'' are written as \u escapes (so no
 * "</script>" or "<!--" can appear), U+2028 and U+2029 (line terminators
 * in older JavaScript) as \u2028 / \u2029, and every byte that is not part
 * of valid UTF-8, and U+FFFE, U+FFFF (utf8.h), as \ufffd (so the output is
 * valid UTF-8 whatever a session's names hold). Numbers never depend on the locale; NaN and
 * infinities are written as null.
 */
#ifndef XRLM_JSONW_H
#define XRLM_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

/* Writer state: where to write, and whether each open level needs a comma. */
struct jsonw {
	FILE *f;
	int depth;
	bool has_items[JSONW_MAX_DEPTH];
	char closer[JSONW_MAX_DEPTH];
	bool after_key;
};

/* Starts writing JSON to @p f. */
void jsonw_init(struct jsonw *w, FILE *f);

/*
 * Opens an object / array (as a value: after a key, in an array, or at the
 * top). Nesting deeper than JSONW_MAX_DEPTH is a caller's bug: the writer
 * ignores the extra levels.
 */
void jsonw_object(struct jsonw *w);
void jsonw_array(struct jsonw *w);

/* Closes the innermost object or array. */
void jsonw_end(struct jsonw *w);

/* Writes an object key; the next call writes its value. */
void jsonw_key(struct jsonw *w, const char *key);

/* Writes @p s (NUL-terminated) as an escaped string; NULL writes null. */
void jsonw_string(struct jsonw *w, const char *s);

/* Writes @p v with @p decimals digits after the point (0..9); null if not finite. */
void jsonw_fixed(struct jsonw *w, double v, int decimals);

/* Writes @p v with @p digits significant digits in exponent form ("1.23e-5"). */
void jsonw_sci(struct jsonw *w, double v, int digits);

/* Writes an integer. */
void jsonw_uint(struct jsonw *w, uint64_t v);

/* Writes true or false. */
void jsonw_bool(struct jsonw *w, bool v);

/* Writes null. */
void jsonw_null(struct jsonw *w);

/*
 * Writes the escaped text of @p s (@p len bytes), without quotes: the part
 * of jsonw_string() a caller building a string piecewise needs.
 */
void jsonw_escape(FILE *f, const char *s, size_t len);

#endif /* XRLM_JSONW_H */
