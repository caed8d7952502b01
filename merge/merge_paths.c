/*
 * A session's default sibling paths (its other files, the merged file and
 * the functions file, by the names of the README's "Files"); see merge.h.
 */
#include "merge.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "quote.h"
#include "u_names.h"

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Session @p n's file of @p kind and @p side, next to @p near, into @p out. */
static bool sibling(char *out, const char *near, const struct u_names_parsed *n,
                    const char *kind, const char *side)
{
	return u_names_sibling(out, MERGE_PATH_MAX, near, n, kind, side) >= 0;
}

/* As sibling(), left "" unless the file exists. */
static void existing_sibling(char *out, const char *near, const struct u_names_parsed *n,
                             const char *kind, const char *side)
{
	if (!sibling(out, near, n, kind, side) || !is_file(out))
		out[0] = '\0';
}

int merge_sibling_paths(const char *pre_csv, const char *post_csv, struct merge_siblings *out)
{
	struct u_names_parsed n;

	memset(out, 0, sizeof(*out));
	if (!pre_csv || !u_names_parse(pre_csv, &n) || !u_names_is(&n, U_NAMES_FRAMES, U_NAMES_PRE))
		return -1;
	if (!sibling(out->post_csv, pre_csv, &n, U_NAMES_FRAMES, U_NAMES_POST) ||
	    !sibling(out->merged_csv, pre_csv, &n, U_NAMES_FRAMES, NULL) ||
	    !sibling(out->functions_csv, pre_csv, &n, U_NAMES_FUNCTIONS, NULL)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	existing_sibling(out->gpu_pre_csv, pre_csv, &n, U_NAMES_GPU, U_NAMES_PRE);
	existing_sibling(out->calls_pre_csv, pre_csv, &n, U_NAMES_CALLS, U_NAMES_PRE);

	/* The post side's files live next to the post CPU file. */
	const char *post = post_csv ? post_csv : out->post_csv;
	if (u_names_parse(post, &n) && u_names_is(&n, U_NAMES_FRAMES, U_NAMES_POST)) {
		existing_sibling(out->gpu_post_csv, post, &n, U_NAMES_GPU, U_NAMES_POST);
		existing_sibling(out->calls_post_csv, post, &n, U_NAMES_CALLS, U_NAMES_POST);
	}
	return 0;
}

/* NULL for an empty path. */
static const char *optional(const char *path)
{
	return path[0] ? path : NULL;
}

void merge_paths_from_siblings(const struct merge_siblings *sib, const char *pre_csv,
                               struct merge_paths *out)
{
	*out = (struct merge_paths){
		.pre_csv = pre_csv,
		.post_csv = sib->post_csv,
		.gpu_pre_csv = optional(sib->gpu_pre_csv),
		.gpu_post_csv = optional(sib->gpu_post_csv),
		.calls_pre_csv = optional(sib->calls_pre_csv),
		.calls_post_csv = optional(sib->calls_post_csv),
		.functions_csv = optional(sib->functions_csv),
	};
}

int merge_functions_path(const char *merged_csv, char *out, size_t size)
{
	struct u_names_parsed n;
	static const char ext[] = ".csv";

	if (u_names_parse(merged_csv, &n) && u_names_is(&n, U_NAMES_FRAMES, NULL))
		return u_names_sibling(out, size, merged_csv, &n, U_NAMES_FUNCTIONS, NULL) >= 0 ? 0 : -1;
	size_t len = strlen(merged_csv);
	if (len >= sizeof(ext) - 1 && strcmp(merged_csv + len - (sizeof(ext) - 1), ext) == 0)
		len -= sizeof(ext) - 1;
	int w = snprintf(out, size, "%.*s.functions.csv", (int)len, merged_csv);
	return w >= 0 && (size_t)w < size ? 0 : -1;
}

bool merge_one_side_warning(char *msg, size_t size, const char *kind, const char *pre,
                            const char *post, const char *consequence)
{
	bool have_pre = pre && pre[0], have_post = post && post[0];
	char q[QUOTE_PATH_MAX];

	if (have_pre == have_post)
		return false;
	snprintf(msg, size, "%s: warning: no %s file for the %s side; %s",
	         quote_path(q, have_pre ? pre : post), kind, have_pre ? "post" : "pre", consequence);
	return true;
}
