/*
 * A calls file read ahead on a thread; see calls_queue.h.
 */
#include "calls_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls_frames.h"
#include "quote.h"

static int check_frame_id(struct calls_queue *q, uint64_t id, char *msg, size_t msg_size)
{
	if (!q->have_frame) {
		q->have_frame = true;
		q->first_frame = id;
	}
	uint64_t span = id > q->first_frame ? id - q->first_frame : q->first_frame - id;
	if (span <= CALLS_FRAME_SPAN)
		return 0;
	snprintf(msg, msg_size, "frame_id %llu is out of step with the first one (%llu)",
	         (unsigned long long)id, (unsigned long long)q->first_frame);
	return -1;
}

/*
 * The batch being filled: a queue slot, reserved at a batch's first row
 * (the rows are written where the sandwich will read them: a copy of each
 * batch cost the reader, which sets a merge's pace, ~10 % of its time).
 */
static struct calls_qrow *batch(struct calls_queue *q, char *msg, size_t msg_size)
{
	if (q->fill)
		return q->fill;
	q->fill = prefetch_reserve(&q->ahead, CALLS_QUEUE_BLOCK);
	if (!q->fill)
		snprintf(msg, msg_size, q->ahead.out_of_memory ? "out of memory" : "reading stopped");
	return q->fill;
}

/* Queues the batch being filled, if it has rows. */
static void hand_over(struct calls_queue *q)
{
	if (q->fill_len > 0)
		prefetch_commit(&q->ahead, q->fill_len);
	q->fill = NULL;
	q->fill_len = 0;
}

/* calls_read_fn on the reader thread: rows gathered into a batch, handed over when full. */
static int reader_row(void *ctx, const struct calls_row *row, char *msg, size_t msg_size)
{
	struct calls_queue *q = ctx;
	struct calls_qrow *fill = batch(q, msg, msg_size);

	if (!fill)
		return -1;
	struct calls_qrow *c = &fill[q->fill_len];
	if (q->check_frames && check_frame_id(q, row->frame_id, msg, msg_size) != 0)
		return -1;
	c->fn_id = row->fn_id;
	c->thread_id = row->thread_id;
	c->t_entry_ns = row->t_entry_ns;
	c->t_exit_ns = row->t_exit_ns;
	c->frame_id = row->frame_id;
	c->result = row->result;
	if (q->floor == CALLS_FLOOR_AFTER) {
		calls_order_note(&q->order, row->t_entry_ns);
		c->floor = calls_order_floor(&q->order);
	} else {
		c->floor = calls_order_floor_from(&q->order, row->t_entry_ns);
		calls_order_note(&q->order, row->t_entry_ns);
	}
	if (++q->fill_len == CALLS_QUEUE_BLOCK)
		hand_over(q);
	return 0;
}

/* prefetch_produce_fn: the whole file, then its last partial batch. */
static int reader(void *ctx, struct prefetch *p)
{
	struct calls_queue *q = ctx;
	int ret = calls_read(q->path, q->side, &q->meta, &q->diag, &q->names, reader_row, q);

	(void)p;
	if (ret == 0)
		hand_over(q);
	q->ret = ret;
	return ret;
}

int calls_queue_start(struct calls_queue *q, const char *path, const char *side,
                      enum calls_floor floor, bool check_frames)
{
	char qp[QUOTE_PATH_MAX];

	memset(q, 0, sizeof(*q));
	q->path = path;
	q->side = side;
	q->floor = floor;
	calls_order_init(&q->order);
	q->check_frames = check_frames;
	if (calls_names_create(&q->names, CALLS_NAMES_FILE_MAX) != 0) {
		snprintf(q->diag.error, sizeof(q->diag.error), "%s: error: out of memory",
		         quote_path(qp, path));
		q->diag.failed = true;
		return -1;
	}
	if (prefetch_start_producer(&q->ahead, sizeof(struct calls_qrow), reader, q, &q->src) != 0) {
		snprintf(q->diag.error, sizeof(q->diag.error), "%s: error: cannot start its reader "
		         "thread", quote_path(qp, path));
		q->diag.failed = true;
		return -1;
	}
	q->started = true;
	return 0;
}

const struct calls_qrow *calls_queue_next_batch(struct calls_queue *q)
{
	while (q->cur_pos == q->cur_len) {
		if (q->at_end)
			return NULL;
		const void *rows;
		int r = q->src.pull(q->src.ctx, &rows, &q->cur_len);
		q->cur = rows;
		q->cur_pos = 0;
		if (r <= 0) {
			q->at_end = true;
			q->cur_len = r < 0 ? 0 : q->cur_len;
		}
	}
	return &q->cur[q->cur_pos];
}

int calls_queue_finish(struct calls_queue *q)
{
	if (q->started) {
		prefetch_stop(&q->ahead);
		q->started = false;
	}
	q->fill = NULL; /* a slot of the queue stopped above */
	calls_names_destroy(&q->names);
	q->cur = NULL;
	q->cur_len = q->cur_pos = 0;
	return q->diag.failed ? -1 : q->ret;
}

void calls_queue_destroy(struct calls_queue *q)
{
	side_meta_destroy(&q->meta);
}
