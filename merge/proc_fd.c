/*
 * What another process holds open; see proc_fd.h.
 */
#include "proc_fd.h"

#include <dirent.h>
#include <stdio.h>

int proc_fd_open(pid_t pid, const struct stat *files, int n, const struct stat *dir)
{
	char path[64];
	struct dirent *de;
	struct stat st;
	unsigned found = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	while (!(found & PROC_FD_FILE) && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, 0) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (st.st_dev == files[i].st_dev && st.st_ino == files[i].st_ino)
				found |= PROC_FD_FILE;
		if (dir && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino)
			found |= PROC_FD_DIR;
	}
	closedir(d);
	return (int)found;
}
