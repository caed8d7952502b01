/*
 * User marks; see xl_marks.h.
 */
#include "xl_marks.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define BOTH_SIDES 3u

void xl_marks_init(struct xl_marks *m)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->next_seq = 1;
}

void xl_marks_fini(struct xl_marks *m)
{
	pthread_mutex_destroy(&m->lock);
}

uint64_t xl_marks_add(struct xl_marks *m, uint32_t session_id, uint64_t t_ns, const char *text)
{
	uint64_t seq = 0;

	pthread_mutex_lock(&m->lock);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		struct xl_mark *k = &m->slots[i];
		if (k->seq)
			continue;
		seq = m->next_seq++;
		*k = (struct xl_mark){.seq = seq, .t_ns = t_ns, .session_id = session_id};
		snprintf(k->text, sizeof(k->text), "%s", text);
		break;
	}
	pthread_mutex_unlock(&m->lock);
	return seq;
}

/* The place of session @p id in @p open_ids, or XL_MARKS_OPEN: not open. */
static unsigned open_place(const uint32_t open_ids[XL_MARKS_OPEN], uint32_t id)
{
	unsigned at = 0;

	while (at < XL_MARKS_OPEN && !(open_ids[at] && open_ids[at] == id))
		at++;
	return at;
}

void xl_marks_write(struct xl_marks *m, unsigned side, const uint32_t open_ids[XL_MARKS_OPEN],
                    uint32_t closed_id, bool (*write)(void *ctx, unsigned at, const char *line),
                    void *ctx)
{
	uint8_t bit = (uint8_t)(1u << side);
	char line[sizeof(m->slots[0].text) + 64];

	pthread_mutex_lock(&m->lock);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		struct xl_mark *k = &m->slots[i];
		if (!k->seq || (k->done & bit))
			continue;
		unsigned at = open_place(open_ids, k->session_id);
		if (at < XL_MARKS_OPEN) {
			snprintf(line, sizeof(line), "# mark t=%" PRIu64 " text=%s\n", k->t_ns, k->text);
			if (write(ctx, at, line))
				k->written |= bit;
			k->done |= bit;
		} else if (k->session_id <= closed_id) {
			k->done |= bit; /* its session ended before this side saw it */
		}
		if (k->abandoned && k->done == BOTH_SIDES)
			k->seq = 0;
	}
	pthread_mutex_unlock(&m->lock);
}

enum xl_mark_result xl_marks_result(struct xl_marks *m, uint64_t seq, bool give_up)
{
	enum xl_mark_result r = XL_MARK_LOST;

	pthread_mutex_lock(&m->lock);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		struct xl_mark *k = &m->slots[i];
		if (k->seq != seq)
			continue;
		if (k->done != BOTH_SIDES && !give_up) {
			r = XL_MARK_PENDING;
			break;
		}
		r = k->written == BOTH_SIDES ? XL_MARK_WRITTEN : XL_MARK_LOST;
		k->seq = 0;
		break;
	}
	pthread_mutex_unlock(&m->lock);
	return r;
}

void xl_marks_abandon(struct xl_marks *m, uint64_t seq)
{
	pthread_mutex_lock(&m->lock);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		struct xl_mark *k = &m->slots[i];
		if (k->seq != seq)
			continue;
		if (k->done == BOTH_SIDES)
			k->seq = 0;
		else
			k->abandoned = true;
		break;
	}
	pthread_mutex_unlock(&m->lock);
}
