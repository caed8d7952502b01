/*
 * The sandwich's per-frame totals (struct calls_frame), indexed by frame
 * id, in bounded memory: pages of CALLS_FRAMES_PAGE frames, a few of them
 * held (direct-mapped by page number, written back when evicted), the rest
 * in an unnamed temporary file (as spill.h's), each page at the place it
 * got when first used (a 12-byte map entry per page); a frame never
 * touched reads as zeros. Frame ids lie within CALLS_FRAME_SPAN of the
 * first one (a corrupt file is refused before), so ids may come in any
 * order, higher or lower than the first.
 */
#ifndef XRLM_CALLS_FRAMES_H
#define XRLM_CALLS_FRAMES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idmap.h"
#include "u_phase.h"

/* Frame ids further than this from the first one are a corrupt file. */
#define CALLS_FRAME_SPAN (UINT64_C(1) << 26)

#define CALLS_FRAMES_PAGE 1024 /* frames per page */
#define CALLS_FRAMES_PAGES 32  /* pages held (3 MB, each allocated at its first use): a short session needs no file */
/* Pages held at most (13 MB), for a session expected to fit in them (calls_frames_init()); a power of two, as CALLS_FRAMES_PAGES */
#define CALLS_FRAMES_PAGES_MAX 128

/* One frame (a pre frame_id) as pre's calls saw it. */
struct calls_frame {
	int64_t phase_ns[U_PHASE_COUNT]; /* exclusive target time per phase */
	int64_t wait_entry, wait_exit;   /* the first xrWaitFrame */
	int64_t begin_entry, begin_exit; /* the first xrBeginFrame */
	int64_t end_exit;                /* the first xrEndFrame */
	uint8_t has;                     /* CALLS_HAS_* */
};

#define CALLS_HAS_ANY 1
#define CALLS_HAS_WAIT 2
#define CALLS_HAS_BEGIN 4
#define CALLS_HAS_END 8
/* It began before the recording (calls_result.complete_from): its phases are not known. */
#define CALLS_HAS_PARTIAL 16

/*
 * How far the frames are final while the sandwich still fills later ones,
 * for threads that read them meanwhile (calls_frames_read_final(): the
 * merged rows formatted while the sandwich runs). The sandwich publishes
 * a bound below which it expects to change no frame; should it change one
 * after all (a call later in its file than the bound allowed for), or
 * write a page back to make room, the bound is broken for good: what was
 * read is to be thrown away. A reader counts itself in readers while it
 * copies, and the sandwich waits for none to be left before it changes a
 * frame below the bound, so no copy ever races a change.
 */
struct calls_frames_progress {
	_Atomic uint64_t final_below; /* frames with a lower id are final */
	atomic_bool broken;           /* one was changed after all: nothing read is valid */
	atomic_int readers;           /* threads copying frames now */
};

struct calls_frames_page {
	int64_t index; /* page number held, -1: none */
	bool dirty;
	struct calls_frame *frames;
};

struct calls_frames {
	struct calls_frames_page *page; /* held of them */
	unsigned held;            /* pages held, a power of two: page number modulo this is its place */
	uint64_t origin;          /* the frame id at the file's start */
	uint64_t min_id, max_id;  /* ids touched, when any */
	bool any;
	struct idmap slots;       /* page number -> its place in the file */
	int fd;                   /* -1 until a page is first written back */
	const char *dir;          /* where the file goes (borrowed); NULL: $TMPDIR or /tmp */
	int error;                /* errno of the first failed file operation */
	/* Which frames a merged row maps to: a bit per frame of each page
	 * marked in (calls_frames_mark_used()), kept apart from the frames so
	 * that marking one does not make its page write back, and on cache
	 * lines of their own: the rows are marked on another thread while
	 * the sandwich fills the frames. */
	/* NULL, or where final frames are published (calls_frames_share()). */
	struct calls_frames_progress *progress;
	uint64_t published; /* the sandwich's last published bound */
	bool broke;         /* the sandwich broke it */
	/* The last frame calls_frames_at() gave (NULL: none, or its page
	 * gone): a frame's calls come together, and most ask for it again. */
	struct calls_frame *last;
	uint64_t last_id;
	_Alignas(64) struct idmap used_pages; /* page number -> its bits in used */
	uint64_t (*used)[CALLS_FRAMES_PAGE / 64];
	size_t used_cap;
};

/*
 * Prepares @p s, its file (when needed) in @p dir, for about
 * @p frames_hint frames (0: unknown): when they fit in
 * CALLS_FRAMES_PAGES_MAX pages, that many are held and none goes to the
 * file, else CALLS_FRAMES_PAGES. Returns 0, or -1 when out of memory.
 */
int calls_frames_init(struct calls_frames *s, const char *dir, uint64_t frames_hint);

/* Frees the pages and closes (so removes) the file. */
void calls_frames_destroy(struct calls_frames *s);

/* calls_frames_at() for a frame other than the last one it gave. */
struct calls_frame *calls_frames_at_other(struct calls_frames *s, uint64_t id);

/*
 * Frame @p id (within 2 * CALLS_FRAME_SPAN of the first id asked for), to
 * change: valid until the next call. NULL on a file error (s->error set,
 * ERANGE for an id out of that span). Inline: the sandwich asks for one
 * per call, mostly the last one again, which is given back at once unless
 * it lies below the published bound (then calls_frames_at_other() breaks
 * the bound, as for any frame).
 */
static inline struct calls_frame *calls_frames_at(struct calls_frames *s, uint64_t id)
{
	if (s->last && id == s->last_id && (id >= s->published || s->broke))
		return s->last;
	return calls_frames_at_other(s, id);
}

/*
 * Frame @p id as it stands, into @p out (zeros for a frame never touched
 * or out of the span). Returns 0, or -1 on a file error.
 */
int calls_frames_get(struct calls_frames *s, uint64_t id, struct calls_frame *out);

/*
 * Frames @p first_id to @p first_id + @p n - 1 as they stand, into
 * @p out (zeros as calls_frames_get() gives them), changing nothing:
 * several threads may read at once once nothing changes the frames any
 * more. Returns 0, or -1 when the file cannot be read (errno set).
 */
int calls_frames_read(const struct calls_frames *s, uint64_t first_id, size_t n,
                      struct calls_frame *out);

/*
 * Lets other threads read the frames below a bound while this one fills
 * the others: @p p (zeroed, outliving @p s's use) gets the bounds given
 * to calls_frames_publish(). Call it before the first frame.
 */
void calls_frames_share(struct calls_frames *s, struct calls_frames_progress *p);

/* Frames below @p id will not change any more (as far as the caller knows: see struct calls_frames_progress). */
void calls_frames_publish(struct calls_frames *s, uint64_t id);

/*
 * From another thread than the one filling @p s (shared by
 * calls_frames_share()): frames @p first_id to @p first_id + @p n - 1
 * into @p out, as calls_frames_read() gives them, if they are all below
 * the published bound. Returns 1 when copied, 0 when they are not all
 * final yet, -1 when the bound was broken (they never will be, here).
 */
int calls_frames_read_final(const struct calls_frames *s, uint64_t first_id, size_t n,
                            struct calls_frame *out);

/*
 * Marks frame @p id as one a merged row maps to. Returns 1 the first time,
 * 0 after, -1 when out of memory. It touches only the marks: one thread
 * may mark while another fills the frames (the sandwich).
 */
int calls_frames_mark_used(struct calls_frames *s, uint64_t id);

#endif /* XRLM_CALLS_FRAMES_H */
