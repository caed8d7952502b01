/*
 * Interned function names; see calls_names.h.
 */
#include "calls_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a: names are short and few; the table checks every first match. */
static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

int calls_names_create(struct calls_names *t, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max < CALLS_NAMES_MAX ? max : CALLS_NAMES_MAX;
	return idmap_create(&t->ids);
}

void calls_names_destroy(struct calls_names *t)
{
	idmap_destroy(&t->ids);
	for (size_t i = 0; i < CALLS_NAMES_CHUNKS; i++)
		free(t->chunk[i]);
	memset(t, 0, sizeof(*t));
}

/* Room for id @p id. Returns 0 or -1. */
static int reserve(struct calls_names *t, uint32_t id)
{
	size_t c = id / CALLS_NAMES_CHUNK;

	if (t->chunk[c])
		return 0;
	t->chunk[c] = malloc(CALLS_NAMES_CHUNK * sizeof(*t->chunk[c]));
	return t->chunk[c] ? 0 : -1;
}

/* Where @p name, of @p len bytes, is remembered in t->recent. */
static unsigned recent_slot(const char *name, size_t len)
{
	unsigned char last = len ? (unsigned char)name[len - 1] : 0;

	return ((unsigned)len * 7u + (unsigned char)name[0] * 3u + last) % CALLS_NAMES_RECENT;
}

/*
 * Whether @p name (@p len bytes) is the one remembered in its slot: every
 * row names a function, and comparing it with one stored name (its NUL
 * too, a stored name being CALLS_FN_MAX bytes) costs less than hashing it
 * and looking the hash up.
 */
static bool recent_hit(const struct calls_names *t, const char *name, size_t len, unsigned slot,
                       uint32_t *id)
{
	uint32_t known = t->recent[slot];

	if (!known)
		return false;
	if (memcmp(calls_names_get(t, known - 1), name, len + 1) != 0)
		return false;
	*id = known - 1;
	return true;
}

int calls_names_intern(struct calls_names *t, const char *name, size_t len, uint32_t *id,
                       char *msg, size_t msg_size)
{
	unsigned slot = recent_slot(name, len);
	int is_new;

	if (recent_hit(t, name, len, slot, id))
		return 0;
	if (idmap_get(&t->ids, name_hash(name, len), id, &is_new) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	if (is_new && *id >= t->max) {
		snprintf(msg, msg_size, "more than %u different function names", (unsigned)t->max);
		return -1;
	}
	if (is_new && reserve(t, *id) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	char *stored = t->chunk[*id / CALLS_NAMES_CHUNK][*id % CALLS_NAMES_CHUNK];
	if (is_new)
		snprintf(stored, CALLS_FN_MAX, "%s", name);
	if (is_new || strcmp(stored, name) == 0) {
		t->recent[slot] = *id + 1;
		return 0;
	}
	snprintf(msg, msg_size, "function names %s and %s have the same hash", name, stored);
	return -1;
}
