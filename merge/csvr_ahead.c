/*
 * A file read ahead in segments of whole lines; see csvr_ahead.h.
 */
#include "csvr_ahead.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int csvr_ahead_rows(struct csvr_seg *seg, size_t row_size, size_t n)
{
	if (n <= seg->rows_cap)
		return 0;
	size_t cap = seg->rows_cap ? seg->rows_cap * 2 : 1024;
	while (cap < n)
		cap *= 2;
	void *p = realloc(seg->rows, cap * row_size);
	if (!p)
		return -1;
	seg->rows = p;
	seg->rows_cap = cap;
	return 0;
}

/*
 * Reads into @p seg after its first seg->len bytes, up to @p want bytes or
 * the end of the file: the bytes read before the thread's first.
 */
static void fill(struct csvr_ahead *a, struct csvr_seg *seg, size_t want)
{
	size_t got = a->first_len - a->first_used < want ? a->first_len - a->first_used : want;

	memcpy(seg->buf + seg->len, a->first + a->first_used, got);
	a->first_used += got;
	seg->len += got;
	while (got < want) {
		ssize_t n = read(a->fd, seg->buf + seg->len, want - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			seg->error = errno;
			seg->eof = true;
			return;
		}
		if (n == 0) {
			seg->eof = true;
			return;
		}
		seg->len += (size_t)n;
		got += (size_t)n;
	}
}

/*
 * Fills @p seg: the tail @p prev carried over, then the file's next bytes,
 * cut after the last newline unless the file ends here or no newline came.
 */
static void make_segment(struct csvr_ahead *a, struct csvr_seg *seg, const struct csvr_seg *prev)
{
	seg->len = 0;
	seg->eof = false;
	seg->error = 0;
	seg->rows_used = 0;
	if (prev && prev->tail_carried) {
		seg->len = prev->len - prev->lines_end;
		memcpy(seg->buf, prev->buf + prev->lines_end, seg->len);
	}
	fill(a, seg, a->seg_bytes);
	const char *nl = seg->len ? memrchr(seg->buf, '\n', seg->len) : NULL;
	seg->lines_end = nl ? (size_t)(nl + 1 - seg->buf) : 0;
	/* A line longer than a segment goes to the caller in pieces, as tails. */
	seg->tail_carried = !seg->eof && seg->lines_end > 0 && seg->lines_end < seg->len;
}

/* Cuts the file into segments, in order, as slots are given back. */
static void *cutter_main(void *arg)
{
	struct csvr_ahead *a = arg;
	const struct csvr_seg *prev = NULL;

	for (;;) {
		pthread_mutex_lock(&a->lock);
		while (!a->stop && a->tail - a->head == CSVR_AHEAD_SEGS)
			pthread_cond_wait(&a->changed, &a->lock);
		bool stop = a->stop;
		struct csvr_seg *seg = &a->seg[a->tail % CSVR_AHEAD_SEGS];
		pthread_mutex_unlock(&a->lock);
		if (stop)
			return NULL;

		make_segment(a, seg, prev);
		seg->parsed = false;
		pthread_mutex_lock(&a->lock);
		a->tail++;
		a->cut_all = seg->eof;
		pthread_cond_broadcast(&a->changed);
		pthread_mutex_unlock(&a->lock);
		if (seg->eof)
			return NULL;
		prev = seg;
	}
}

struct worker_arg {
	struct csvr_ahead *a;
	void *ctx;
};

/* Parses the segments cut, the next one not yet taken each time, until the last. */
static void *worker_main(void *arg)
{
	struct csvr_ahead *a = ((struct worker_arg *)arg)->a;
	void *ctx = ((struct worker_arg *)arg)->ctx;

	free(arg);
	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->stop && a->parse_next == a->tail && !a->cut_all)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->stop || a->parse_next == a->tail)
			break;
		struct csvr_seg *seg = &a->seg[a->parse_next++ % CSVR_AHEAD_SEGS];
		pthread_mutex_unlock(&a->lock);
		a->parse(ctx, seg);
		pthread_mutex_lock(&a->lock);
		seg->parsed = true;
		pthread_cond_broadcast(&a->changed);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void free_segments(struct csvr_ahead *a)
{
	for (int i = 0; i < CSVR_AHEAD_SEGS; i++) {
		free(a->seg[i].buf);
		free(a->seg[i].rows);
	}
	memset(a->seg, 0, sizeof(a->seg));
}

/* Starts worker @p k with @p ctx. Returns 0 or -1. */
static int start_worker(struct csvr_ahead *a, unsigned k, void *ctx)
{
	struct worker_arg *w = malloc(sizeof(*w));

	if (!w)
		return -1;
	*w = (struct worker_arg){a, ctx};
	if (thread_start(&a->worker[k], worker_main, w) != 0) {
		free(w);
		return -1;
	}
	return 0;
}

int csvr_ahead_start(struct csvr_ahead *a, const char *first, size_t first_len, int fd,
                     size_t seg_bytes, csvr_ahead_parse_fn parse,
                     void *const ctx[CSVR_AHEAD_WORKERS])
{
	memset(a, 0, sizeof(*a));
	a->first = first;
	a->first_len = first_len;
	a->fd = fd;
	a->seg_bytes = seg_bytes;
	a->parse = parse;
	/* A carried tail is shorter than a segment: twice its size holds both. */
	for (int i = 0; i < CSVR_AHEAD_SEGS; i++) {
		a->seg[i].buf = malloc(2 * seg_bytes);
		if (!a->seg[i].buf) {
			free_segments(a);
			return -1;
		}
	}
	if (pthread_mutex_init(&a->lock, NULL) != 0) {
		free_segments(a);
		return -1;
	}
	if (pthread_cond_init(&a->changed, NULL) != 0) {
		pthread_mutex_destroy(&a->lock);
		free_segments(a);
		return -1;
	}
	if (thread_start(&a->cutter, cutter_main, a) != 0) {
		pthread_cond_destroy(&a->changed);
		pthread_mutex_destroy(&a->lock);
		free_segments(a);
		return -1;
	}
	/* One worker is enough to go on with; the others only add speed. */
	for (unsigned k = 0; k < CSVR_AHEAD_WORKERS && start_worker(a, k, ctx[k]) == 0; k++)
		a->workers++;
	if (a->workers == 0) {
		csvr_ahead_stop(a);
		return -1;
	}
	return 0;
}

const struct csvr_seg *csvr_ahead_next(struct csvr_ahead *a)
{
	pthread_mutex_lock(&a->lock);
	if (a->held) {
		a->head++;
		a->held = false;
		pthread_cond_broadcast(&a->changed);
	}
	while (a->tail == a->head || !a->seg[a->head % CSVR_AHEAD_SEGS].parsed)
		pthread_cond_wait(&a->changed, &a->lock);
	const struct csvr_seg *seg = &a->seg[a->head % CSVR_AHEAD_SEGS];
	a->held = true;
	pthread_mutex_unlock(&a->lock);
	return seg;
}

void csvr_ahead_stop(struct csvr_ahead *a)
{
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	thread_join(&a->cutter);
	for (unsigned k = 0; k < a->workers; k++)
		thread_join(&a->worker[k]);
	pthread_cond_destroy(&a->changed);
	pthread_mutex_destroy(&a->lock);
	free_segments(a);
}
