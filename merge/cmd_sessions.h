/*
 * Session directories on the command line: `xrlm ls DIR` (the cmd_ls
 * descriptor) and `xrlm merge DIR`, which the merge subcommand hands over.
 */
#ifndef XRLM_CMD_SESSIONS_H
#define XRLM_CMD_SESSIONS_H

#include <stdbool.h>

/* The options of `xrlm merge` that `xrlm merge DIR` applies to every session. */
struct cmd_merge_dir_options {
	bool no_gpu;   /* --no-gpu: the sessions' GPU files are left out */
	bool no_calls; /* --no-calls: their calls files are left out */
};

/*
 * `xrlm merge DIR`: merges every session of @p dir that has both per-side
 * files, no merged file and no writer still running, as @p opts says; one
 * line per session. Returns 0, CMD_EXIT_INPUT when a session failed or DIR
 * cannot be read, CMD_EXIT_USAGE when @p dir is not a directory.
 */
int cmd_merge_dir(const char *dir, const struct cmd_merge_dir_options *opts);

#endif /* XRLM_CMD_SESSIONS_H */
