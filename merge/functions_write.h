/*
 * Writing functions-merged-<tag>.csv: one row per OpenXR function seen in a
 * session's calls files (README "The functions file"), most target time
 * first, appearing whole or not at all (out_file.h).
 */
#ifndef XRLM_FUNCTIONS_WRITE_H
#define XRLM_FUNCTIONS_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "calls_join.h"

/* The column header line (without newline). */
#define FUNCTIONS_HEADER                                                                       \
	"fn,phase,calls,calls_per_frame,target_total_us,target_mean_us,target_p50_us,"        \
	"target_p99_us,target_max_us,share_pct,induced_calls,own_thread_calls,induced_us,"    \
	"own_thread_us"

/*
 * Writes the functions of @p r to @p path (never replacing a file);
 * calls_per_frame is over @p frame_count frames. Returns 0, or -1 with a
 * message naming the file in @p msg.
 */
int functions_write(const char *path, const struct calls_result *r, uint64_t frame_count,
                    char *msg, size_t msg_size);

#endif /* XRLM_FUNCTIONS_WRITE_H */
