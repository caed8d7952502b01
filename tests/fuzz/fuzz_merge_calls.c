/*
 * Fuzz entry point: the whole merge with calls files in place of the GPU
 * files; see fuzz_merge.c.
 */
#define FUZZ_MERGE_CALLS 1
#include "fuzz_merge.c"
