/*
 * What another process holds open, from /proc/<pid>/fd: whether a
 * recording's writer or a merge is still at work on a file, told apart
 * from a process that only has its pid again.
 */
#ifndef XRLM_PROC_FD_H
#define XRLM_PROC_FD_H

#include <sys/stat.h>
#include <sys/types.h>

/* What proc_fd_open() found open. */
#define PROC_FD_FILE 1u /* one of the files */
#define PROC_FD_DIR 2u  /* the directory */

/*
 * What process @p pid has open of @p files[0..n-1] and of directory @p dir
 * (may be NULL), by device and inode: PROC_FD_FILE and PROC_FD_DIR bits,
 * or -1 when its descriptors cannot be read (another user's, or gone).
 */
int proc_fd_open(pid_t pid, const struct stat *files, int n, const struct stat *dir);

#endif /* XRLM_PROC_FD_H */
