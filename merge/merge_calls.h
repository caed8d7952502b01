/*
 * The calls files' part of a session's merge: the nested-call sandwich
 * (calls_join.h) run beside the frames join, each merged row's
 * every-function columns, the summary counts and the functions file. The
 * merge calls these per row, so the frames join stays as it is.
 */
#ifndef XRLM_MERGE_CALLS_H
#define XRLM_MERGE_CALLS_H

#include <stdbool.h>

#include "calls_join.h"
#include "merge.h"
#include "merged_write.h"

struct merge_calls {
	bool present; /* both calls files were given and read */
	struct calls_result r;
	uint64_t rows_without_calls;
};

/*
 * Reads @p paths' calls files, if both are given, through the sandwich
 * (@p bracket_ns per contained post call), checking they are of the
 * session of @p pre_cpu_path / @p pre_session. With one only, warns and
 * leaves @p mc absent. Returns 0, or -1 after one error line to @p log.
 * merge_calls_destroy() must be called either way.
 */
int merge_calls_read(struct merge_calls *mc, const struct merge_paths *paths,
                     const char *pre_session, int64_t bracket_ns, merge_log_fn log, void *ctx);

/*
 * The every-function columns of the merged row whose pre frames row has
 * @p thread_id, @p t_entry_ns and duration @p dur_ns, into @p r.
 * Thread-safe (it only reads @p mc).
 */
void merge_calls_row(const struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                     int64_t dur_ns, struct merged_row *r);

/*
 * Notes that the merged row of that pre frames row is written (for the
 * unmapped counts): once per row, from one thread, before
 * merge_calls_summarize().
 */
void merge_calls_note_row(struct merge_calls *mc, uint64_t thread_id, int64_t t_entry_ns,
                          int64_t dur_ns);

/* The calls counts into @p s, after every row was noted. */
void merge_calls_summarize(const struct merge_calls *mc, struct merge_summary *s);

/* Writes the functions file @p path. Returns 0, or -1 after one error line to @p log. */
int merge_calls_write(const struct merge_calls *mc, const char *path, uint64_t frame_count,
                      merge_log_fn log, void *ctx);

/* Frees what @p mc owns. */
void merge_calls_destroy(struct merge_calls *mc);

#endif /* XRLM_MERGE_CALLS_H */
