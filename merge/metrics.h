/*
 * The per-frame columns of a merged CSV that `xrlm report` plots and
 * `xrlm compare` compares, in the order they are shown. The per-phase and
 * app columns are present only in sessions recorded with every function
 * (README, "Every function"); tools look them up by name.
 */
#ifndef XRLM_METRICS_H
#define XRLM_METRICS_H

#include <stdbool.h>
#include <stddef.h>

enum metrics_group {
	METRICS_MAIN,  /* target CPU and GPU time, frame interval */
	METRICS_PHASE, /* the target's time per phase of the frame */
	METRICS_APP,   /* the app's own frame timeline as pre sees it */
};

/*
 * What a larger value means. Most columns are time spent, by the target or
 * by the frame: larger is worse. The app's wait in xrWaitFrame is not: in a
 * paced app the runtime holds the app there until the next frame is due,
 * so whatever the rest of the frame saves is waited for instead, and a
 * longer wait is headroom.
 */
enum metrics_sense {
	METRICS_COST, /* larger is worse: compared as slower or faster, and gated */
	METRICS_WAIT, /* larger is not worse: compared as more or less, never gated */
};

/* One per-frame column, in microseconds. */
struct metrics_column {
	const char *name;  /* the CSV column */
	const char *label; /* a short description for people */
	enum metrics_group group;
	enum metrics_sense sense;
	double floor_us;   /* the smallest change of a median the layers resolve */
};

/* The known columns, METRICS_COUNT of them, main ones first. */
extern const struct metrics_column metrics_columns[];
extern const size_t metrics_count;

/*
 * Whether a growth of @p col can fail a gate (compare's --fail-above): the
 * target's costs and the frame interval. The app's columns are the app's
 * own time, whose spread from run to run is the app's (the test app's
 * few µs of CPU between frames differed by 1.4 µs, 20 %, between identical
 * runs): compared, never gating.
 */
bool metrics_gates(const struct metrics_column *col);

/* The known column named @p name, or NULL. */
const struct metrics_column *metrics_find(const char *name);

struct ncsv;

/*
 * Checks that @p t, read from @p path, is a merged frames file: one of the
 * known columns at least, with numbers. Any other CSV (a per-side file, a
 * functions file) would otherwise read as a file with nothing to compare
 * or plot. Returns 0, or -1 with one line "<path>: error: ..." in @p msg.
 */
int metrics_check_merged(const struct ncsv *t, const char *path, char *msg, size_t msg_size);

#endif /* XRLM_METRICS_H */
