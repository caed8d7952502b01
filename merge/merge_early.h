/*
 * Rows formatted while the sandwich still runs (xrlm, with calls files):
 * each block of rows as soon as the frames its every-function cells come
 * from are final (merge_calls_rows_final()), by a few threads taking the
 * blocks in order, and kept in memory (up to MERGE_EARLY_BYTES) until the
 * summary, which the sandwich's counts end, is written before them; most
 * of them also go to the file before that, where a guess of the summary's
 * length puts them (merge_early_write()), and stay there if it was right.
 * At 10^4 frames with calls files the rows' formatting came after the
 * sandwich's end, ~0.9 ms of the merge's path to its file
 * (bench/RESULTS.md, twentieth session), and their write 0.3-0.5 ms
 * (twenty-ninth session).
 */
#ifndef XRLM_MERGE_EARLY_H
#define XRLM_MERGE_EARLY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "merged_write.h"
#include "thread.h"

#define MERGE_EARLY_THREADS 4
/* The merge's threads (workers_max()) below which no row goes early: the
 * merge in the layer, beside its application, keeps its CPUs to it. */
#define MERGE_EARLY_MIN_WORKERS 4
#define MERGE_EARLY_BLOCK_ROWS 512
/* The formatted rows held at most: a row's bytes with the every-function
 * columns, about (a block's first buffer), and the rows that go early. */
#define MERGE_EARLY_ROW_BYTES 200
#define MERGE_EARLY_BYTES ((size_t)8 << 20)

/*
 * Formats rows [@p first, @p last) into @p buf (@p cap bytes; *@p used of
 * them filled), as many as fit, if their frames are final: *@p state 1, or
 * 0 when the next row's are not final yet, -1 when they never will be.
 * Returns the first row not formatted. Called from several threads at once
 * on different rows.
 */
typedef size_t merge_early_fill_fn(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                                   size_t *used, int *state);

/* A block of rows, once formatted. */
struct merge_early_block {
	char *buf;
	size_t len;
	atomic_bool done; /* buf and len are set (release) */
};

struct merge_early {
	merge_early_fill_fn *fill;
	void *ctx;
	size_t rows;   /* rows [0, rows) may go early */
	size_t blocks; /* of MERGE_EARLY_BLOCK_ROWS rows */
	struct merge_early_block *block;
	atomic_size_t next;  /* the next block to take; blocks: take no more */
	atomic_bool abandon; /* leave the blocks taken too */
	/* A thread waiting for frames to become final is woken early by
	 * merge_early_final(): the sandwich is done, every frame is. */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool awake;
	struct thread thread[MERGE_EARLY_THREADS];
	unsigned threads;
	bool started;        /* lock and wake exist */
	bool finished;       /* the threads are joined */
	/* The blocks written ahead of the summary (merge_early_write()). */
	atomic_bool write_stop;
	off_t written_at;     /* where they start */
	size_t written;       /* blocks [0, written) are in the file */
	size_t written_bytes; /* their bytes */
	off_t written_end;    /* the end of every write tried, 0 if none */
	int write_error;      /* errno of a failed write; nothing more was written */
};

/*
 * Starts formatting the first of @p rows rows (as many as
 * MERGE_EARLY_BYTES allow) through @p fill with @p ctx, on threads of
 * their own. Without memory or threads nothing goes early. A zeroed
 * @p e may be finished and destroyed without being started.
 */
void merge_early_start(struct merge_early *e, size_t rows, merge_early_fill_fn *fill, void *ctx);

/*
 * Once every frame is final (the sandwich is done): the threads format
 * every block left without waiting, those not taken yet too (they run
 * already; rows left to the merged file's writers waited for the rows'
 * frames and for threads of their own: 0.3-0.7 ms after the summary in
 * ~40 % of 10^4-frame merges, bench/RESULTS.md, thirty-first session).
 * Returns the rows they format, from the first (0 when no thread runs):
 * merge_early_finish() gives them all unless memory ran out.
 */
size_t merge_early_final(struct merge_early *e);

/*
 * Joins @p e's threads. With @p keep (after merge_early_final()) they
 * format every block first; without, they stop, leaving the block they
 * format. Returns how many rows from the first were formatted, in order:
 * their blocks' bytes (merge_early_give()) are valid until
 * merge_early_destroy(). 0 without @p keep.
 */
size_t merge_early_finish(struct merge_early *e, bool keep);

/*
 * Hands the bytes of the first @p rows rows (merge_early_finish()'s count,
 * 0 when the rows formatted early are thrown away) to @p r, to be written
 * after the summary, which r's file holds now (merged_write_summary()):
 * those merge_early_write() wrote ahead stay where they are if that is
 * where they belong (at the summary's length, and among the rows given);
 * otherwise the rows are written again in their turn, and what was
 * written ahead past their end is cut (merged_write_rows_cut()). Returns
 * 0, or -1 when out of memory (r's file error set).
 */
int merge_early_give(const struct merge_early *e, size_t rows, struct merged_rows *r);

/*
 * Where merge_early_write() writes the first block: 1 with *@p at set, 0
 * when not known yet (asked again a little later), -1 when it never will be.
 */
typedef int merge_early_at_fn(void *ctx, off_t *at);

/*
 * Writes the blocks to @p fd as they are formatted, in order, from the
 * offset @p at gives (pwrite(): the descriptor's offset stays), on the
 * calling thread, before the summary whose length that offset guesses is
 * known (merge.c). Returns at merge_early_write_stop(), at the sandwich's
 * end (merge_early_final(): the blocks left are written in their turn), at
 * the last block, or at a failed write (write_error). e->written_at,
 * e->written and e->written_bytes say what is in the file. SIGXFSZ is
 * blocked on the calling thread first: a write past a file size limit
 * fails instead of ending the process.
 */
void merge_early_write(struct merge_early *e, int fd, merge_early_at_fn *at, void *ctx);

/* Makes merge_early_write() return after the write under way, if any. */
void merge_early_write_stop(struct merge_early *e);

/*
 * Are a session's rows, @p frames of them (about), formatted early? For
 * xrlm on a machine with CPUs to spare (workers_max()), not for the merge
 * in the layer, beside its application; when they all fit in
 * MERGE_EARLY_BYTES (a longer session would hold them to no use: its
 * sandwich's frames do not all stay in memory, calls_frames.h, and their
 * first eviction throws the early rows away).
 */
bool merge_early_wanted(uint64_t frames);

/* The bytes the rows of a session of @p frames frames hold while they wait (about; 0 when not wanted). */
size_t merge_early_bytes(uint64_t frames);

/* Finishes @p e without keeping anything, and frees the blocks. */
void merge_early_destroy(struct merge_early *e);

#endif /* XRLM_MERGE_EARLY_H */
