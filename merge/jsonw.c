/*
 * The JSON writer; see jsonw.h for the escaping rules.
 */
#include "jsonw.h"

#include <math.h>
#include <string.h>

#include "fmt.h"
#include "utf8.h"

void jsonw_init(struct jsonw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

/* The separator before a value: a comma unless it is the first of its level. */
static void before_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0 && w->has_items[w->depth - 1])
		fputc(',', w->f);
	if (w->depth > 0)
		w->has_items[w->depth - 1] = true;
}

static void open_level(struct jsonw *w, char open, char close)
{
	if (w->depth >= JSONW_MAX_DEPTH)
		return;
	before_value(w);
	fputc(open, w->f);
	w->has_items[w->depth] = false;
	w->closer[w->depth] = close;
	w->depth++;
}

void jsonw_object(struct jsonw *w)
{
	open_level(w, '{', '}');
}

void jsonw_array(struct jsonw *w)
{
	open_level(w, '[', ']');
}

void jsonw_end(struct jsonw *w)
{
	if (w->depth == 0)
		return;
	w->depth--;
	fputc(w->closer[w->depth], w->f);
}

/* True for an ASCII byte written as it is. */
static bool plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' &&
	       c != '&' && c != '\'';
}

/* Writes the escape for the ASCII byte @p c that is not plain. */
static void escape_ascii(FILE *f, unsigned char c)
{
	if (c == '"' || c == '\\')
		fprintf(f, "\\%c", c);
	else if (c == '\n')
		fputs("\\n", f);
	else if (c == '\t')
		fputs("\\t", f);
	else
		fprintf(f, "\\u%04x", c);
}

void jsonw_escape(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < len;) {
		size_t run = i;
		while (run < len && plain_ascii(s[run]))
			run++;
		fwrite(s + i, 1, run - i, f); /* long base64 texts go out in one piece */
		if ((i = run) == len)
			break;
		if (s[i] < 0x80) {
			escape_ascii(f, s[i++]);
			continue;
		}
		uint32_t cp;
		size_t n = utf8_char(s + i, len - i, &cp);
		if (n == 0 || cp == 0xfffd)
			fputs("\\ufffd", f);
		else if (cp == 0x2028 || cp == 0x2029)
			fprintf(f, "\\u%04x", (unsigned)cp);
		else
			fwrite(s + i, 1, n, f);
		i += n ? n : 1;
	}
}

void jsonw_key(struct jsonw *w, const char *key)
{
	before_value(w);
	fputc('"', w->f);
	jsonw_escape(w->f, key, strlen(key));
	fputs("\":", w->f);
	w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s)
{
	if (!s) {
		jsonw_null(w);
		return;
	}
	before_value(w);
	fputc('"', w->f);
	jsonw_escape(w->f, s, strlen(s));
	fputc('"', w->f);
}

void jsonw_fixed(struct jsonw *w, double v, int decimals)
{
	char buf[FMT_NUM_MAX];

	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	before_value(w);
	fputs(fmt_fixed_str(buf, v, decimals), w->f);
}

void jsonw_sci(struct jsonw *w, double v, int digits)
{
	char buf[FMT_NUM_MAX];

	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	before_value(w);
	if (v == 0) {
		fputc('0', w->f);
		return;
	}
	int e = (int)floor(log10(fabs(v)));
	double m = fmt_round(v / pow(10, e), digits - 1);
	if (fabs(m) >= 10) { /* 9.996 rounded up to 10.00 */
		e++;
		m = fmt_round(v / pow(10, e), digits - 1);
	}
	fprintf(w->f, "%se%d", fmt_fixed_str(buf, m, digits - 1), e);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	char buf[24];

	before_value(w);
	*fmt_u64(buf, v) = '\0';
	fputs(buf, w->f);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w)
{
	before_value(w);
	fputs("null", w->f);
}
