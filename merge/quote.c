/*
 * File names as messages and listings show them; see quote.h.
 */
#include "quote.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The longest escape of one byte ("\ooo"). */
#define QUOTE_ESCAPE_MAX 4
/* The most bytes one control takes (a C1 control in UTF-8). */
#define QUOTE_CONTROL_MAX 2

/*
 * How many bytes at @p s are a control: a C0 control or DEL (1); a C1
 * control in UTF-8, U+0080 to U+009F (2: a terminal that reads UTF-8
 * takes U+009B for CSI as it takes ESC [); a C1 byte, 0x80 to 0x9f, in
 * no UTF-8 sequence (1: CSI itself to a terminal that reads 8 bits); with
 * @p backslash, a backslash too (1: the escapes' own). 0 for a byte shown
 * as it is. @p cont: the continuation bytes still due to a sequence begun
 * before @p s, so that those of "€" (e2 82 ac) are not taken for C1 bytes.
 */
static size_t control_length(const unsigned char *s, unsigned *cont, bool backslash)
{
	unsigned char c = s[0];

	if (c >= 0x80 && c <= 0xbf && *cont > 0) {
		(*cont)--;
		return 0;
	}
	*cont = 0;
	if (c < 0x20 || c == 0x7f || (backslash && c == '\\') || (c >= 0x80 && c <= 0x9f))
		return 1;
	if (c == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	if (c >= 0xc2 && c <= 0xf4)
		*cont = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
	return 0;
}

/* What quote_path() escapes: a control or a backslash (control_length()). */
static size_t quote_control(const unsigned char *s, unsigned *cont)
{
	return control_length(s, cont, true);
}

/* Whether @p path holds a control (quote_control()). */
static bool quote_needed(const unsigned char *s)
{
	unsigned cont = 0;

	for (; *s; s++)
		if (quote_control(s, &cont))
			return true;
	return false;
}

/* Writes the escape of control byte @p c at @p p (no NUL); returns its length. */
static size_t quote_byte(char *p, unsigned char c)
{
	static const char named[] = {['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', ['\\'] = '\\'};

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
	unsigned cont = 0;
	size_t n = 0;

	if (!quote_needed(s))
		return path;
	while (*s) {
		/* Room for this control's escapes, and for "..." and the NUL after them. */
		if (n + QUOTE_CONTROL_MAX * QUOTE_ESCAPE_MAX + 4 > QUOTE_PATH_MAX) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		size_t k = quote_control(s, &cont);
		if (k == 0)
			buf[n++] = (char)*s++;
		for (; k > 0; k--)
			n += quote_byte(buf + n, *s++);
	}
	buf[n] = '\0';
	return buf;
}

const char *quote_path_to(char *buf, size_t size, const char *text, size_t len)
{
	char cut[4096], q[QUOTE_PATH_MAX];

	snprintf(cut, sizeof(cut), "%.*s", len < sizeof(cut) ? (int)len : (int)sizeof(cut), text);
	snprintf(buf, size, "%s", quote_path(q, cut));
	return buf;
}

void quote_text(char *s)
{
	unsigned char *p = (unsigned char *)s, *o = p;
	unsigned cont = 0;

	while (*p) {
		size_t k = control_length(p, &cont, false);
		if (k == 0) {
			*o++ = *p++;
			continue;
		}
		*o++ = '?';
		p += k;
	}
	*o = '\0';
}
