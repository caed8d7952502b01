/*
 * The frames during which pre's GPU gate tripped (README "GPU cost"): the
 * GPU files name them in `# gate_tripped display_time=<t>` lines; the
 * merged CSV marks them in its last column, gate_tripped, so that a reader
 * can leave them out.
 */
#ifndef XRLM_MERGE_GATE_H
#define XRLM_MERGE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "side_file.h"

/* The tripped frames of a session, sorted, without repeats. */
struct merge_gate {
	int64_t *times;
	size_t count;
	uint64_t trips; /* count, or 1 for an older file that only says it tripped */
};

/*
 * Collects the tripped frames of GPU files @p a and @p b (either may be
 * NULL) into @p g. Returns 0, or -1 on ENOMEM (@p g is then empty).
 */
int merge_gate_collect(struct merge_gate *g, const struct side_meta *a, const struct side_meta *b);

/* True when the frame of @p display_time is one the gate tripped in. */
bool merge_gate_tripped(const struct merge_gate *g, int64_t display_time);

/* Frees what @p g holds. */
void merge_gate_destroy(struct merge_gate *g);

#endif /* XRLM_MERGE_GATE_H */
