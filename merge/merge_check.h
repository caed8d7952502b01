/*
 * Do the files given to a merge belong together? Each per-side file names
 * its recording session twice: in its `# session=<tag>` header line
 * (files written since that line exists) and in its name
 * (`frames-<tag>-<side>.csv`, `gpu-<tag>-<side>.csv`). The merge and
 * `xrlm trace` compare every file with the first they read and refuse files
 * of another session.
 */
#ifndef XRLM_MERGE_CHECK_H
#define XRLM_MERGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* One file of a merge. */
struct merge_check_file {
	const char *path;
	const char *session; /* its `# session=` value; "" when it has none */
};

/*
 * Compares the session of @p other with that of @p ref: by their
 * `# session=` lines when both have one, else by the tags in their names
 * when both follow the naming scheme, else not at all (nothing to compare).
 * Returns true when they may be used together; false with a message for
 * the error line ("<other>: error: ...") in @p msg.
 */
bool merge_check_same_session(const struct merge_check_file *ref,
                              const struct merge_check_file *other, char *msg, size_t msg_size);

#endif /* XRLM_MERGE_CHECK_H */
