/*
 * UTF-8 for the tools' text outputs; see utf8.h.
 */
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_char(const unsigned char *s, size_t left, uint32_t *cp)
{
	static const uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;

	if (n == 0 || s[0] > 0xf4 || n > left)
		return 0;
	uint32_t c = n == 1 ? s[0] : s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min_cp[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c == 0xfffe || c == 0xffff ? 0xfffd : c;
	return n;
}

size_t utf8_whole(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = len;

	while (at > 0 && len - at < 3 && (p[at - 1] & 0xc0) == 0x80)
		at--;
	if (at == 0 || p[at - 1] < 0xc0)
		return len; /* ASCII or stray continuation bytes: nothing cut short */
	size_t need = p[at - 1] >= 0xf0 ? 4 : p[at - 1] >= 0xe0 ? 3 : 2;
	return len - (at - 1) < need ? at - 1 : len;
}

void utf8_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	if (src[n] != '\0')
		n = utf8_whole(src, n);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *utf8_clean_dup(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char *out = malloc(3 * len + 1); /* each byte at worst U+FFFD */

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_char(p + i, len - i, &cp);
		if (n == 0 || cp == 0xfffd) {
			memcpy(out + o, UTF8_REPLACEMENT, 3);
			o += 3;
		} else {
			memcpy(out + o, p + i, n);
			o += n;
		}
		i += n ? n : 1;
	}
	out[o] = '\0';
	return out;
}
