/*
 * Session file names; see u_names.h.
 */
#include "u_names.h"

#include <stdio.h>

/* snprintf's result as a length, or -1 when it did not fit. */
static int fitted(int n, size_t size)
{
	return n >= 0 && (size_t)n < size ? n : -1;
}

int u_names_side_file(char *out, size_t size, const char *dir, const char *kind,
                      const char *tag, const char *side)
{
	return fitted(snprintf(out, size, "%s%s%s-%s-%s.csv", dir ? dir : "", dir ? "/" : "",
	                       kind, tag, side),
	              size);
}

int u_names_merged_file(char *out, size_t size, const char *dir, const char *kind,
                        const char *tag)
{
	return u_names_side_file(out, size, dir, kind, "merged", tag);
}
