/*
 * UTF-8 for the text the tools read and write (JSON, HTML, the workbook's
 * XML): characters told from bytes that are none, text cut without
 * splitting a character, and bytes that are no character replaced by
 * U+FFFD.
 */
#ifndef XRLM_UTF8_H
#define XRLM_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* U+FFFD REPLACEMENT CHARACTER in UTF-8. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length of the UTF-8 sequence at @p s (1 to 4 bytes, at most @p
 * left, which is at least 1), its code point in *@p cp: U+FFFD for U+FFFE
 * and U+FFFF, which XML does not allow (written as U+FFFD). 0 for a byte
 * that begins none: a stray or missing continuation byte, an overlong
 * form, a surrogate, past U+10FFFF.
 */
size_t utf8_char(const unsigned char *s, size_t left, uint32_t *cp);

/*
 * The length of @p s[0..len) less the bytes of a character the end at @p
 * len cuts short (a lead byte and fewer continuation bytes than it
 * announces): where text cut to a buffer stops, as whole characters.
 */
size_t utf8_whole(const char *s, size_t len);

/*
 * Copies @p src into @p dst (@p size bytes, at least 1); a @p src too
 * long is cut before the character the end of @p dst would split
 * (utf8_whole()).
 */
void utf8_copy(char *dst, size_t size, const char *src);

/*
 * A copy of @p s (malloc) with each byte that begins no UTF-8 sequence,
 * and U+FFFE and U+FFFF, replaced by U+FFFD (utf8_char()); NULL when out
 * of memory.
 */
char *utf8_clean_dup(const char *s);

#endif /* XRLM_UTF8_H */
