/*
 * Function names interned to dense ids 0, 1, 2, ... in order of first
 * sight, so that per-function state lives in plain arrays: the sandwich's
 * totals (calls_join.h), and each calls file's reader thread
 * (calls_queue.h), which names every row's function by its id so that the
 * sandwich's thread neither hashes names nor receives them row by row.
 * A name, once stored, never moves: a thread that was handed an id
 * (through a lock) may read its name while the owner adds more.
 */
#ifndef XRLM_CALLS_NAMES_H
#define XRLM_CALLS_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "calls_read.h"
#include "idmap.h"

#define CALLS_NAMES_CHUNK 256 /* names stored together */
#define CALLS_NAMES_CHUNKS 256
/* The most names a table can hold. */
#define CALLS_NAMES_MAX (CALLS_NAMES_CHUNK * CALLS_NAMES_CHUNKS)
/*
 * More different names than this in one calls file is an error (OpenXR
 * has under a thousand functions); the sandwich's table, which holds both
 * files' names, has room for twice as many.
 */
#define CALLS_NAMES_FILE_MAX (CALLS_NAMES_MAX / 2)

/* Names remembered in front of the hash (a calls file cycles through a few). */
#define CALLS_NAMES_RECENT 64

struct calls_names {
	struct idmap ids; /* name hash -> id */
	uint32_t max;     /* names allowed */
	char (*chunk[CALLS_NAMES_CHUNKS])[CALLS_FN_MAX];
	uint32_t recent[CALLS_NAMES_RECENT]; /* id + 1 (0: none), by recent_slot() */
};

/*
 * Makes an empty table for up to @p max (at most CALLS_NAMES_MAX) names.
 * Returns 0, -1 on ENOMEM.
 */
int calls_names_create(struct calls_names *t, uint32_t max);

/* Frees what @p t owns. */
void calls_names_destroy(struct calls_names *t);

/*
 * The id of @p name (@p len bytes, 1 to CALLS_FN_MAX - 1, no NUL among
 * them; it need not be NUL-terminated) into *@p id, the next one
 * (calls_names_count() before the call) when new. Returns 0, or -1 with
 * the reason in @p msg: out of memory, too many names, or two names of
 * the same hash (the table is then only fit for calls_names_destroy()).
 */
int calls_names_intern(struct calls_names *t, const char *name, size_t len, uint32_t *id,
                       char *msg, size_t msg_size);

/* Where @p name, of @p len bytes, is remembered in t->recent. */
static inline unsigned calls_names_recent_slot(const char *name, size_t len)
{
	unsigned char last = len ? (unsigned char)name[len - 1] : 0;

	return ((unsigned)len * 7u + (unsigned char)name[0] * 3u + last) % CALLS_NAMES_RECENT;
}

/*
 * Whether the @p len bytes at @p name (not necessarily NUL-terminated)
 * are exactly the name remembered in their slot, then its id in *@p id:
 * every row of a calls file names a function, and comparing with one
 * stored name costs less than checking the name's bytes, hashing it and
 * looking the hash up. False for bytes that end in a NUL (a stored name
 * would match them only up to it).
 */
static inline bool calls_names_recent(const struct calls_names *t, const char *name, size_t len,
                                      uint32_t *id)
{
	if (len == 0 || len >= CALLS_FN_MAX || name[len - 1] == '\0')
		return false;
	uint32_t known = t->recent[calls_names_recent_slot(name, len)];
	if (!known)
		return false;
	const char *stored = t->chunk[(known - 1) / CALLS_NAMES_CHUNK][(known - 1) % CALLS_NAMES_CHUNK];
	if (stored[len] != '\0' || memcmp(stored, name, len) != 0)
		return false;
	*id = known - 1;
	return true;
}

/* How many names @p t holds. */
static inline uint32_t calls_names_count(const struct calls_names *t)
{
	return t->ids.count;
}

/* The name of id @p id (below calls_names_count()). */
static inline const char *calls_names_get(const struct calls_names *t, uint32_t id)
{
	return t->chunk[id / CALLS_NAMES_CHUNK][id % CALLS_NAMES_CHUNK];
}

#endif /* XRLM_CALLS_NAMES_H */
