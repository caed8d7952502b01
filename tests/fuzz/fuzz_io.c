/*
 * In-memory input files and the private output directory; see fuzz_io.h.
 */
#include "fuzz_io.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char tmp_dir[FUZZ_PATH_MAX];

void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}

void fuzz_file_init(struct fuzz_file *f, const char *name)
{
	f->fd = memfd_create(name, MFD_CLOEXEC);
	if (f->fd < 0)
		fuzz_fail("memfd_create failed");
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

void fuzz_file_set(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(f->fd, 0) != 0)
		fuzz_fail("ftruncate failed");
	while (off < size) {
		ssize_t n = pwrite(f->fd, data + off, size - off, (off_t)off);
		if (n <= 0)
			fuzz_fail("pwrite to memfd failed");
		off += (size_t)n;
	}
}

/* Removes the directory's entries (no subdirectories are ever made). */
static void remove_tmp_dir(void)
{
	DIR *d = opendir(tmp_dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	rmdir(tmp_dir);
}

const char *fuzz_tmp_dir(void)
{
	if (tmp_dir[0])
		return tmp_dir;
	const char *base = getenv("TMPDIR");
	if (!base || !base[0])
		base = "/tmp";
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/xrlm-fuzz-XXXXXX", base);
	if (!mkdtemp(tmp_dir))
		fuzz_fail("mkdtemp failed");
	atexit(remove_tmp_dir);
	return tmp_dir;
}

void fuzz_tmp_path(char *out, size_t size, const char *name)
{
	if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0)
		fuzz_fail("output name would leave the temporary directory");
	if ((size_t)snprintf(out, size, "%s/%s", fuzz_tmp_dir(), name) >= size)
		fuzz_fail("output path too long");
}

int fuzz_tmp_count(void)
{
	DIR *d = opendir(fuzz_tmp_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		fuzz_fail("temporary directory vanished");
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

size_t fuzz_part_end(const uint8_t *data, size_t size, size_t from, size_t *next)
{
	static const char sep[] = "====\n";
	const size_t n = sizeof(sep) - 1;

	for (size_t i = from; i + n <= size; i++) {
		if ((i == from || data[i - 1] == '\n') && memcmp(data + i, sep, n) == 0) {
			*next = i + n;
			return i;
		}
	}
	*next = size;
	return size;
}
