/*
 * Items in memory, then in an unnamed temporary file; see spill.h.
 */
#include "spill.h"

#include "mem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int spill_init(struct spill *s, size_t item_size, size_t mem_items, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->item_size = item_size;
	s->mem_items = mem_items ? mem_items : 1;
	s->fd = -1;
	s->dir = dir;
	/* Memory grows with what is appended: a short session touches little
	 * (fresh memory costs a page fault per 4 KiB, or a 2 MiB clear). */
	s->mem_cap = SPILL_FIRST_BYTES / item_size;
	if (s->mem_cap == 0)
		s->mem_cap = 1;
	if (s->mem_cap > s->mem_items)
		s->mem_cap = s->mem_items;
	s->mem = mem_alloc(s->mem_cap * item_size);
	return s->mem ? 0 : -1;
}

/* Doubles the memory, up to mem_items. Returns false when it cannot grow. */
static bool grow(struct spill *s)
{
	size_t cap = s->mem_cap * 2 < s->mem_items ? s->mem_cap * 2 : s->mem_items;

	if (cap <= s->mem_cap)
		return false;
	char *mem = mem_realloc(s->mem, cap * s->item_size);
	if (!mem)
		return false; /* the file takes the rest */
	s->mem = mem;
	s->mem_cap = cap;
	return true;
}

/* A shared spill's lock and what it publishes (spill_share()). */
struct spill_share {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint64_t published; /* items [0, published) may be read */
	bool ended;         /* no more will be published */
};

void spill_destroy(struct spill *s)
{
	if (s->share) {
		pthread_cond_destroy(&s->share->changed);
		pthread_mutex_destroy(&s->share->lock);
		free(s->share);
	}
	mem_free(s->mem);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

int spill_open_file(const char *dir, int *fd, int *error)
{
	if (!dir || !dir[0])
		dir = getenv("TMPDIR");
	if (!dir || !dir[0])
		dir = "/tmp";

	*fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return 0;
	/* File systems without O_TMPFILE: a private name, removed at once. */
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/.xrlm-spill-XXXXXX", dir) >= (int)sizeof(path)) {
		*error = ENAMETOOLONG;
		return -1;
	}
	*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0) {
		*error = errno;
		return -1;
	}
	unlink(path);
	return 0;
}

static int open_file(struct spill *s)
{
	return spill_open_file(s->dir, &s->fd, &s->error);
}

int spill_pwrite_all(int fd, const void *data, size_t n, off_t off, int *error)
{
	const char *p = data;

	while (n > 0) {
		ssize_t w = pwrite(fd, p, n, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*error = w < 0 ? errno : EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

static int pwrite_all(struct spill *s, const char *p, size_t n, off_t off)
{
	return spill_pwrite_all(s->fd, p, n, off, &s->error);
}

/* spill_flush(), with a shared spill's lock held (or none). */
static int flush_items(struct spill *s)
{
	size_t n = (size_t)(s->count - s->flushed);

	if (s->error)
		return -1;
	if (n == 0 || (s->fd < 0 && s->count < s->mem_cap))
		return 0; /* all still fits in memory: no file */
	if (s->fd < 0 && open_file(s) != 0)
		return -1;
	if (s->on_flush)
		s->on_flush(s->flush_ctx, s->mem, n);
	if (pwrite_all(s, s->mem, n * s->item_size, (off_t)(s->flushed * s->item_size)) != 0)
		return -1;
	s->flushed = s->count;
	return 0;
}

int spill_flush(struct spill *s)
{
	/* A shared spill's readers copy from the memory under the lock. */
	if (s->share)
		pthread_mutex_lock(&s->share->lock);
	int ret = flush_items(s);
	if (s->share)
		pthread_mutex_unlock(&s->share->lock);
	return ret;
}

/* Room in memory for one more item: the memory grown, or its items flushed. Returns 0 or -1. */
static int make_room(struct spill *s)
{
	if (grow(s))
		return 0;
	if (s->fd < 0 && open_file(s) != 0)
		return -1;
	return flush_items(s);
}

void *spill_append(struct spill *s)
{
	if (s->count - s->flushed == s->mem_cap) {
		/* A shared spill's reader copies from the memory under the lock. */
		if (s->share)
			pthread_mutex_lock(&s->share->lock);
		int ret = make_room(s);
		if (s->share)
			pthread_mutex_unlock(&s->share->lock);
		if (ret != 0)
			return NULL;
	}
	return s->mem + (size_t)(s->count++ - s->flushed) * s->item_size;
}

void *spill_append_n(struct spill *s, size_t *n)
{
	char *first = spill_append(s);

	if (!first)
		return NULL;
	size_t room = s->mem_cap - (size_t)(s->count - s->flushed);
	size_t more = *n - 1 < room ? *n - 1 : room;
	s->count += more;
	*n = 1 + more;
	return first;
}

int spill_share(struct spill *s)
{
	struct spill_share *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return -1;
	if (pthread_mutex_init(&sh->lock, NULL) != 0) {
		free(sh);
		return -1;
	}
	if (pthread_cond_init(&sh->changed, NULL) != 0) {
		pthread_mutex_destroy(&sh->lock);
		free(sh);
		return -1;
	}
	s->share = sh;
	return 0;
}

void spill_publish(struct spill *s, bool end)
{
	spill_publish_to(s, s->count, end);
}

void spill_publish_to(struct spill *s, uint64_t count, bool end)
{
	struct spill_share *sh = s->share;

	if (count > s->count)
		count = s->count;
	pthread_mutex_lock(&sh->lock);
	if (count > sh->published)
		sh->published = count;
	sh->ended = sh->ended || end;
	pthread_cond_broadcast(&sh->changed);
	pthread_mutex_unlock(&sh->lock);
}

int spill_read_published(const struct spill *s, uint64_t first, size_t n, void *out, size_t *got)
{
	struct spill_share *sh = s->share;
	pthread_mutex_lock(&sh->lock);
	while (sh->published <= first && !sh->ended)
		pthread_cond_wait(&sh->changed, &sh->lock);
	uint64_t published = sh->published;
	*got = published > first ? (size_t)(published - first < n ? published - first : n) : 0;
	int ret = *got > 0 ? spill_read(s, first, *got, out) : 0;
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

void *spill_item(struct spill *s, uint64_t i)
{
	if (i < s->flushed || i >= s->count)
		return NULL;
	return s->mem + (size_t)(i - s->flushed) * s->item_size;
}

int spill_patch(struct spill *s, uint64_t i, size_t offset, const void *data, size_t n)
{
	char *in_memory = spill_item(s, i);

	if (in_memory) {
		memcpy(in_memory + offset, data, n);
		return 0;
	}
	return pwrite_all(s, data, n, (off_t)(i * s->item_size + offset));
}

int spill_read(const struct spill *s, uint64_t first, size_t n, void *out)
{
	char *p = out;
	size_t file_items = first < s->flushed ? (size_t)(s->flushed - first < n ? s->flushed - first : n) : 0;
	size_t bytes = file_items * s->item_size;
	off_t off = (off_t)(first * s->item_size);

	/* The part in the file... */
	while (bytes > 0) {
		ssize_t r = pread(s->fd, p, bytes, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return -1;
		}
		p += r;
		off += r;
		bytes -= (size_t)r;
	}
	/* ... then the part still in memory. */
	first += file_items;
	n -= file_items;
	if (n > 0)
		memcpy(p, s->mem + (size_t)(first - s->flushed) * s->item_size, n * s->item_size);
	return 0;
}
