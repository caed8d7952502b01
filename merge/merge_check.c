/*
 * Checking that a merge's files belong to one session; see merge_check.h.
 */
#include "merge_check.h"

#include <stdio.h>
#include <string.h>

#include "quote.h"
#include "u_names.h"

/* The tag in a per-side file's name, whichever kind and side it is. */
static bool name_tag(const char *path, struct u_names_parsed *n)
{
	return u_names_parse(path, n) && n->side;
}

bool merge_check_same_session(const struct merge_check_file *ref,
                              const struct merge_check_file *other, char *msg, size_t msg_size)
{
	struct u_names_parsed na, nb;
	const char *a = na.tag, *b = nb.tag;
	const char *how = "by its name";

	if (ref->session[0] && other->session[0]) {
		a = ref->session;
		b = other->session;
		how = "by its # session= line";
	} else if (!name_tag(ref->path, &na) || !name_tag(other->path, &nb)) {
		return true; /* nothing says which session either belongs to */
	}
	int alen = (int)strlen(a), blen = (int)strlen(b);
	if (alen == blen && memcmp(a, b, (size_t)alen) == 0)
		return true;
	char qo[QUOTE_PATH_MAX], qr[QUOTE_PATH_MAX];
	snprintf(msg, msg_size, "%s: error: is of session %.*s (%s), but %s is of session %.*s: "
	         "files of different sessions are not used together", quote_path(qo, other->path),
	         blen > 96 ? 96 : blen, b, how, quote_path(qr, ref->path), alen > 96 ? 96 : alen, a);
	return false;
}
