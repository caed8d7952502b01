/* Placeholder until the merge lands; the API is fixed in merge.h. */
#include "merge.h"

#include <stddef.h>

int mrg_merge_files(const struct mrg_paths *paths, const char *out_path,
                    struct mrg_summary *summary, mrg_log_fn log, void *ctx)
{
	(void)paths; (void)out_path; (void)summary;
	if (log)
		log(ctx, "merge: not implemented yet");
	return -1;
}

int mrg_sibling_paths(const char *pre_csv, const char *post_csv, struct mrg_siblings *out)
{
	(void)pre_csv; (void)post_csv; (void)out;
	return -1;
}
