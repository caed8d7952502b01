/*
 * Output directory and session files; see xl_files.h.
 */
#include "xl_files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int xl_files_open_dir(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	/* mkdir -p: create each missing parent, then the directory itself. */
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -1;
	return open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void xl_files_tag(char *out, size_t out_size, pid_t pid, int64_t start_realtime_s, uint32_t n)
{
	time_t t = (time_t)start_realtime_s;
	struct tm tm;
	char stamp[32];

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (n)
		snprintf(out, out_size, "%d-%s-%u", (int)pid, stamp, n);
	else
		snprintf(out, out_size, "%d-%s", (int)pid, stamp);
}

FILE *xl_files_create(int dir_fd, const char *name)
{
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int saved = errno;
		close(fd);
		errno = saved;
		return NULL;
	}
	/* Rows are flushed by the writer every 0.5 s (xl_writer.c), not per line. */
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}
