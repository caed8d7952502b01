/*
 * What a calls file's rows so far say about the rows still to come: the
 * bounds the sandwich (calls_join.h) holds its calls by. Each file's reader
 * (calls_queue.h) keeps them as it reads and hands every row over with the
 * bound that follows from it, so that the sandwich's thread, which sets a
 * merge's pace, does not.
 *
 * How far rows may be out of t_entry order in a file: the writer pops the
 * oldest head of per-thread rings that hold records in the order the calls
 * returned, so a row can come after later-starting ones by up to its call's
 * duration (a call with calls nested in it comes after them). A row read
 * less than CALLS_JOIN_LAG_NS after a later one of its file, or less than
 * CALLS_JOIN_LAG_ROWS rows after it, is still placed right: calls are held
 * until either bound has passed, so the memory held is bounded by rows
 * (about 2 * CALLS_JOIN_LAG_ROWS calls of 64 bytes, ~8 MB) however fast the
 * app calls. A row later than both is counted in calls_result.late_calls
 * (the summary's `calls_late`): its target time may be counted in another
 * call; it is never placed wrong silently.
 */
#ifndef XRLM_CALLS_ORDER_H
#define XRLM_CALLS_ORDER_H

#include <stdint.h>

#define CALLS_JOIN_LAG_NS INT64_C(1000000000)
#define CALLS_JOIN_LAG_ROWS 65536
/* Rows between two samples of a file's newest t_entry (for the row bound). */
#define CALLS_JOIN_STAMP_ROWS 1024

#define CALLS_ORDER_STAMPS (CALLS_JOIN_LAG_ROWS / CALLS_JOIN_STAMP_ROWS + 1)

/*
 * A file's rows so far: none still to come has a t_entry below the newest
 * one's less CALLS_JOIN_LAG_NS, nor below the newest one
 * CALLS_JOIN_LAG_ROWS rows back.
 */
struct calls_order {
	int64_t newest;                     /* the newest t_entry so far */
	uint64_t rows;                      /* rows so far */
	int64_t stamp[CALLS_ORDER_STAMPS];  /* newest as of rows k * STAMP_ROWS, by k % STAMPS */
};

/* Before the first row. */
static inline void calls_order_init(struct calls_order *o)
{
	*o = (struct calls_order){.newest = INT64_MIN / 2};
}

/* Takes a row of t_entry @p t. */
static inline void calls_order_note(struct calls_order *o, int64_t t)
{
	if (t > o->newest)
		o->newest = t;
	if (++o->rows % CALLS_JOIN_STAMP_ROWS == 0)
		o->stamp[(o->rows / CALLS_JOIN_STAMP_ROWS) % CALLS_ORDER_STAMPS] = o->newest;
}

/* The lowest t_entry a row still to come may have after those in @p o. */
static inline int64_t calls_order_floor(const struct calls_order *o)
{
	int64_t floor = o->newest - CALLS_JOIN_LAG_NS;

	if (o->rows >= CALLS_JOIN_LAG_ROWS) {
		/* The last stamp at least LAG_ROWS rows back (a bound that is lower is still a bound). */
		uint64_t k = (o->rows - CALLS_JOIN_LAG_ROWS) / CALLS_JOIN_STAMP_ROWS;
		if (k > 0 && o->stamp[k % CALLS_ORDER_STAMPS] > floor)
			floor = o->stamp[k % CALLS_ORDER_STAMPS];
	}
	return floor;
}

/*
 * The lowest t_entry the rows from the next one on may have, the next one's
 * being @p t (not taken into @p o yet): calls_order_floor() with it among
 * the rows for the time bound, and never above it.
 */
static inline int64_t calls_order_floor_from(const struct calls_order *o, int64_t t)
{
	int64_t floor = t - CALLS_JOIN_LAG_NS, by_rows = calls_order_floor(o);

	if (by_rows > floor)
		floor = by_rows;
	return floor < t ? floor : t;
}

#endif /* XRLM_CALLS_ORDER_H */
