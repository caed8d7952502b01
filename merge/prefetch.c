/*
 * Rows read ahead on a thread of their own; see prefetch.h.
 */
#include "prefetch.h"

#include <stdlib.h>
#include <string.h>

/* Room for @p n rows of @p row_size bytes in @p s. Returns 0 or -1 (out of memory). */
static int room(struct prefetch_slot *s, size_t n, size_t row_size)
{
	if (n <= s->cap)
		return 0;
	void *p = realloc(s->rows, n * row_size);
	if (!p)
		return -1;
	s->rows = p;
	s->cap = n;
	return 0;
}

/* Waits for a free slot: the next to fill, or NULL when the consumer stopped. */
static struct prefetch_slot *free_slot(struct prefetch *p)
{
	pthread_mutex_lock(&p->lock);
	while (!p->stop && p->tail - p->head == PREFETCH_SLOTS)
		pthread_cond_wait(&p->changed, &p->lock);
	bool stop = p->stop;
	struct prefetch_slot *s = &p->slot[p->tail % PREFETCH_SLOTS];
	pthread_mutex_unlock(&p->lock);
	return stop ? NULL : s;
}

/* Queues the next slot, filled: @p n rows, @p r what its pull returned. */
static void publish(struct prefetch *p, size_t n, int r)
{
	struct prefetch_slot *s = &p->slot[p->tail % PREFETCH_SLOTS];

	s->n = n;
	s->r = r;
	pthread_mutex_lock(&p->lock);
	p->tail++;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/*
 * The reader's side: waits for a free slot, copies the batch (@p r: what
 * its pull returned) into it and hands it over. Returns 0, or -1 when the
 * consumer stopped (nothing queued) or memory ran out (the error queued).
 */
static int hand_over(struct prefetch *p, const void *rows, size_t n, int r)
{
	struct prefetch_slot *s = free_slot(p);

	if (!s)
		return -1;
	if (r >= 0 && room(s, n, p->src.row_size) != 0) {
		p->out_of_memory = true;
		publish(p, 0, -1);
		return -1;
	}
	if (r >= 0 && n)
		memcpy(s->rows, rows, n * p->src.row_size);
	publish(p, r >= 0 ? n : 0, r);
	return 0;
}

static void *reader_main(void *arg)
{
	struct prefetch *p = arg;

	if (p->produce) {
		int r = p->produce(p->produce_ctx, p);
		hand_over(p, NULL, 0, r == 0 ? 0 : -1);
		return NULL;
	}
	for (int r = 1; r > 0;) {
		const void *rows;
		size_t n;
		r = p->src.pull(p->src.ctx, &rows, &n);
		if (hand_over(p, rows, n, r) != 0)
			break;
	}
	return NULL;
}

void *prefetch_reserve(struct prefetch *p, size_t n)
{
	struct prefetch_slot *s = free_slot(p);

	if (!s)
		return NULL;
	if (room(s, n, p->src.row_size) != 0) {
		p->out_of_memory = true;
		return NULL;
	}
	return s->rows;
}

void prefetch_commit(struct prefetch *p, size_t n)
{
	publish(p, n, 1);
}

/* The window's pull: the next batch the thread read. */
static int pull_ahead(void *ctx, const void **rows, size_t *n)
{
	struct prefetch *p = ctx;

	pthread_mutex_lock(&p->lock);
	if (p->held) {
		p->head++; /* the caller is done with the previous batch */
		p->held = false;
		pthread_cond_broadcast(&p->changed);
	}
	while (p->tail == p->head)
		pthread_cond_wait(&p->changed, &p->lock);
	struct prefetch_slot *s = &p->slot[p->head % PREFETCH_SLOTS];
	p->held = true;
	p->ended = s->r <= 0;
	pthread_mutex_unlock(&p->lock);
	*rows = s->rows;
	*n = s->n;
	return s->r;
}

/* Starts the reader thread; @p out becomes the queue's source. Returns 0 or -1. */
static int start_thread(struct prefetch *p, struct window_source *out)
{
	if (pthread_mutex_init(&p->lock, NULL) != 0)
		return -1;
	if (pthread_cond_init(&p->changed, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		return -1;
	}
	p->threaded = thread_start(&p->thread, reader_main, p) == 0;
	if (!p->threaded) {
		pthread_cond_destroy(&p->changed);
		pthread_mutex_destroy(&p->lock);
		return -1;
	}
	out->pull = pull_ahead;
	out->ctx = p;
	return 0;
}

void prefetch_start(struct prefetch *p, const struct window_source *src, struct window_source *out)
{
	prefetch_none(p, src, out);
	start_thread(p, out);
}

void prefetch_none(struct prefetch *p, const struct window_source *src, struct window_source *out)
{
	memset(p, 0, sizeof(*p));
	p->src = *src;
	*out = *src;
}

int prefetch_start_producer(struct prefetch *p, size_t row_size, prefetch_produce_fn produce,
                            void *ctx, struct window_source *out)
{
	memset(p, 0, sizeof(*p));
	memset(out, 0, sizeof(*out));
	p->src.row_size = out->row_size = row_size;
	p->produce = produce;
	p->produce_ctx = ctx;
	return start_thread(p, out);
}

void prefetch_stop(struct prefetch *p)
{
	if (p->threaded) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		thread_join(&p->thread);
		pthread_cond_destroy(&p->changed);
		pthread_mutex_destroy(&p->lock);
		p->threaded = false;
	}
	for (int i = 0; i < PREFETCH_SLOTS; i++)
		free(p->slot[i].rows);
	memset(p->slot, 0, sizeof(p->slot));
}
