/*
 * Thread and descriptor counts from /proc; see app_proc.h.
 */
#include "app_proc.h"

#include <dirent.h>
#include <string.h>

/* Entries of @p path other than "." and "..", or -1. */
static int count_entries(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

bool app_proc_counts(unsigned *threads, unsigned *fds)
{
	int t = count_entries("/proc/self/task");
	int f = count_entries("/proc/self/fd");
	if (t < 0 || f < 1)
		return false;
	*threads = (unsigned)t;
	*fds = (unsigned)f - 1; /* opendir's own descriptor is listed too */
	return true;
}
