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
#include "functions_read.h"

/*
 * Writes the functions of @p r to @p path (never replacing a file);
 * calls_per_frame is over @p frame_count frames. Returns 0, or -1 with a
 * message naming the file in @p msg.
 */
int functions_write(const char *path, const struct calls_result *r, uint64_t frame_count,
                    char *msg, size_t msg_size);

#endif /* XRLM_FUNCTIONS_WRITE_H */
