/*
 * Per-frame totals in a few pages over a sparse file; see calls_frames.h.
 */
#include "calls_frames.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "spill.h"

#define PAGE_BYTES (CALLS_FRAMES_PAGE * sizeof(struct calls_frame))

/*
 * The pages to hold for @p frames_hint frames: all of them (a quarter
 * more, and one for each end's partial page), rounded up to a power of
 * two (a page's place is then a mask, not a division: the sandwich finds
 * one per call), when that fits in CALLS_FRAMES_PAGES_MAX, else
 * CALLS_FRAMES_PAGES. Pages written back and read again cost a
 * 10^5-frame merge with calls files ~4 %; past the bound a session's
 * frames go to the file anyway, and more pages would only add memory.
 */
static unsigned pages_held(uint64_t frames_hint)
{
	unsigned held = CALLS_FRAMES_PAGES;

	/* More frames than the most held: no sum below to overflow either. */
	if (frames_hint == 0 || frames_hint > (uint64_t)CALLS_FRAMES_PAGES_MAX * CALLS_FRAMES_PAGE)
		return CALLS_FRAMES_PAGES;
	uint64_t pages = (frames_hint + frames_hint / 4) / CALLS_FRAMES_PAGE + 2;
	if (pages > CALLS_FRAMES_PAGES_MAX)
		return CALLS_FRAMES_PAGES;
	while (held < pages)
		held *= 2;
	return held;
}

int calls_frames_init(struct calls_frames *s, const char *dir, uint64_t frames_hint)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->dir = dir;
	s->held = pages_held(frames_hint);
	s->page = calloc(s->held, sizeof(*s->page));
	if (!s->page || idmap_create(&s->slots) != 0 || idmap_create(&s->used_pages) != 0) {
		calls_frames_destroy(s); /* what was made */
		return -1;
	}
	/* The pages' memory comes with their first use (load()): a short
	 * session touches what it needs only. */
	for (unsigned i = 0; i < s->held; i++)
		s->page[i].index = -1;
	return 0;
}

void calls_frames_destroy(struct calls_frames *s)
{
	for (unsigned i = 0; s->page && i < s->held; i++)
		mem_free(s->page[i].frames);
	free(s->page);
	idmap_destroy(&s->slots);
	idmap_destroy(&s->used_pages);
	mem_free(s->used);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* Where page @p index lives in the file: a place given at its first use. */
static int place_of(struct calls_frames *s, int64_t index, off_t *off)
{
	uint32_t slot;

	if (idmap_get(&s->slots, (uint64_t)index, &slot, NULL) != 0) {
		s->error = ENOMEM;
		return -1;
	}
	*off = (off_t)((uint64_t)slot * PAGE_BYTES);
	return 0;
}

/* Writes page @p p back to the file (opened the first time). Returns 0 or -1. */
static int write_back(struct calls_frames *s, struct calls_frames_page *p)
{
	off_t off;

	if (!p->dirty)
		return 0;
	if (s->fd < 0 && spill_open_file(s->dir, &s->fd, &s->error) != 0)
		return -1;
	if (place_of(s, p->index, &off) != 0)
		return -1;
	if (spill_pwrite_all(s->fd, p->frames, PAGE_BYTES, off, &s->error) != 0)
		return -1;
	p->dirty = false;
	return 0;
}

/* Reads @p n bytes at @p off of @p fd into @p out (zeros past the file's end). Returns 0 or -1. */
static int pread_full(int fd, void *out, size_t n, off_t off)
{
	char *b = out;
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, b + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	memset(b + got, 0, n - got);
	return 0;
}

/* Reads page @p index into @p p: what the file has of it, zeros past its end or in a hole. */
static int load(struct calls_frames *s, struct calls_frames_page *p, int64_t index)
{
	off_t off = 0;

	if (!p->frames && !(p->frames = mem_alloc(PAGE_BYTES))) {
		s->error = ENOMEM;
		return -1;
	}
	if (s->fd < 0) {
		memset(p->frames, 0, PAGE_BYTES);
	} else if (place_of(s, index, &off) != 0) {
		return -1;
	} else if (pread_full(s->fd, p->frames, PAGE_BYTES, off) != 0) {
		s->error = errno;
		return -1;
	}
	/* Its frames are in place before a reader can see it (calls_frames_read_final()). */
	__atomic_store_n(&p->index, index, __ATOMIC_RELEASE);
	return 0;
}

/*
 * The published bound no longer holds: from now on readers give up, and
 * those still copying are waited for, so the change that follows races
 * none of them.
 */
static void progress_break(struct calls_frames *s)
{
	s->broke = true;
	atomic_store(&s->progress->broken, true);
	while (atomic_load(&s->progress->readers) > 0)
		sched_yield();
}

/* The page holding slot @p slot, loaded. NULL on a file error. */
static struct calls_frames_page *page_of(struct calls_frames *s, uint64_t slot)
{
	int64_t index = (int64_t)(slot / CALLS_FRAMES_PAGE);
	struct calls_frames_page *p = &s->page[(uint64_t)index & (s->held - 1)];

	if (p->index == index)
		return p;
	/* Another page's frames make room: a reader may be copying them. */
	if (p->index >= 0 && s->progress && !s->broke)
		progress_break(s);
	s->last = NULL; /* it may be on the page that goes */
	if (s->error || write_back(s, p) != 0 || load(s, p, index) != 0)
		return NULL;
	return p;
}

struct calls_frame *calls_frames_at_other(struct calls_frames *s, uint64_t id)
{
	if (!s->any) {
		/* Ids are within CALLS_FRAME_SPAN of the file's first one, so
		 * within twice that of any of them, below or above. */
		s->origin = id > 2 * CALLS_FRAME_SPAN ? id - 2 * CALLS_FRAME_SPAN : 0;
		s->min_id = s->max_id = id;
		s->any = true;
	}
	if (id < s->origin || id - s->origin > 4 * CALLS_FRAME_SPAN) {
		s->error = ERANGE;
		return NULL;
	}
	if (id < s->published && !s->broke)
		progress_break(s); /* published: a reader may be copying it */
	struct calls_frames_page *p = page_of(s, id - s->origin);
	if (!p)
		return NULL;
	if (id < s->min_id)
		s->min_id = id;
	if (id > s->max_id)
		s->max_id = id;
	p->dirty = true;
	s->last_id = id;
	s->last = &p->frames[(id - s->origin) % CALLS_FRAMES_PAGE];
	return s->last;
}

int calls_frames_get(struct calls_frames *s, uint64_t id, struct calls_frame *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->any || id < s->min_id || id > s->max_id)
		return 0;
	struct calls_frames_page *p = page_of(s, id - s->origin);
	if (!p)
		return -1;
	*out = p->frames[(id - s->origin) % CALLS_FRAMES_PAGE];
	return 0;
}

/* Frames [slot, slot + n) of one page, from memory, the file or neither. */
static int read_in_page(const struct calls_frames *s, uint64_t slot, size_t n, struct calls_frame *out)
{
	int64_t index = (int64_t)(slot / CALLS_FRAMES_PAGE);
	const struct calls_frames_page *p = &s->page[(uint64_t)index & (s->held - 1)];
	size_t at = slot % CALLS_FRAMES_PAGE;
	uint32_t place;

	if (p->index == index) {
		memcpy(out, p->frames + at, n * sizeof(*out));
		return 0;
	}
	if (s->fd < 0 || idmap_find(&s->slots, (uint64_t)index, &place) != 0) {
		memset(out, 0, n * sizeof(*out)); /* never written back: never touched */
		return 0;
	}
	off_t off = (off_t)((uint64_t)place * PAGE_BYTES + at * sizeof(*out));
	return pread_full(s->fd, out, n * sizeof(*out), off);
}

int calls_frames_read(const struct calls_frames *s, uint64_t first_id, size_t n,
                      struct calls_frame *out)
{
	for (size_t i = 0; i < n;) {
		uint64_t id = first_id + i;
		if (!s->any || id < s->min_id || id > s->max_id) {
			memset(&out[i], 0, sizeof(out[i]));
			i++;
			continue;
		}
		uint64_t slot = id - s->origin;
		size_t run = CALLS_FRAMES_PAGE - slot % CALLS_FRAMES_PAGE;
		if (run > n - i)
			run = n - i;
		if (run > s->max_id - id + 1)
			run = (size_t)(s->max_id - id + 1);
		if (read_in_page(s, slot, run, &out[i]) != 0)
			return -1;
		i += run;
	}
	return 0;
}

void calls_frames_share(struct calls_frames *s, struct calls_frames_progress *p)
{
	s->progress = p;
}

void calls_frames_publish(struct calls_frames *s, uint64_t id)
{
	if (!s->progress || s->broke || id <= s->published)
		return;
	s->published = id;
	/* The frames below, as written, before the bound: with it. */
	atomic_store_explicit(&s->progress->final_below, id, memory_order_release);
}

/* Frame @p id into @p out if its page is in memory, else zeros (never touched). */
static void copy_final(const struct calls_frames *s, uint64_t id, struct calls_frame *out)
{
	uint64_t slot = id - s->origin;
	int64_t index = (int64_t)(slot / CALLS_FRAMES_PAGE);
	const struct calls_frames_page *p = &s->page[(uint64_t)index & (s->held - 1)];

	if (__atomic_load_n(&p->index, __ATOMIC_ACQUIRE) == index)
		*out = p->frames[slot % CALLS_FRAMES_PAGE];
	else
		memset(out, 0, sizeof(*out));
}

int calls_frames_read_final(const struct calls_frames *s, uint64_t first_id, size_t n,
                            struct calls_frame *out)
{
	struct calls_frames_progress *p = s->progress;
	int ret = 1;

	if (!p)
		return -1;
	/* Counted in before the bound is checked: the sandwich, which sets
	 * broken before it counts the readers, either sees this one or is
	 * seen to have broken the bound. */
	atomic_fetch_add(&p->readers, 1);
	uint64_t below = atomic_load_explicit(&p->final_below, memory_order_acquire);
	if (atomic_load(&p->broken))
		ret = -1;
	else if (first_id + n > below || first_id + n < first_id)
		ret = 0;
	/* A bound above 0 came after the first frame, which set the origin. */
	for (size_t i = 0; ret == 1 && i < n; i++) {
		if (first_id + i < s->origin)
			memset(&out[i], 0, sizeof(out[i]));
		else
			copy_final(s, first_id + i, &out[i]);
	}
	atomic_fetch_sub(&p->readers, 1);
	return ret;
}

int calls_frames_mark_used(struct calls_frames *s, uint64_t id)
{
	/* By the id itself, not from s->origin: the sandwich sets that, on
	 * its thread, maybe while the rows are being marked. */
	uint64_t slot = id;
	uint32_t page;
	int is_new;

	if (idmap_get(&s->used_pages, slot / CALLS_FRAMES_PAGE, &page, &is_new) != 0)
		return -1;
	if (is_new && page >= s->used_cap) {
		size_t cap = s->used_cap ? s->used_cap * 2 : 64;
		void *p = mem_realloc(s->used, cap * sizeof(*s->used));
		if (!p)
			return -1;
		s->used = p;
		s->used_cap = cap;
	}
	if (is_new)
		memset(s->used[page], 0, sizeof(s->used[page]));
	uint64_t bit = UINT64_C(1) << (slot % 64);
	uint64_t *word = &s->used[page][slot % CALLS_FRAMES_PAGE / 64];
	if (*word & bit)
		return 0;
	*word |= bit;
	return 1;
}
