/*
 * Rows formatted while the sandwich runs; see merge_early.h.
 */
#include "merge_early.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "spill.h" /* spill_pwrite_all() */
#include "workers.h"

/* How long a thread waits for the sandwich before it looks again. */
#define EARLY_WAIT_NS 20000

/* Rows [first, last) of block @p b of @p e. */
static void block_rows(const struct merge_early *e, size_t b, size_t *first, size_t *last)
{
	*first = b * MERGE_EARLY_BLOCK_ROWS;
	*last = e->rows - *first < MERGE_EARLY_BLOCK_ROWS ? e->rows : *first + MERGE_EARLY_BLOCK_ROWS;
}

/* Waits EARLY_WAIT_NS for the sandwich to make more frames final, or for merge_early_final(). */
static void wait_final(struct merge_early *e)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += EARLY_WAIT_NS;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&e->lock);
	if (!e->awake)
		pthread_cond_timedwait(&e->wake, &e->lock, &until);
	pthread_mutex_unlock(&e->lock);
}

/* Formats block @p b of @p e, waiting for its frames. Returns 0, or -1 when it cannot be. */
static int format_block(struct merge_early *e, size_t b)
{
	size_t first, last;
	block_rows(e, b, &first, &last);
	size_t cap = (last - first) * MERGE_EARLY_ROW_BYTES + MERGED_ROW_MAX, used = 0;
	char *buf = malloc(cap);

	for (size_t i = first; buf && i < last && !atomic_load(&e->abandon);) {
		size_t more;
		int state;
		i = e->fill(e->ctx, i, last, buf + used, cap - used, &more, &state);
		used += more;
		if (state < 0)
			break;
		if (state == 0) {
			wait_final(e);
			continue;
		}
		if (i == last) {
			e->block[b].buf = buf;
			e->block[b].len = used;
			atomic_store_explicit(&e->block[b].done, true, memory_order_release);
			return 0;
		}
		/* Longer rows than assumed: more room. */
		char *p = realloc(buf, cap * 2);
		if (!p)
			break;
		buf = p;
		cap *= 2;
	}
	free(buf);
	return -1;
}

static void *early_main(void *arg)
{
	struct merge_early *e = arg;

	for (;;) {
		size_t b = atomic_fetch_add(&e->next, 1);
		if (b >= e->blocks || format_block(e, b) != 0)
			break;
	}
	return NULL;
}

void merge_early_start(struct merge_early *e, size_t rows, merge_early_fill_fn *fill, void *ctx)
{
	const size_t most = MERGE_EARLY_BYTES / MERGE_EARLY_ROW_BYTES;

	*e = (struct merge_early){.fill = fill, .ctx = ctx, .rows = rows < most ? rows : most};
	e->blocks = (e->rows + MERGE_EARLY_BLOCK_ROWS - 1) / MERGE_EARLY_BLOCK_ROWS;
	e->block = e->blocks ? calloc(e->blocks, sizeof(*e->block)) : NULL;
	if (!e->block)
		return;
	pthread_condattr_t attr;
	if (pthread_condattr_init(&attr) != 0)
		return;
	bool cond = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
	            pthread_cond_init(&e->wake, &attr) == 0;
	pthread_condattr_destroy(&attr);
	if (!cond)
		return;
	if (pthread_mutex_init(&e->lock, NULL) != 0) {
		pthread_cond_destroy(&e->wake);
		return;
	}
	e->started = true;
	for (unsigned i = 0; i < MERGE_EARLY_THREADS; i++)
		if (thread_start(&e->thread[e->threads], early_main, e) == 0)
			e->threads++;
}

/* Wakes the threads waiting for frames. */
static void wake_all(struct merge_early *e)
{
	if (!e->started)
		return;
	pthread_mutex_lock(&e->lock);
	e->awake = true;
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
}

/* No block is taken from now on. */
static void take_no_more(struct merge_early *e)
{
	atomic_store(&e->next, e->blocks);
}

size_t merge_early_final(struct merge_early *e)
{
	wake_all(e);
	return e->threads > 0 ? e->rows : 0;
}

size_t merge_early_finish(struct merge_early *e, bool keep)
{
	if (!e->finished) {
		if (!keep) {
			take_no_more(e);
			atomic_store(&e->abandon, true);
		}
		wake_all(e);
		for (unsigned i = 0; i < e->threads; i++)
			thread_join(&e->thread[i]);
		if (e->started) {
			pthread_cond_destroy(&e->wake);
			pthread_mutex_destroy(&e->lock);
		}
		e->finished = true;
	}
	if (!keep)
		return 0;
	size_t b = 0;
	while (b < e->blocks && atomic_load(&e->block[b].done))
		b++;
	return b * MERGE_EARLY_BLOCK_ROWS < e->rows ? b * MERGE_EARLY_BLOCK_ROWS : e->rows;
}

int merge_early_give(const struct merge_early *e, size_t rows, struct merged_rows *r)
{
	size_t b = 0;

	merged_write_rows_cut(r, e->written_end);
	/* Written ahead where they belong (after the summary, whatever r's
	 * file holds now), and rows that go: not those of a broken bound. */
	size_t ahead_rows = e->written * MERGE_EARLY_BLOCK_ROWS < e->rows
	                        ? e->written * MERGE_EARLY_BLOCK_ROWS : e->rows;
	if (e->written > 0 && !e->write_error && e->written_at == (off_t)r->o->len &&
	    ahead_rows <= rows) {
		b = e->written;
		merged_write_rows_ahead(r, e->written_bytes);
	}
	for (; b * MERGE_EARLY_BLOCK_ROWS < rows; b++)
		if (merged_write_rows_prefix(r, e->block[b].buf, e->block[b].len) != 0)
			return -1;
	return 0;
}

/* The sandwich is done, or the writes are to stop. */
static bool write_over(struct merge_early *e)
{
	if (atomic_load(&e->write_stop))
		return true;
	pthread_mutex_lock(&e->lock);
	bool awake = e->awake;
	pthread_mutex_unlock(&e->lock);
	return awake;
}

/* Waits for block @p b. Returns true once it is formatted, false when it will not be in time. */
static bool wait_block(struct merge_early *e, size_t b)
{
	for (;;) {
		if (atomic_load_explicit(&e->block[b].done, memory_order_acquire))
			return true;
		if (write_over(e))
			return false;
		wait_final(e);
	}
}

void merge_early_write(struct merge_early *e, int fd, merge_early_at_fn *at, void *ctx)
{
	sigset_t xfsz;
	off_t first;
	int known;

	if (!e->started)
		return;
	while ((known = at(ctx, &first)) == 0 && !write_over(e))
		wait_final(e);
	if (known != 1)
		return;
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, NULL);
	e->written_at = first;
	for (size_t b = 0; b < e->blocks && wait_block(e, b); b++) {
		const struct merge_early_block *k = &e->block[b];
		off_t from = first + (off_t)e->written_bytes;
		e->written_end = from + (off_t)k->len;
		if (spill_pwrite_all(fd, k->buf, k->len, from, &e->write_error) != 0)
			return;
		e->written++;
		e->written_bytes += k->len;
	}
}

void merge_early_write_stop(struct merge_early *e)
{
	if (!e->started)
		return;
	atomic_store(&e->write_stop, true);
	/* The writer may wait in wait_final(): a wake-up that leaves awake as it is. */
	pthread_mutex_lock(&e->lock);
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
}

bool merge_early_wanted(uint64_t frames)
{
	return workers_max() >= MERGE_EARLY_MIN_WORKERS &&
	       frames <= MERGE_EARLY_BYTES / MERGE_EARLY_ROW_BYTES;
}

size_t merge_early_bytes(uint64_t frames)
{
	return merge_early_wanted(frames) ? (size_t)frames * MERGE_EARLY_ROW_BYTES : 0;
}

void merge_early_destroy(struct merge_early *e)
{
	merge_early_finish(e, false);
	for (size_t b = 0; b < e->blocks; b++)
		free(e->block[b].buf);
	free(e->block);
	e->block = NULL;
	e->blocks = 0;
}
