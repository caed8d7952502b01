/*
 * Function names interned to dense ids 0, 1, 2, ... in order of first
 * sight, so that per-function state lives in plain arrays: the sandwich's
 * totals (calls_join.h), and each calls file's reader thread
 * (calls_queue.h), which names every row's function by its id so that the
 * sandwich's thread does not hash names.
 */
#ifndef XRLM_CALLS_NAMES_H
#define XRLM_CALLS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "calls_read.h"
#include "idmap.h"

struct calls_names {
	struct idmap ids;            /* name hash -> id */
	char (*names)[CALLS_FN_MAX]; /* by id */
	size_t cap;
};

/* Makes an empty table. Returns 0, -1 on ENOMEM. */
int calls_names_create(struct calls_names *t);

/* Frees what @p t owns. */
void calls_names_destroy(struct calls_names *t);

/*
 * The id of @p name (shorter than CALLS_FN_MAX) into *@p id, the next one
 * (calls_names_count() before the call) when new. Returns 0, or -1 with
 * the reason in @p msg: out of memory, or two names of the same hash
 * (the table is then only fit for calls_names_destroy()).
 */
int calls_names_intern(struct calls_names *t, const char *name, uint32_t *id, char *msg,
                       size_t msg_size);

/* How many names @p t holds. */
static inline uint32_t calls_names_count(const struct calls_names *t)
{
	return t->ids.count;
}

#endif /* XRLM_CALLS_NAMES_H */
