/*
 * Replays inputs through a fuzz entry point without libFuzzer, so the
 * regression inputs run as ordinary tests with any compiler:
 *   fuzz_replay_<target> FILE_OR_DIR...
 * Every regular file named (or found directly in a named directory) is
 * passed to LLVMFuzzerTestOneInput once. A finding aborts the process.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (size == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *p = realloc(data, cap);
			if (!p) {
				free(data);
				fclose(f);
				return -1;
			}
			data = p;
		}
		size_t n = fread(data + size, 1, cap - size, f);
		if (n == 0)
			break;
		size += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static int replay_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	int ret = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL && ret == 0) {
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		ret = replay_file(path);
		(*count)++;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	int count = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		int ret = S_ISDIR(st.st_mode) ? replay_dir(argv[i], &count) : replay_file(argv[i]);
		if (!S_ISDIR(st.st_mode))
			count++;
		if (ret != 0)
			return 1;
	}
	/* An empty run would pass without testing anything. */
	if (count == 0) {
		fprintf(stderr, "fuzz_replay: no inputs\n");
		return 1;
	}
	printf("fuzz_replay: %d inputs replayed\n", count);
	return 0;
}
