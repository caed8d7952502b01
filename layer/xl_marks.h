/*
 * User marks (`xrlm ctl mark PID TEXT`) on their way from pre's control
 * thread into the session's per-side CPU files, where each side's writer
 * writes them as "# mark t=<ns> text=<escaped>" lines (README, "Control
 * socket"). A few slots, a lock shared by the control thread and the two
 * writers: never touched by a frame thread.
 *
 * The control thread adds a mark (xl_marks_add), each writer writes what
 * is pending for the session it has open (xl_marks_write), and the control
 * thread reads the outcome and frees the slot (xl_marks_result).
 */
#ifndef XL_MARKS_H
#define XL_MARKS_H

#include "u_ctl.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Marks waiting for the writers at once. */
#define XL_MARKS_SLOTS 8

struct xl_mark {
	uint64_t seq;        /* 0: free */
	uint64_t t_ns;       /* CLOCK_MONOTONIC when the request arrived */
	uint32_t session_id; /* the session recording then */
	uint8_t done;        /* bit per side: that side is done with it */
	uint8_t written;     /* bit per side: and wrote it into its file */
	bool abandoned;      /* nobody waits for its outcome: freed once both sides are done */
	char text[U_CTL_ESCAPED_SIZE(U_CTL_MARK_MAX)]; /* escaped */
};

struct xl_marks {
	pthread_mutex_t lock;
	uint64_t next_seq;
	struct xl_mark slots[XL_MARKS_SLOTS];
};

/* Outcome of a mark, once both sides are done with it. */
enum xl_mark_result { XL_MARK_PENDING, XL_MARK_WRITTEN, XL_MARK_LOST };

/* Empties @p m and creates its lock (with the control block). */
void xl_marks_init(struct xl_marks *m);

/* Destroys @p m's lock (with the control block). */
void xl_marks_fini(struct xl_marks *m);

/*
 * Queues a mark of session @p session_id with its escaped @p text.
 * Returns its sequence number, or 0 when every slot is busy.
 */
uint64_t xl_marks_add(struct xl_marks *m, uint32_t session_id, uint64_t t_ns, const char *text);

/* Sessions a writer holds open at once: the current one and the ended one in its grace. */
#define XL_MARKS_OPEN 2

/*
 * Writer of side @p side: writes every pending mark of the sessions
 * @p open_ids (0: no file open in that place) with @p write, told the
 * mark's place in @p open_ids (false: the write failed, the mark is
 * lost), and gives up on marks of sessions up to @p closed_id (ended
 * before this side could write them). One pass over the slots for all.
 */
void xl_marks_write(struct xl_marks *m, unsigned side, const uint32_t open_ids[XL_MARKS_OPEN],
                    uint32_t closed_id, bool (*write)(void *ctx, unsigned at, const char *line),
                    void *ctx);

/*
 * The outcome of mark @p seq; a result other than XL_MARK_PENDING frees
 * its slot, as does @p give_up (the caller stops waiting).
 */
enum xl_mark_result xl_marks_result(struct xl_marks *m, uint64_t seq, bool give_up);

/*
 * Nobody will ask for mark @p seq's outcome (its client hung up): it is
 * still written, and its slot freed once both sides are done with it.
 */
void xl_marks_abandon(struct xl_marks *m, uint64_t seq);

#endif /* XL_MARKS_H */
