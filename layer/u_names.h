/*
 * The names of a session's files, in one place for the layers (which write
 * them) and xrlm (which reads them); see the README's "Output files":
 *
 *   <kind>-<tag>-<side>.csv    frames-<tag>-pre.csv, gpu-<tag>-post.csv, ...
 *   <kind>-merged-<tag>.csv    frames-merged-<tag>.csv
 */
#ifndef XRLM_U_NAMES_H
#define XRLM_U_NAMES_H

#include <stddef.h>

#define U_NAMES_FRAMES "frames" /* the CPU brackets */
#define U_NAMES_GPU "gpu"       /* the GPU timestamps */

/*
 * Writes "[<dir>/]<kind>-<tag>-<side>.csv" into @p out (@p dir may be
 * NULL: the name alone). Returns its length, or -1 if it does not fit.
 */
int u_names_side_file(char *out, size_t size, const char *dir, const char *kind,
                      const char *tag, const char *side);

/* Writes "[<dir>/]<kind>-merged-<tag>.csv" into @p out; its length, or -1. */
int u_names_merged_file(char *out, size_t size, const char *dir, const char *kind,
                        const char *tag);

#endif /* XRLM_U_NAMES_H */
