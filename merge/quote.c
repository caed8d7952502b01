/*
 * File names as messages and listings show them; see quote.h.
 */
#include "quote.h"

#include <string.h>

/* The longest escape of one byte ("\ooo"). */
#define QUOTE_ESCAPE_MAX 4

/* Whether @p c makes a name escaped: a control byte, or the escapes' own backslash. */
static int quote_special(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == '\\';
}

/* Writes the escape of @p c at @p p (no NUL); returns its length. */
static size_t quote_byte(char *p, unsigned char c)
{
	static const char named[] = {['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', ['\\'] = '\\'};

	if (!quote_special(c)) {
		*p = (char)c;
		return 1;
	}
	p[0] = '\\';
	if (c < sizeof(named) && named[c]) {
		p[1] = named[c];
		return 2;
	}
	p[1] = (char)('0' + (c >> 6));
	p[2] = (char)('0' + ((c >> 3) & 7));
	p[3] = (char)('0' + (c & 7));
	return 4;
}

const char *quote_path(char *buf, const char *path)
{
	const unsigned char *s = (const unsigned char *)path;
	size_t n = 0;

	while (*s && !quote_special(*s))
		s++;
	if (!*s)
		return path;
	for (s = (const unsigned char *)path; *s; s++) {
		/* Room for this escape, and for "..." and the NUL after it. */
		if (n + QUOTE_ESCAPE_MAX + 4 > QUOTE_PATH_MAX) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		n += quote_byte(buf + n, *s);
	}
	buf[n] = '\0';
	return buf;
}
