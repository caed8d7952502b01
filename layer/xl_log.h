/*
 * The side's log file, xrlm-<side>.log in the output directory.
 *
 * Init metadata and warnings only, never per-frame lines. Each line is one
 * write(2) on an O_APPEND descriptor, so lines from the layer's threads and
 * from other processes sharing the directory never interleave mid-line.
 * Never called on the frame thread.
 */
#ifndef XL_LOG_H
#define XL_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* Which one-time warnings have already been written (see xl_log_once). */
enum xl_log_once_id {
	XL_ONCE_FILE_OPEN,
	XL_ONCE_FILE_WRITE,
	XL_ONCE_RECORDING_STOPPED, /* the frames file failed: its own, as it stops recording */
	XL_ONCE_MERGE,
	XL_ONCE_LATE_RECORD,
	XL_ONCE_SESSION_INFO,
	XL_ONCE_GPU,
	XL_ONCE_GPU_LATE, /* a GPU sample came after its recording's files closed */
	XL_ONCE_GPU_LEFT, /* Vulkan objects still in use at destruction, left to the device */
	XL_ONCE_CTL_PEER,
	XL_ONCE_BUSY, /* a frame thread stuck in a transition: a wait gave up */
	XL_ONCE_COUNT
};

/*
 * Opens "xrlm-<side>.log" in the directory @p dir_fd (created 0644,
 * appended, no symlink followed, only this user's regular file); -1: no log
 * file. Without a log file lines go to stderr only. Returns false, with the
 * reason in @p why, when @p dir_fd is a directory but the log in it cannot be
 * used. Safe to call again: reopens, and the one-time warnings rearm.
 * @p side must outlive the log (a constant: the side's name).
 */
bool xl_log_open(int dir_fd, const char *side, char *why, size_t why_size);

/*
 * Moves an open log to "xrlm-<side>.log" in @p dir_fd (the output directory
 * was recreated), keeping the one-time warnings' state.
 */
void xl_log_reopen(int dir_fd);

/*
 * Names the side in lines written before xl_log_open, which go to stderr
 * (a refused negotiation: no instance, so no log file). @p side as in
 * xl_log_open. Allocates nothing: safe at any time, as often as called.
 */
void xl_log_side(const char *side);

/* Closes the log file; later lines go to stderr. */
void xl_log_close(void);

/* Writes one line "<time> [pid] <side>: message" to the log. */
void xl_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes the line to the log and to stderr (for what a user must see). */
void xl_log_loud(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Like xl_log, but only the first time for @p id until xl_log_open. */
void xl_log_once(enum xl_log_once_id id, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* XL_LOG_H */
