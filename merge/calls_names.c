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
	/* Zeroed: calls_names_recent() may compare bytes past a stored name's NUL. */
	t->chunk[c] = calloc(CALLS_NAMES_CHUNK, sizeof(*t->chunk[c]));
	return t->chunk[c] ? 0 : -1;
}

int calls_names_intern(struct calls_names *t, const char *name, size_t len, uint32_t *id,
                       char *msg, size_t msg_size)
{
	int is_new;

	if (calls_names_recent(t, name, len, id))
		return 0;
	if (len == 0 || len >= CALLS_FN_MAX || memchr(name, '\0', len)) {
		snprintf(msg, msg_size, "not a function name");
		return -1;
	}
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
	if (is_new) {
		memcpy(stored, name, len);
		stored[len] = '\0';
	}
	if (is_new || (stored[len] == '\0' && memcmp(stored, name, len) == 0)) {
		t->recent[calls_names_recent_slot(name, len)] = *id + 1;
		return 0;
	}
	snprintf(msg, msg_size, "function names %.*s and %s have the same hash", (int)len, name,
	         stored);
	return -1;
}
