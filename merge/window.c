/*
 * The join's sliding window over one side's rows; see window.h.
 */
#include "window.h"

#include "mem.h"

#include <stdlib.h>
#include <string.h>

/* Rows a window starts with room for: what it holds in the usual case
 * (behind, ahead and a batch), so it never grows there. */
#define WINDOW_START_CAP (2 * (WINDOW_AHEAD + WINDOW_BEHIND))

static int grow(struct window *w);

int window_init(struct window *w, const struct window_source *src)
{
	memset(w, 0, sizeof(*w));
	w->src = *src;
	return grow(w);
}

void window_destroy(struct window *w)
{
	mem_free(w->rows);
	mem_free(w->used);
	mem_free(w->chain);
	mem_free(w->heads);
	memset(w, 0, sizeof(*w));
}

static void *row_at(const struct window *w, uint64_t i)
{
	return w->rows + (size_t)(i - w->base) * w->src.row_size;
}

/* Forgets the rows before @p keep (index); bucket links to them read as "none". */
static void drop_before(struct window *w, uint64_t keep)
{
	size_t n = (size_t)(keep - w->base);

	if (n == 0)
		return;
	w->len -= n;
	memmove(w->rows, w->rows + n * w->src.row_size, w->len * w->src.row_size);
	memmove(w->used, w->used + n, w->len);
	w->hashed = w->hashed > n ? w->hashed - n : 0;
	memmove(w->chain, w->chain + n, w->hashed * sizeof(*w->chain));
	w->base = keep;
}

/* Adds row @p k (index - base) to its bucket. */
static void index_row(struct window *w, size_t k)
{
	size_t h = w->src.hash(w->rows + k * w->src.row_size) & w->head_mask;

	w->chain[k] = w->heads[h];
	w->heads[h] = w->base + k + 1;
}

/*
 * A bucket table as large as the window's capacity (chains are short:
 * keys are unique but for a few repeats), rebuilt from the rows held.
 */
static int rehash(struct window *w, size_t cap)
{
	size_t size = cap;
	uint64_t *heads = mem_calloc(size, sizeof(*heads));

	if (!heads)
		return -1;
	mem_free(w->heads);
	w->heads = heads;
	w->head_mask = size - 1;
	for (size_t k = 0; k < w->hashed; k++)
		index_row(w, k);
	return 0;
}

static int grow(struct window *w)
{
	size_t cap = w->cap ? w->cap * 2 : WINDOW_START_CAP;
	char *rows = mem_realloc(w->rows, cap * w->src.row_size);
	if (rows)
		w->rows = rows;
	uint8_t *used = mem_realloc(w->used, cap);
	if (used)
		w->used = used;
	uint64_t *chain = mem_realloc(w->chain, cap * sizeof(*chain));
	if (chain)
		w->chain = chain;
	if (!rows || !used || !chain || rehash(w, cap) != 0)
		return -1;
	w->cap = cap;
	return 0;
}

/* Makes room in a full window. Returns 0 or -1 (out of memory). */
static int make_room(struct window *w)
{
	/* Rows far behind the cursor can no longer match: make room. */
	uint64_t keep = w->cursor > WINDOW_BEHIND ? w->cursor - WINDOW_BEHIND : 0;

	if (keep > w->base && keep - w->base >= w->len / 4) {
		drop_before(w, keep);
		return 0;
	}
	return grow(w);
}

/* Appends the @p n rows at @p rows, as many at a time as fit. Returns 0 or -1. */
static int append(struct window *w, const char *rows, size_t n)
{
	size_t size = w->src.row_size;

	while (n > 0) {
		if (w->len == w->cap && make_room(w) != 0)
			return -1;
		size_t k = w->cap - w->len < n ? w->cap - w->len : n;
		memcpy(w->rows + w->len * size, rows, k * size);
		memset(w->used + w->len, 0, k);
		w->len += k;
		rows += k * size;
		n -= k;
	}
	return 0;
}

/* Pulls batches until row @p upto is held or the source ends. */
static int fill(struct window *w, uint64_t upto)
{
	while (!w->eof && !w->err && w->base + w->len < upto) {
		const void *rows;
		size_t n;
		int r = w->src.pull(w->src.ctx, &rows, &n);
		if (r < 0) {
			w->err = -1;
			break;
		}
		if (append(w, rows, n) != 0) {
			w->err = -1;
			return -1;
		}
		w->total += n;
		w->eof = r == 0;
	}
	return w->err;
}

static bool is_used(const struct window *w, uint64_t i)
{
	return i < w->base + w->len && w->used[i - w->base];
}

/* The earliest unused row with @p key in the window, through the bucket chain. */
static uint64_t lookup(struct window *w, const void *key)
{
	for (; w->hashed < w->len; w->hashed++)
		index_row(w, w->hashed);

	uint64_t link = w->heads ? w->heads[w->src.hash(key) & w->head_mask] : 0;
	uint64_t found = WINDOW_NONE;

	/* Newest to oldest: a link before base means the rest is gone too. */
	while (link && link - 1 >= w->base) {
		uint64_t i = link - 1;
		if (!w->used[i - w->base] && w->src.same(row_at(w, i), key))
			found = i;
		link = w->chain[i - w->base];
	}
	return found;
}

uint64_t window_take(struct window *w, const void *key, const void **row)
{
	uint64_t m = WINDOW_NONE;

	if (fill(w, w->cursor + (w->src.lazy ? JOIN_SCAN : WINDOW_AHEAD)) != 0)
		return WINDOW_NONE;
	uint64_t hi = w->base + w->len;
	uint64_t end = w->cursor + JOIN_SCAN < hi ? w->cursor + JOIN_SCAN : hi;
	for (uint64_t k = w->cursor; k < end; k++) {
		if (!is_used(w, k) && w->src.same(row_at(w, k), key)) {
			m = k;
			break;
		}
	}
	if (m == WINDOW_NONE && w->src.lazy && fill(w, w->cursor + WINDOW_AHEAD) != 0)
		return WINDOW_NONE;
	if (m == WINDOW_NONE)
		m = lookup(w, key);
	if (m == WINDOW_NONE)
		return WINDOW_NONE;
	w->used[m - w->base] = 1;
	*row = row_at(w, m);
	/* The cursor moves as the whole-file join's did: past a match well
	 * ahead of it (rows left behind stay reachable through the index),
	 * then past used rows. */
	if (m >= w->cursor + JOIN_SCAN / 2)
		w->cursor = m + 1;
	while (is_used(w, w->cursor))
		w->cursor++;
	return m;
}

int window_drain(struct window *w)
{
	while (!w->eof && !w->err) {
		const void *rows;
		size_t n;
		int r = w->src.pull(w->src.ctx, &rows, &n);
		if (r < 0)
			w->err = -1;
		else
			w->total += n;
		w->eof = r == 0;
	}
	return w->err;
}
