/*
 * The merge's mapped blocks (merge/mem.c, mem_map_large) grown and freed
 * by several threads at once, as the in-layer merge's threads do: each
 * block keeps its contents, and under ThreadSanitizer (label tsan) no race
 * is reported. A block grown with mremap() moved without the sanitizer
 * seeing it, and the kernel's next mapping at the range it left was taken
 * for the same block written by two threads (a false race, which stopped
 * the TSan run of layer_ctl_hostile).
 *
 * The threads share nothing but the allocator: no lock, nothing that
 * orders one thread's blocks before another's.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

#define THREADS 8
#define ROUNDS 40
#define FIRST_BYTES ((size_t)64 << 10)
#define LAST_BYTES ((size_t)2 << 20)

/* One thread's rounds: a block from 64 KiB doubled to 2 MiB, then freed. Returns NULL or a message. */
static void *grow_blocks(void *arg)
{
	unsigned char mark = (unsigned char)(size_t)arg;

	for (int r = 0; r < ROUNDS; r++) {
		unsigned char *p = mem_alloc(FIRST_BYTES);
		if (!p)
			return "out of memory";
		memset(p, mark, FIRST_BYTES);
		for (size_t n = FIRST_BYTES * 2; n <= LAST_BYTES; n *= 2) {
			unsigned char *q = mem_realloc(p, n);
			if (!q) {
				mem_free(p);
				return "out of memory";
			}
			p = q;
			if (p[0] != mark || p[n / 2 - 1] != mark) {
				mem_free(p);
				return "a block lost its contents as it grew";
			}
			memset(p + n / 2, mark, n / 2);
		}
		mem_free(p);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	int failed = 0;

	mem_map_large = true;
	for (size_t i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, grow_blocks, (void *)(i + 1)) != 0) {
			fprintf(stderr, "cannot start thread %zu\n", i);
			return 1;
		}
	for (size_t i = 0; i < THREADS; i++) {
		void *why;
		pthread_join(t[i], &why);
		if (why) {
			fprintf(stderr, "thread %zu: %s\n", i, (const char *)why);
			failed = 1;
		}
	}
	return failed;
}
