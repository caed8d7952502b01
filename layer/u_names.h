/*
 * The names of a session's files, in one place for the layers (which write
 * them) and xrlm (which reads them, and derives one name from another); see
 * the README's "Output files":
 *
 *   <kind>-<tag>-<side>.csv    frames-<tag>-pre.csv, gpu-<tag>-post.csv,
 *                              calls-<tag>-pre.csv
 *   <kind>-merged-<tag>.csv    frames-merged-<tag>.csv,
 *                              functions-merged-<tag>.csv
 *
 * Build names with u_names_side_file() / u_names_merged_file() and take them
 * apart with u_names_parse(); nothing else spells the scheme out.
 */
#ifndef XRLM_U_NAMES_H
#define XRLM_U_NAMES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define U_NAMES_FRAMES "frames"       /* the CPU brackets (per side, merged) */
#define U_NAMES_GPU "gpu"             /* the GPU timestamps (per side) */
#define U_NAMES_FUNCTIONS "functions" /* per-function totals (merged) */
#define U_NAMES_CALLS "calls"         /* per-call records (per side) */

#define U_NAMES_PRE "pre"   /* the side before the target layer */
#define U_NAMES_POST "post" /* the side after it */

/* Longest tag a parsed name can hold: a file name's own limit. */
#define U_NAMES_TAG_MAX (NAME_MAX + 1)

/*
 * Post's log (xrlm-post.log in the output directory) says
 * "session TAG: " U_NAMES_LEFT_UNMERGED " ..." of a session whose merge it
 * left to `xrlm merge` (its merge thread's queue full): `xrlm ls` and
 * `merge DIR` read it there.
 */
#define U_NAMES_LEFT_UNMERGED "not merged in the application"
#define U_NAMES_POST_LOG "xrlm-" U_NAMES_POST ".log" /* as xl_log.c names a side's log */

/* A session file's name taken apart by u_names_parse(). */
struct u_names_parsed {
	const char *kind;          /* U_NAMES_FRAMES, U_NAMES_GPU, ... */
	const char *side;          /* U_NAMES_PRE or U_NAMES_POST; NULL when merged */
	int dir_len;               /* length of the directory part, with its '/' */
	char tag[U_NAMES_TAG_MAX]; /* non-empty, no '/' */
};

/*
 * Writes "[<dir>/]<kind>-<tag>-<side>.csv" into @p out (@p dir may be
 * NULL: the name alone). Returns its length, or -1 if it does not fit or
 * @p tag is empty or holds a '/' (it would name another directory).
 */
int u_names_side_file(char *out, size_t size, const char *dir, const char *kind,
                      const char *tag, const char *side);

/* Writes "[<dir>/]<kind>-merged-<tag>.csv" into @p out; its length, or -1. */
int u_names_merged_file(char *out, size_t size, const char *dir, const char *kind,
                        const char *tag);

/*
 * Takes @p path ("[<dir>/]<name>") apart into @p out when its name follows
 * the scheme: a known kind, then "-<tag>-pre.csv", "-<tag>-post.csv" or
 * "-merged-<tag>.csv" with a non-empty tag. The per-side form is tried
 * first, so "frames-merged-x-pre.csv" is a pre file of tag "merged-x".
 * Returns false (and leaves @p out unspecified) when it does not.
 */
bool u_names_parse(const char *path, struct u_names_parsed *out);

/*
 * Writes the path of session @p n's file of @p kind and @p side (NULL: the
 * merged file) into @p out: in the directory of @p path, the path @p n was
 * parsed from. Returns its length, or -1 if it does not fit.
 */
int u_names_sibling(char *out, size_t size, const char *path, const struct u_names_parsed *n,
                    const char *kind, const char *side);

/*
 * True when @p n is of kind @p kind and side @p side (NULL: the merged
 * file).
 */
bool u_names_is(const struct u_names_parsed *n, const char *kind, const char *side);

#endif /* XRLM_U_NAMES_H */
