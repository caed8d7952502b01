/*
 * A calls file read into a bounded queue; see calls_queue.h.
 */
#include "calls_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hands the reader's filled block to the consumer; waits while the ring is full. */
static int push_block(struct calls_queue *q)
{
	pthread_mutex_lock(&q->lock);
	while (q->count == CALLS_QUEUE_BLOCKS && !q->cancelled)
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->cancelled) {
		pthread_mutex_unlock(&q->lock);
		return -1;
	}
	q->ring[(q->head + q->count) % CALLS_QUEUE_BLOCKS] = q->fill;
	q->count++;
	q->fill = q->spares ? q->spare[--q->spares] : NULL;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

static int reader_row(void *ctx, const struct calls_row *row, char *msg, size_t msg_size)
{
	struct calls_queue *q = ctx;

	if (!q->fill) {
		snprintf(msg, msg_size, "internal error: no free block");
		return -1;
	}
	q->fill->rows[q->fill->len++] = *row;
	if (q->fill->len == CALLS_QUEUE_BLOCK && push_block(q) != 0) {
		snprintf(msg, msg_size, "reading stopped");
		return -1;
	}
	return 0;
}

static void *reader(void *arg)
{
	struct calls_queue *q = arg;
	int ret = calls_read(q->path, q->side, &q->meta, &q->diag, reader_row, q);

	if (ret == 0 && q->fill && q->fill->len > 0 && push_block(q) != 0)
		ret = -1;
	pthread_mutex_lock(&q->lock);
	q->ret = ret;
	q->done = true;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int calls_queue_start(struct calls_queue *q, const char *path, const char *side)
{
	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->changed, NULL);
	q->path = path;
	q->side = side;
	for (size_t i = 0; i < CALLS_QUEUE_BLOCKS + 2; i++) {
		struct calls_queue_block *b = malloc(sizeof(*b));
		if (!b)
			break;
		b->len = 0;
		q->spare[q->spares++] = b;
	}
	if (q->spares < CALLS_QUEUE_BLOCKS + 2) {
		snprintf(q->diag.error, sizeof(q->diag.error), "%s: error: out of memory", path);
		q->diag.failed = true;
		return -1;
	}
	q->fill = q->spare[--q->spares];
	if (pthread_create(&q->thread, NULL, reader, q) != 0) {
		snprintf(q->diag.error, sizeof(q->diag.error), "%s: error: cannot start its reader "
		         "thread", path);
		q->diag.failed = true;
		return -1;
	}
	q->started = true;
	return 0;
}

const struct calls_row *calls_queue_peek(struct calls_queue *q)
{
	if (q->cur && q->cur_pos < q->cur->len)
		return &q->cur->rows[q->cur_pos];
	pthread_mutex_lock(&q->lock);
	if (q->cur) {
		q->cur->len = 0;
		q->spare[q->spares++] = q->cur;
		q->cur = NULL;
	}
	while (q->count == 0 && !q->done)
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->count > 0) {
		q->cur = q->ring[q->head];
		q->head = (q->head + 1) % CALLS_QUEUE_BLOCKS;
		q->count--;
		q->cur_pos = 0;
		pthread_cond_broadcast(&q->changed);
	}
	pthread_mutex_unlock(&q->lock);
	return q->cur ? &q->cur->rows[0] : NULL;
}

void calls_queue_pop(struct calls_queue *q)
{
	q->cur_pos++;
}

int calls_queue_finish(struct calls_queue *q)
{
	if (q->started) {
		pthread_mutex_lock(&q->lock);
		q->cancelled = true;
		pthread_cond_broadcast(&q->changed);
		pthread_mutex_unlock(&q->lock);
		pthread_join(q->thread, NULL);
		q->started = false;
	}
	free(q->fill);
	free(q->cur);
	q->fill = q->cur = NULL;
	for (size_t i = 0; i < q->count; i++)
		free(q->ring[(q->head + i) % CALLS_QUEUE_BLOCKS]);
	q->count = 0;
	while (q->spares)
		free(q->spare[--q->spares]);
	pthread_cond_destroy(&q->changed);
	pthread_mutex_destroy(&q->lock);
	return q->diag.failed ? -1 : q->ret;
}

void calls_queue_destroy(struct calls_queue *q)
{
	side_meta_destroy(&q->meta);
}
