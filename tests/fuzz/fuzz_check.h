/*
 * Checks shared by the fuzz entry points, on what the merge promises
 * whatever the input: messages are terminated single lines and an error
 * is reported exactly when a reader fails.
 */
#ifndef XRLM_FUZZ_CHECK_H
#define XRLM_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "csvr.h"
#include "merge.h"

/* FNV-1a's start: what the entry points fold what a read saw into (fuzz_hash_mix()). */
#define FUZZ_HASH_START 0xcbf29ce484222325ull

/* Folds the @p n bytes at @p p into *@p hash (FNV-1a). */
void fuzz_hash_mix(uint64_t *hash, const void *p, size_t n);

/* Checks the messages of one reader call that returned @p ret. */
void fuzz_check_diag(const struct csvr_diag *d, int ret);

/* Checks one log line: non-empty, one line, "<file>...: error|warning: ". */
void fuzz_check_line(const char *message);

/*
 * Checks that @p again (statistics recomputed from the merged file's rows,
 * as `xrlm stats` does) equals @p merged (what the merge computed).
 */
void fuzz_check_same_stats(const struct merge_summary *merged, const struct merge_summary *again);

#endif /* XRLM_FUZZ_CHECK_H */
