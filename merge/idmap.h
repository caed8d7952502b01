/*
 * A map from 64-bit keys (thread ids, name hashes) to dense indices 0, 1,
 * 2, ... in order of first sight, so callers keep per-key state in plain
 * arrays. Open addressing, linear probing, at most half full.
 */
#ifndef XRLM_IDMAP_H
#define XRLM_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap {
	uint64_t *keys;
	uint32_t *index; /* dense index + 1; 0 = empty slot */
	size_t mask;
	uint32_t count;  /* keys held = next dense index */
	uint64_t last_key;   /* the last lookup, for runs of one key */
	uint32_t last_index; /* its index + 1; 0 = none */
};

/* Makes an empty map. Returns 0, -1 on ENOMEM. */
int idmap_create(struct idmap *m);

/* Frees what @p m owns. */
void idmap_destroy(struct idmap *m);

/*
 * The index of @p key into *@p index, giving it the next one (count) when
 * new; *@p is_new (may be NULL) says which. Returns 0, -1 on ENOMEM.
 */
int idmap_get(struct idmap *m, uint64_t key, uint32_t *index, int *is_new);

/*
 * The index of @p key into *@p index without adding it or remembering the
 * lookup: safe beside other readers. Returns 0, or -1 when @p key is absent.
 */
int idmap_find(const struct idmap *m, uint64_t key, uint32_t *index);

/* A 64-bit mix of @p x (for keys that are not spread, such as thread ids). */
uint64_t idmap_mix64(uint64_t x);

#endif /* XRLM_IDMAP_H */
