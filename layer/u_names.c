/*
 * Session file names; see u_names.h.
 */
#include "u_names.h"

#include <stdio.h>
#include <string.h>

static const char *const kinds[] = {U_NAMES_FRAMES, U_NAMES_GPU, U_NAMES_FUNCTIONS, U_NAMES_CALLS};
static const char *const sides[] = {U_NAMES_PRE, U_NAMES_POST};
static const char merged[] = "merged";
static const char ext[] = ".csv";

/* snprintf's result as a length, or -1 when it did not fit. */
static int fitted(int n, size_t size)
{
	return n >= 0 && (size_t)n < size ? n : -1;
}

/* Whether @p tag can stand in a name: not empty, not a path. */
static bool tag_ok(const char *tag)
{
	return tag[0] != '\0' && !strchr(tag, '/');
}

/* Writes "[<dir>/]<kind>-<a>-<b>.csv"; its length, or -1 (see u_names.h). */
static int build(char *out, size_t size, const char *dir, const char *kind, const char *a,
                 const char *b, const char *tag)
{
	if (!tag_ok(tag))
		return -1;
	return fitted(snprintf(out, size, "%s%s%s-%s-%s%s", dir ? dir : "", dir ? "/" : "", kind, a,
	                       b, ext),
	              size);
}

int u_names_side_file(char *out, size_t size, const char *dir, const char *kind,
                      const char *tag, const char *side)
{
	return build(out, size, dir, kind, tag, side, tag);
}

int u_names_merged_file(char *out, size_t size, const char *dir, const char *kind,
                        const char *tag)
{
	return build(out, size, dir, kind, merged, tag, tag);
}

/* Length of @p s when @p s starts with @p word and a '-'; 0 otherwise. */
static size_t leading(const char *s, const char *word)
{
	size_t n = strlen(word);
	return strncmp(s, word, n) == 0 && s[n] == '-' ? n + 1 : 0;
}

/* Length of "-<side>.csv" when @p s (of @p len bytes) ends with it; 0 otherwise. */
static size_t trailing(const char *s, size_t len, const char *side)
{
	size_t n = strlen(side) + sizeof(ext) - 1;
	if (len <= n || s[len - n - 1] != '-' || strncmp(s + len - n, side, strlen(side)) != 0 ||
	    strcmp(s + len - sizeof(ext) + 1, ext) != 0)
		return 0;
	return n + 1;
}

/* Copies the @p len bytes at @p s into @p out's tag; false when empty or too long. */
static bool take_tag(const char *s, size_t len, struct u_names_parsed *out)
{
	if (len == 0 || len >= sizeof(out->tag))
		return false;
	memcpy(out->tag, s, len);
	out->tag[len] = '\0';
	return true;
}

bool u_names_parse(const char *path, struct u_names_parsed *out)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	size_t len = strlen(name);

	out->dir_len = (int)(name - path);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t head = leading(name, kinds[k]);
		if (head == 0)
			continue;
		out->kind = kinds[k];
		for (size_t s = 0; s < sizeof(sides) / sizeof(sides[0]); s++) {
			size_t tail = trailing(name + head, len - head, sides[s]);
			if (tail) {
				out->side = sides[s];
				return take_tag(name + head, len - head - tail, out);
			}
		}
		size_t m = leading(name + head, merged);
		size_t e = sizeof(ext) - 1;
		if (m == 0 || len < head + m + e || strcmp(name + len - e, ext) != 0)
			return false;
		out->side = NULL;
		return take_tag(name + head + m, len - head - m - e, out);
	}
	return false;
}

int u_names_sibling(char *out, size_t size, const char *path, const struct u_names_parsed *n,
                    const char *kind, const char *side)
{
	size_t d = (size_t)n->dir_len;

	if (d >= size)
		return -1;
	memcpy(out, path, d);
	int len = side ? u_names_side_file(out + d, size - d, NULL, kind, n->tag, side)
	               : u_names_merged_file(out + d, size - d, NULL, kind, n->tag);
	return len < 0 ? -1 : (int)d + len;
}

bool u_names_is(const struct u_names_parsed *n, const char *kind, const char *side)
{
	if (strcmp(n->kind, kind) != 0)
		return false;
	return side ? n->side && strcmp(n->side, side) == 0 : !n->side;
}
