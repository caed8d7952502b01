/*
 * Keys to dense indices; see idmap.h.
 */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

uint64_t idmap_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static int alloc_slots(struct idmap *m, size_t size)
{
	m->keys = malloc(size * sizeof(*m->keys));
	m->index = calloc(size, sizeof(*m->index));
	m->mask = size - 1;
	if (m->keys && m->index)
		return 0;
	free(m->keys);
	free(m->index);
	m->keys = NULL;
	m->index = NULL;
	return -1;
}

int idmap_create(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
	return alloc_slots(m, 16);
}

void idmap_destroy(struct idmap *m)
{
	free(m->keys);
	free(m->index);
	memset(m, 0, sizeof(*m));
}

static size_t slot_of(const struct idmap *m, uint64_t key)
{
	size_t pos = idmap_mix64(key) & m->mask;

	while (m->index[pos] && m->keys[pos] != key)
		pos = (pos + 1) & m->mask;
	return pos;
}

static int grow(struct idmap *m)
{
	struct idmap old = *m;

	if (alloc_slots(m, (old.mask + 1) * 2) != 0) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i <= old.mask; i++) {
		if (!old.index[i])
			continue;
		size_t pos = slot_of(m, old.keys[i]);
		m->keys[pos] = old.keys[i];
		m->index[pos] = old.index[i];
	}
	free(old.keys);
	free(old.index);
	return 0;
}

int idmap_get(struct idmap *m, uint64_t key, uint32_t *index, int *is_new)
{
	if (is_new)
		*is_new = 0;
	/* Calls come in runs from one thread: skip the probe. */
	if (m->last_index && m->last_key == key) {
		*index = m->last_index - 1;
		return 0;
	}
	if (((size_t)m->count + 1) * 2 > m->mask + 1 && grow(m) != 0)
		return -1;
	size_t pos = slot_of(m, key);
	if (!m->index[pos]) {
		m->keys[pos] = key;
		m->index[pos] = ++m->count;
		if (is_new)
			*is_new = 1;
	}
	m->last_key = key;
	m->last_index = m->index[pos];
	*index = m->index[pos] - 1;
	return 0;
}

int idmap_find(const struct idmap *m, uint64_t key, uint32_t *index)
{
	if (!m->index)
		return -1;
	size_t pos = slot_of(m, key);
	if (!m->index[pos])
		return -1;
	*index = m->index[pos] - 1;
	return 0;
}
