/*
 * Checking that a merge's files belong to one session; see merge_check.h.
 */
#include "merge_check.h"

#include <stdio.h>
#include <string.h>

bool merge_check_split_name(const char *path, const char *prefix, const char *side, int *dir_len,
                            const char **tag, int *tag_len)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	size_t plen = strlen(prefix);
	char suffix[16];
	size_t len = strlen(name);

	snprintf(suffix, sizeof(suffix), "-%s.csv", side);
	size_t slen = strlen(suffix);
	if (strncmp(name, prefix, plen) != 0 || name[plen] != '-' || len <= plen + 1 + slen ||
	    strcmp(name + len - slen, suffix) != 0)
		return false;
	*dir_len = (int)(name - path);
	*tag = name + plen + 1;
	*tag_len = (int)(len - plen - 1 - slen);
	return true;
}

/* The tag in a per-side file's name, whichever kind and side it is. */
static bool name_tag(const char *path, const char **tag, int *tag_len)
{
	static const char *const prefixes[] = {"frames", "gpu"};
	static const char *const sides[] = {"pre", "post"};
	int dir_len;

	for (int p = 0; p < 2; p++)
		for (int s = 0; s < 2; s++)
			if (merge_check_split_name(path, prefixes[p], sides[s], &dir_len, tag, tag_len))
				return true;
	return false;
}

bool merge_check_same_session(const struct merge_check_file *ref,
                              const struct merge_check_file *other, char *msg, size_t msg_size)
{
	const char *a, *b;
	int alen, blen;
	const char *how = "by its name";

	if (ref->session[0] && other->session[0]) {
		a = ref->session;
		b = other->session;
		alen = (int)strlen(a);
		blen = (int)strlen(b);
		how = "by its # session= line";
	} else if (!name_tag(ref->path, &a, &alen) || !name_tag(other->path, &b, &blen)) {
		return true; /* nothing says which session either belongs to */
	}
	if (alen == blen && memcmp(a, b, (size_t)alen) == 0)
		return true;
	snprintf(msg, msg_size, "%s: error: is of session %.*s (%s), but %s is of session %.*s: "
	         "not merging files of different sessions", other->path, blen > 96 ? 96 : blen, b,
	         how, ref->path, alen > 96 ? 96 : alen, a);
	return false;
}
