/*
 * The post layer's merge leaves its host's resident memory where it found
 * it: one session merged four times, each time on a new thread (as the
 * layer's merge thread runs inside the application), reading no file
 * ahead and its large blocks mappings of their own (mem_map_large), as
 * there, malloc_trim() after each (as there); the resident memory after
 * the fourth is within 16 MB of that after the first. The session is an
 * unpaced app's (frames 3 us apart, 20 calls a frame, 10^4 frames), whose
 * sandwich's per-thread array of held calls grows to 16 MB: were it from
 * malloc, glibc would raise its mmap threshold when it is freed, the next
 * merges' buffers would come from thread arenas, whose free tops
 * malloc_trim() keeps (60-85 MB after four merges, measured). What is
 * left in malloc itself: merge_host_malloc.
 *
 * Under ASan or TSan the merges run (for their reports) but the memory is
 * the sanitizer's allocator's, not compared.
 *
 *   test_host_memory GEN_SESSION
 */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvr.h"
#include "mem.h"
#include "merge.h"
#include "tm_common.h"

#define MERGES 4
#define ALLOWED_KB (16 * 1024)

static char pre[MERGE_PATH_MAX];
static int failed;

/* The process's resident memory in kB, or -1. */
static long rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

/* One merge of the session, its outputs removed first (on a thread of its own). */
static void *merge_once(void *arg)
{
	struct merge_siblings sib;

	(void)arg;
	if (tm_merge_session(pre, &sib) != 0)
		failed = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/xrlm-host-memory-XXXXXX", cmd[8192];
	long first = -1, last = -1;

	if (argc != 2 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: test_host_memory GEN_SESSION (and a writable /tmp)\n");
		return 2;
	}
	snprintf(cmd, sizeof(cmd), "'%s' '%s' h 10000 --calls 20 --period-ns 3000", argv[1], dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "FAIL: %s\n", cmd);
		return 1;
	}
	snprintf(pre, sizeof(pre), "%s/frames-h-pre.csv", dir);
	/* As the post layer sets them before its merge thread starts. */
	csvr_ahead_off = true;
	mem_map_large = true;
	for (int i = 0; i < MERGES && !failed; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, merge_once, NULL) != 0 || pthread_join(t, NULL) != 0)
			failed = 1;
		malloc_trim(0);
		last = rss_kb();
		if (i == 0)
			first = last;
		printf("merge %d: resident %ld kB after malloc_trim\n", i + 1, last);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: %s failed\n", cmd);
	if (failed || first < 0) {
		fprintf(stderr, "FAIL: a merge failed\n");
		return 1;
	}
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	/* The merges ran under the sanitizer; what it counts as resident is its
	 * own allocator's (ASan's quarantine keeps what was freed). */
	printf("resident memory not compared: a sanitizer's allocator, not glibc's\n");
	return 0;
#endif
	if (last - first > ALLOWED_KB) {
		fprintf(stderr, "FAIL: resident memory grew by %ld kB over %d merges (allowed %d kB)\n",
		        last - first, MERGES, ALLOWED_KB);
		return 1;
	}
	printf("resident memory after %d merges: %+ld kB from the first\n", MERGES, last - first);
	return 0;
}
