/*
 * The frames during which the GPU gate tripped; see merge_gate.h.
 */
#include "merge_gate.h"

#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int merge_gate_collect(struct merge_gate *g, const struct side_meta *a, const struct side_meta *b)
{
	const struct side_meta *files[] = {a, b};
	size_t total = 0;
	bool unknown_frame = false;

	memset(g, 0, sizeof(*g));
	for (int i = 0; i < 2; i++) {
		if (files[i]) {
			total += files[i]->gate_trip_count;
			unknown_frame |= files[i]->gate_tripped_unknown_frame;
		}
	}
	g->trips = unknown_frame;
	if (total == 0)
		return 0;
	g->times = malloc(total * sizeof(*g->times));
	if (!g->times)
		return -1;
	for (int i = 0; i < 2; i++) {
		if (files[i] && files[i]->gate_trip_count) {
			memcpy(g->times + g->count, files[i]->gate_trips,
			       files[i]->gate_trip_count * sizeof(*g->times));
			g->count += files[i]->gate_trip_count;
		}
	}
	qsort(g->times, g->count, sizeof(*g->times), cmp_i64);
	size_t kept = 0;
	for (size_t i = 0; i < g->count; i++)
		if (kept == 0 || g->times[kept - 1] != g->times[i])
			g->times[kept++] = g->times[i];
	g->count = kept;
	g->trips = kept ? kept : unknown_frame;
	return 0;
}

bool merge_gate_tripped(const struct merge_gate *g, int64_t display_time)
{
	return g->count && bsearch(&display_time, g->times, g->count, sizeof(*g->times), cmp_i64);
}

void merge_gate_destroy(struct merge_gate *g)
{
	free(g->times);
	memset(g, 0, sizeof(*g));
}
