/*
 * The post layer's merge leaves its host's malloc as it found it, so that
 * what a merge holds does not depend on when it runs: four merges of an
 * unpaced app's session (10^4 frames, 20 calls a frame), each on a new
 * thread as the layer's merge thread runs them, with mem_map_large and no
 * read-ahead as there, malloc_trim() after each; then
 *  - glibc's arenas (mallinfo2's arena: every arena's memory, in use or
 *    free) hold at most 2 MiB more than before the first merge: a merge
 *    whose large blocks came from the arenas left each thread's arena
 *    with a free top malloc_trim() keeps, ~25 MB more a merge here;
 *  - a 1 MiB block is still mmapped by malloc: glibc's mmap threshold was
 *    not raised (freeing a block it mmapped raises it, for the process,
 *    to that block's size, and its trim threshold to twice that; from
 *    then on the merges' blocks came from the arenas).
 * Counted in bytes by glibc, not sampled: no timing, no noise. Checked
 * once at the end, since the probe's own free raises the threshold. Then
 * the session is merged once more without mem_map_large: the files are
 * the same bytes (the mapped blocks' contents were kept).
 *
 * Under ASan or TSan the merges run (for their reports) but the memory is
 * the sanitizer's allocator's, not compared.
 *
 *   test_host_malloc GEN_SESSION
 */
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvr.h"
#include "mem.h"
#include "merge.h"
#include "tm_common.h"

#define MERGES 4
#define ALLOWED_ARENA_BYTES ((size_t)2 << 20)
#define PROBE_BYTES ((size_t)1 << 20)

static char pre[MERGE_PATH_MAX];
static struct merge_siblings sib;
static int failed;

/* One merge of the session, its outputs removed first (on a thread of its own). */
static void *merge_once(void *arg)
{
	(void)arg;
	if (tm_merge_session(pre, &sib) != 0)
		failed = 1;
	return NULL;
}

/* Are the files @p a and @p b the same bytes? */
static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	int ca = 0, cb = 0;

	while (same && ca != EOF) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * Merges once more, without mem_map_large, and compares the files with
 * the last merge's. Returns 1 when they are the same, else 0.
 */
static int same_as_unmapped(const char *dir)
{
	char merged[MERGE_PATH_MAX + 32], functions[MERGE_PATH_MAX + 32];

	snprintf(merged, sizeof(merged), "%s/mapped-merged.csv", dir);
	snprintf(functions, sizeof(functions), "%s/mapped-functions.csv", dir);
	if (rename(sib.merged_csv, merged) != 0 || rename(sib.functions_csv, functions) != 0) {
		fprintf(stderr, "FAIL: the merge's files are missing\n");
		return 0;
	}
	mem_map_large = false;
	merge_once(NULL);
	if (failed || !same_bytes(merged, sib.merged_csv) ||
	    !same_bytes(functions, sib.functions_csv)) {
		fprintf(stderr, "FAIL: a merge with mapped blocks wrote other files than one without\n");
		return 0;
	}
	printf("the files are the same bytes without mem_map_large\n");
	return 1;
}

/* Makes the session in a new directory @p dir. Returns 0 or -1. */
static int make_session(const char *gen, char *dir)
{
	char cmd[8192];

	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s' '%s' h 10000 --calls 20 --period-ns 3000", gen, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "FAIL: %s\n", cmd);
		return -1;
	}
	snprintf(pre, sizeof(pre), "%s/frames-h-pre.csv", dir);
	return 0;
}

static void remove_session(const char *dir)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: %s failed\n", cmd);
}

/* Does malloc still map a block of PROBE_BYTES? (Its free raises the threshold.) */
static int probe_mapped(void)
{
	struct mallinfo2 before = mallinfo2();
	void *volatile p = malloc(PROBE_BYTES);
	struct mallinfo2 after = mallinfo2();
	int mapped = p && after.hblkhd > before.hblkhd;

	free(p);
	return mapped;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/xrlm-host-malloc-XXXXXX";

	if (argc != 2 || make_session(argv[1], dir) != 0) {
		fprintf(stderr, "usage: test_host_malloc GEN_SESSION (and a writable /tmp)\n");
		return 2;
	}
	/* As the post layer sets them before its merge thread starts. */
	csvr_ahead_off = true;
	mem_map_large = true;
	size_t first = mallinfo2().arena, last = first;
	for (int i = 0; i < MERGES && !failed; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, merge_once, NULL) != 0 || pthread_join(t, NULL) != 0)
			failed = 1;
		malloc_trim(0);
		last = mallinfo2().arena;
		printf("merge %d: malloc's arenas hold %zu kB (%zu kB before the first)\n", i + 1,
		       last >> 10, first >> 10);
	}
	if (failed) {
		remove_session(dir);
		fprintf(stderr, "FAIL: a merge failed\n");
		return 1;
	}
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	printf("malloc not checked: a sanitizer's allocator, not glibc's\n");
	int same = same_as_unmapped(dir);
	remove_session(dir);
	return same ? 0 : 1;
#endif
	int ok = 1;
	if (last > first + ALLOWED_ARENA_BYTES) {
		fprintf(stderr, "FAIL: malloc's arenas grew by %zu kB over %d merges (allowed %zu kB)\n",
		        (last - first) >> 10, MERGES, ALLOWED_ARENA_BYTES >> 10);
		ok = 0;
	}
	if (!probe_mapped()) {
		fprintf(stderr, "FAIL: a %zu kB block is no longer mmapped by malloc: the merges "
		        "raised glibc's mmap threshold\n", PROBE_BYTES >> 10);
		ok = 0;
	}
	if (ok)
		printf("malloc's arenas %+ld kB over %d merges; its mmap threshold as it was\n",
		       ((long)last - (long)first) / 1024, MERGES);
	ok &= same_as_unmapped(dir);
	remove_session(dir);
	return ok ? 0 : 1;
}
