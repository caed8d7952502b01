/*
 * Session directories on the command line: `xrlm ls DIR` (the cmd_ls
 * descriptor) and `xrlm merge DIR`, which the merge subcommand hands over.
 */
#ifndef XRLM_CMD_SESSIONS_H
#define XRLM_CMD_SESSIONS_H

/*
 * `xrlm merge DIR`: merges every session of @p dir that has both per-side
 * files, no merged file and no writer still running; one line per session.
 * Returns 0, CMD_EXIT_INPUT when a session failed or DIR cannot be read,
 * CMD_EXIT_USAGE when @p dir is not a directory.
 */
int cmd_merge_dir(const char *dir);

#endif /* XRLM_CMD_SESSIONS_H */
