/*
 * The writer's session files: for each session whose records it is writing
 * (the current one, and the one before in its grace for late calls), the
 * tag (pre picks the first free one, post waits for it), the per-side
 * CPU file and, from the first GPU sample on, the GPU file; rows, flushes
 * every 0.5 s, and the footers when the session closes. Writer thread only.
 */
#ifndef XL_WRITER_FILES_H
#define XL_WRITER_FILES_H

#include "xl_writer.h"

/*
 * Opens session @p id's files into @p s (logs and gives the session up on
 * failure). Pre settles the session's tag there, whatever happens, and
 * those of the sessions before it that it never opened.
 */
void xl_writer_files_open(struct xl_writer *w, struct xl_writer_session *s, uint32_t id);

/*
 * Pre: settles the tags of the sessions up to @p upto that it has not
 * opened as XL_TAG_NONE: they ended, and none of their records came, so
 * post must not wait for a file of pre's. Post: nothing.
 */
void xl_writer_files_settle_absent(struct xl_writer *w, uint32_t upto);

/* Writes one record into session @p s's files: the calls file, and xrEndFrame's the frames file. */
void xl_writer_files_row(struct xl_writer *w, struct xl_writer_session *s,
                         const struct xl_call_record *rec);

/*
 * Collects finished GPU samples up to session @p max_session into the
 * GPU files of their sessions. Returns true while samples of those
 * sessions are still on the GPU.
 */
bool xl_writer_files_poll_gpu(struct xl_writer *w, uint32_t max_session);

/* Flushes the open files if rows were written and 0.5 s have passed since the last flush. */
void xl_writer_files_flush(struct xl_writer *w, uint64_t now);

/*
 * Session @p s has ended (the next one began, or it closes): pre says so
 * on stderr if a toggle signal started or stopped it, once, in the order
 * the sessions ended, whatever its files' grace for late calls.
 */
void xl_writer_files_ended(struct xl_writer *w, struct xl_writer_session *s);

/*
 * Reads session @p s's drop counts from its slot, while the slot is still
 * the session's: the footers' numbers should the slot be taken by a later
 * session before the session closes.
 */
void xl_writer_files_note_counts(struct xl_writer *w, struct xl_writer_session *s);

/*
 * Closes session @p s's files with their footers (after its last GPU
 * samples, bounded); the caller then tells the control block this side
 * finished it. Returns whether its CPU file held a row; its drop counts into @p counts
 * (may be NULL).
 */
bool xl_writer_files_close(struct xl_writer *w, struct xl_writer_session *s,
                           struct xl_session_counts *counts);

#endif /* XL_WRITER_FILES_H */
