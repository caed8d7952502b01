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

void xl_marks_write(struct xl_marks *m, unsigned side, uint32_t open_id, uint32_t closed_id,
                    bool (*write)(void *ctx, const char *line), void *ctx)
{
	uint8_t bit = (uint8_t)(1u << side);
	char line[sizeof(m->slots[0].text) + 64];

	pthread_mutex_lock(&m->lock);
	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		struct xl_mark *k = &m->slots[i];
		if (!k->seq || (k->done & bit))
			continue;
		if (open_id && k->session_id == open_id) {
			snprintf(line, sizeof(line), "# mark t=%" PRIu64 " text=%s\n", k->t_ns, k->text);
			if (write(ctx, line))
				k->written |= bit;
			k->done |= bit;
		} else if (k->session_id <= closed_id) {
			k->done |= bit; /* its session ended before this side saw it */
		}
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
