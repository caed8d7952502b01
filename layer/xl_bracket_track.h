/*
 * The GPU bracket correction's measurements, followed (pre's writer): the
 * median of the last few, and a step in them told from a stray one.
 *
 * One measurement can be far off (a submission delayed by a loaded CPU;
 * such delays come in bursts), hence a median of XL_BRACKET_WINDOW
 * measurements spread in time. But the bracket also steps for good when the
 * GPU changes its clocks under the application: on an H200 (driver 580) a
 * light load drops them a few seconds into a session, and every submission
 * boundary then costs ~17.5 µs instead of ~9.5 (the bracket reads 35 µs,
 * not 18). A median of nine measurements 2 s apart followed that step only
 * after ~9 s, every frame meanwhile reading 17 µs high (bench/RESULTS.md,
 * fiftieth session). So a measurement that differs from the median by more
 * than XL_BRACKET_STEP_MIN_NS and a quarter of it asks for the next ones
 * soon (XL_BRACKET_DOUBT), and XL_BRACKET_CONFIRM in a row that differ the
 * same way start the window again from themselves (XL_BRACKET_RESTART): a
 * stray measurement, or two, moves nothing.
 */
#ifndef XL_BRACKET_TRACK_H
#define XL_BRACKET_TRACK_H

#include <stdint.h>

#define XL_BRACKET_WINDOW 9
#define XL_BRACKET_CONFIRM 3
#define XL_BRACKET_STEP_MIN_NS 2000

/* Plain state; zero-initialised is empty. */
struct xl_bracket_track {
	int64_t recent[XL_BRACKET_WINDOW]; /* the last measurements, a ring */
	uint32_t measured;                 /* how many the ring has taken since it (re)started */
	uint32_t off;                      /* measurements in a row off the median, the same way */
	int off_sign;                      /* their way: +1 above, -1 below */
};

/* What a measurement did to the correction. */
enum xl_bracket_change {
	XL_BRACKET_STEADY,  /* as the median before it, or one more of a full window */
	XL_BRACKET_DOUBT,   /* off the median: the next ones are wanted soon */
	XL_BRACKET_RESTART, /* the last XL_BRACKET_CONFIRM were off: the window is theirs now */
};

/*
 * Takes measurement @p ns (>= 0) into @p t; the correction in effect from
 * it on is then xl_bracket_track_median().
 */
enum xl_bracket_change xl_bracket_track_take(struct xl_bracket_track *t, int64_t ns);

/* The median of the measurements in the window; 0 when it has none. */
int64_t xl_bracket_track_median(const struct xl_bracket_track *t);

/* Measurements the window holds: min(measured, XL_BRACKET_WINDOW). */
uint32_t xl_bracket_track_count(const struct xl_bracket_track *t);

#endif /* XL_BRACKET_TRACK_H */
