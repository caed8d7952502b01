/*
 * Fixed-size items appended in order and read back later, in bounded
 * memory: up to a chosen number of items stay in memory; beyond that they
 * go to an unnamed temporary file (O_TMPFILE, or a name unlinked at once)
 * in a chosen directory, which disappears when it is closed or the
 * process dies. What the streaming merge keeps of a session (its joined
 * rows, its statistics' values) lives in spills, so its memory does not
 * grow with the session's length.
 */
#ifndef XRLM_SPILL_H
#define XRLM_SPILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct spill_share;

struct spill {
	size_t item_size;
	size_t mem_items;  /* most items held in memory */
	size_t mem_cap;    /* items mem has room for now (grows to mem_items) */
	char *mem;         /* items [flushed, count) */
	uint64_t count;    /* items appended */
	uint64_t flushed;  /* items [0, flushed) are in the file */
	int fd;            /* -1 until the first flush */
	const char *dir;   /* where the file goes (borrowed); NULL: $TMPDIR or /tmp */
	int error;         /* errno of the first failed file operation, 0 if none */
	/* Called with each run of items just before it goes to the file (may be NULL). */
	void (*on_flush)(void *ctx, const void *items, size_t n);
	void *flush_ctx;
	struct spill_share *share; /* see spill_share(); NULL: one thread at a time */
};

/* What a spill's memory starts with; it doubles as items come, up to its bound. */
#define SPILL_FIRST_BYTES ((size_t)64 << 10)

/*
 * Prepares @p s for items of @p item_size bytes, up to @p mem_items of them in
 * memory, the rest in a temporary file in @p dir (borrowed; NULL: $TMPDIR,
 * else /tmp). Returns 0, or -1 when out of memory.
 */
int spill_init(struct spill *s, size_t item_size, size_t mem_items, const char *dir);

/*
 * Opens an unnamed temporary file in @p dir (NULL: $TMPDIR, else /tmp):
 * nobody else can open it, and it is gone as soon as it is closed, also
 * when the process is killed (O_TMPFILE, or a name unlinked at once).
 * Returns 0 with *@p fd set, or -1 with *@p error set.
 */
int spill_open_file(const char *dir, int *fd, int *error);

/* Writes all @p n bytes of @p data at @p off of @p fd. Returns 0, or -1 with *@p error set. */
int spill_pwrite_all(int fd, const void *data, size_t n, off_t off, int *error);

/* Frees the memory and closes (so removes) the file. */
void spill_destroy(struct spill *s);

/*
 * Room for one more item, at the end: the caller fills it. NULL when the
 * memory was full and writing it to the file failed (s->error set).
 */
void *spill_append(struct spill *s);

/*
 * spill_append() for up to *@p n items (*@p n > 0) in a row: room for the
 * first and as many after it as the memory holds before it must be
 * written out, *@p n set to how many.
 */
void *spill_append_n(struct spill *s, size_t *n);

/* Item @p i if it is still in memory (the last ones appended), else NULL. */
void *spill_item(struct spill *s, uint64_t i);

/*
 * Overwrites @p n bytes at @p offset inside item @p i, in memory or in the
 * file. Returns 0, or -1 (s->error set).
 */
int spill_patch(struct spill *s, uint64_t i, size_t offset, const void *data, size_t n);

/*
 * Writes what is still in memory to the file, if there is one (so that a
 * pass over the items reads the file alone). Returns 0 or -1 (s->error set).
 */
int spill_flush(struct spill *s);

/*
 * Copies items [@p first, @p first + @p n) to @p out. Safe from several
 * threads at once while nothing is appended. Returns 0, or -1 on a read
 * error (errno set; s is not changed).
 */
int spill_read(const struct spill *s, uint64_t first, size_t n, void *out);

/*
 * Lets reader threads take the items while one appender thread still
 * appends (the sandwich's xrEndFrame calls, read by the merge's pass over
 * its rows while the sandwich goes on; the joined records, read by the
 * statistics while the join goes on): the appender makes what it
 * appended readable with spill_publish(); spill_read_published() waits for
 * it. The memory's moves (growth, flushes, spill_flush()) are done under a
 * lock the readers' copies take too; appending in place is not, nor
 * spill_patch() of an item not yet published. Call it before the first
 * append. Returns 0, or -1 when out of memory.
 */
int spill_share(struct spill *s);

/*
 * From the appender of a shared spill: the items appended so far may be
 * read; with @p end, no more will come (also after a failure: the readers
 * must not wait for ever).
 */
void spill_publish(struct spill *s, bool end);

/* As spill_publish(), for the first @p count items only (the later ones may still be patched). */
void spill_publish_to(struct spill *s, uint64_t count, bool end);

/*
 * From a reader of a shared spill: waits until item @p first is
 * published or none will come, then copies up to @p n published items
 * from @p first to @p out and sets *@p got to their number (0: no more).
 * Returns 0, or -1 on a read error (errno set).
 */
int spill_read_published(const struct spill *s, uint64_t first, size_t n, void *out, size_t *got);

#endif /* XRLM_SPILL_H */
