/*
 * Writing the merged CSV; see merged_write.h.
 */
#include "merged_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "mem.h"
#include "out_file.h"
#include "quote.h"
#include "u_phase.h"
#include "workers.h"

#define MERGED_BUF_SIZE (1u << 20)
/* Most items per block of the row writers, and the largest buffer a block is formatted in
 * (a normal row is under 150 bytes; a block that does not fit is written
 * in several pieces). */
#define MERGED_BLOCK_ITEMS 16384
#define MERGED_BLOCK_BUF (4u << 20)
/* Rows that make another worker worth its start (a thread, a buffer). */
#define MERGED_WORKER_ROWS 1024
/* Bytes of buffer per row of a block: a plain row's length, rounded up. */
#define MERGED_BLOCK_ROW_BYTES 128

static void flush(struct merged_writer *o)
{
	size_t off = 0;

	while (off < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->error = n < 0 ? errno : EIO;
			break;
		}
		off += (size_t)n;
	}
	o->len = 0;
}

/* Room for one more row or line. */
static char *reserve(struct merged_writer *o)
{
	if (o->len + MERGED_ROW_MAX > MERGED_BUF_SIZE)
		flush(o);
	return o->buf + o->len;
}

static void commit_bytes(struct merged_writer *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}

/* See merged_write_open(): SIGXFSZ must turn into EFBIG, never kill. */
static void block_xfsz(struct merged_writer *o)
{
	sigset_t xfsz;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, &o->old_mask);
}

static void restore_xfsz(struct merged_writer *o)
{
	const struct timespec now = {0, 0};
	sigset_t xfsz, pending;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	/* Take the signal a write past the limit left, unless the caller had
	 * it blocked itself (then it is the caller's to handle). */
	if (!sigismember(&o->old_mask, SIGXFSZ) && sigpending(&pending) == 0 &&
	    sigismember(&pending, SIGXFSZ))
		sigtimedwait(&xfsz, NULL, &now);
	pthread_sigmask(SIG_SETMASK, &o->old_mask, NULL);
}

/* Allocates the buffer and creates the temporary file; see merged_write_open(). */
static int create_temp(struct merged_writer *o, const char *path, char *msg, size_t msg_size)
{
	char q[QUOTE_PATH_MAX];

	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path)) {
		snprintf(msg, msg_size, "%.200s...: error: path too long", quote_path(q, path));
		return -1;
	}
	o->buf = mem_alloc(MERGED_BUF_SIZE);
	if (!o->buf) {
		snprintf(msg, msg_size, "%s: error: out of memory", quote_path(q, path));
		return -1;
	}

	o->fd = out_file_create_tmp(path, o->tmp_path, sizeof(o->tmp_path), msg, msg_size);
	if (o->fd >= 0)
		return 0;
	mem_free(o->buf);
	o->buf = NULL;
	return -1;
}

int merged_write_open(struct merged_writer *o, const char *path, char *msg, size_t msg_size)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	block_xfsz(o);
	int ret = create_temp(o, path, msg, msg_size);
	if (ret != 0)
		restore_xfsz(o);
	return ret;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

static void line_u64(struct merged_writer *o, const char *key, uint64_t v)
{
	char *p = reserve(o);
	p = put_str(p, "# ");
	p = put_str(p, key);
	*p++ = '=';
	p = fmt_u64(p, v);
	*p++ = '\n';
	commit_bytes(o, p);
}

/*
 * "# key=<v with decimals><suffix>"; a NaN (a statistic without samples)
 * is written as an empty value, "# key=", never as a 0 a reader would
 * take for a measurement.
 */
static void line_fixed(struct merged_writer *o, const char *key, double v, int decimals,
                       const char *suffix)
{
	char *p = reserve(o);
	p = put_str(p, "# ");
	p = put_str(p, key);
	*p++ = '=';
	if (isfinite(v)) {
		p = fmt_fixed(p, v, decimals);
		p = put_str(p, suffix);
	}
	*p++ = '\n';
	commit_bytes(o, p);
}

/* @p v, or NAN when @p s has no samples. */
static double present(const struct stats_summary *s, double v)
{
	return s->count ? v : NAN;
}

static void line_text(struct merged_writer *o, const char *key, const char *text)
{
	char *p = reserve(o);
	p = put_str(p, "# ");
	p = put_str(p, key);
	*p++ = '=';
	/* The name came from one line of a per-side file, but keep the
	 * output one line per key whatever it holds. */
	for (size_t i = 0; text[i] && i < MERGE_NAME_MAX; i++)
		*p++ = (text[i] == '\n' || text[i] == '\r') ? ' ' : text[i];
	*p++ = '\n';
	commit_bytes(o, p);
}

#define CALLS_COUNT(name) {#name, offsetof(struct merge_summary, name)}
const struct merged_count merged_calls_counts[MERGED_CALLS_COUNTS] = {
	CALLS_COUNT(calls_pre),
	CALLS_COUNT(calls_post),
	CALLS_COUNT(self_answered_calls),
	CALLS_COUNT(induced_calls),
	CALLS_COUNT(own_thread_calls),
	CALLS_COUNT(calls_frames_unmapped),
	CALLS_COUNT(rows_without_calls),
	CALLS_COUNT(calls_dropped_queue_full_pre),
	CALLS_COUNT(calls_dropped_queue_full_post),
	CALLS_COUNT(calls_late),
};

/* The counts of the nested-call sandwich (merge/README.md "Calls"). */
static void write_calls_summary(struct merged_writer *o, const struct merge_summary *s)
{
	for (size_t i = 0; i < MERGED_CALLS_COUNTS; i++) {
		const struct merged_count *c = &merged_calls_counts[i];
		line_u64(o, c->key, *(const uint64_t *)((const char *)s + c->offset));
	}
	/* What XRLM_FUNCTIONS recorded: the phases whose columns have values. */
	char phases[U_PHASE_SET_MAX];
	u_phase_set_format(s->phases_recorded, phases);
	line_text(o, "phases_recorded", phases);
}

void merged_write_summary(struct merged_writer *o, const struct merge_summary *s)
{
	const struct stats_summary *cpu = &s->target_cpu_us, *cpct = &s->target_cpu_pct;
	const struct stats_summary *gpu = &s->target_gpu_us, *gpct = &s->target_gpu_pct;

	const struct stats_summary *ivl = &s->frame_interval_us;

	/* The fourteen lines of README "The merged CSV", in this exact order. */
	line_u64(o, "frame_count", s->frame_count);
	line_fixed(o, "target_cpu_ms_mean", present(cpu, cpu->mean / 1000.0), 4, "");
	line_fixed(o, "target_cpu_ms_min", present(cpu, cpu->min / 1000.0), 4, "");
	line_fixed(o, "target_cpu_ms_max", present(cpu, cpu->max / 1000.0), 4, "");
	line_fixed(o, "target_cpu_pct_mean", present(cpct, cpct->mean), 4, "%");
	line_fixed(o, "target_cpu_pct_min", present(cpct, cpct->min), 4, "%");
	line_fixed(o, "target_cpu_pct_max", present(cpct, cpct->max), 4, "%");
	line_u64(o, "gpu_frame_count", s->gpu_frame_count);
	line_fixed(o, "target_gpu_ms_mean", present(gpu, gpu->mean / 1000.0), 4, "");
	line_fixed(o, "target_gpu_ms_min", present(gpu, gpu->min / 1000.0), 4, "");
	line_fixed(o, "target_gpu_ms_max", present(gpu, gpu->max / 1000.0), 4, "");
	line_fixed(o, "target_gpu_pct_mean", present(gpct, gpct->mean), 4, "%");
	line_fixed(o, "target_gpu_pct_min", present(gpct, gpct->min), 4, "%");
	line_fixed(o, "target_gpu_pct_max", present(gpct, gpct->max), 4, "%");

	line_fixed(o, "target_cpu_us_p50", present(cpu, cpu->median), 3, "");
	line_fixed(o, "target_cpu_us_p95", present(cpu, cpu->p95), 3, "");
	line_fixed(o, "target_cpu_us_p99", present(cpu, cpu->p99), 3, "");
	line_fixed(o, "target_gpu_us_p50", present(gpu, gpu->median), 3, "");
	line_fixed(o, "target_gpu_us_p95", present(gpu, gpu->p95), 3, "");
	line_fixed(o, "target_gpu_us_p99", present(gpu, gpu->p99), 3, "");
	line_fixed(o, "frame_interval_us_median", present(ivl, ivl->median), 3, "");
	line_fixed(o, "frame_rate_hz", present(ivl, s->frame_rate_hz), 3, "");
	line_u64(o, "dropped_queue_full_pre", s->dropped_queue_full_pre);
	line_u64(o, "dropped_queue_full_post", s->dropped_queue_full_post);
	line_u64(o, "gpu_ring_overflow_pre", s->gpu_ring_overflow_pre);
	line_u64(o, "gpu_ring_overflow_post", s->gpu_ring_overflow_post);
	line_u64(o, "unmatched_pre", s->unmatched_pre);
	line_u64(o, "unmatched_post", s->unmatched_post);
	line_u64(o, "negative_target_frames", s->negative_target_frames);
	line_u64(o, "truncated_rows", s->truncated_rows);
	if (s->has_bracket_correction)
		line_u64(o, "bracket_correction_ns", s->bracket_correction_ns);
	line_text(o, "target_layer", s->target_layer);
	line_text(o, "gpu_mode", s->gpu_mode);
	line_u64(o, "gate_trips", s->gate_trips);
	if (s->has_calls)
		write_calls_summary(o, s);
	/* With GPU files; empty, as a statistic without samples is, when no
	 * bracket was measured. */
	if (s->has_gpu_raw)
		line_fixed(o, "gpu_bracket_ns", s->has_gpu_bracket ? (double)s->gpu_bracket_ns : NAN, 0,
		           "");

	char *p = reserve(o);
	p = put_str(p, s->has_gpu_raw ? MERGED_HEADER MERGED_CALLS_HEADER MERGED_GPU_RAW_HEADER
	                                        MERGED_GATE_HEADER "\n"
	               : s->has_calls ? MERGED_HEADER MERGED_CALLS_HEADER MERGED_GATE_HEADER "\n"
	                              : MERGED_HEADER MERGED_GATE_HEADER "\n");
	commit_bytes(o, p);
}

size_t merged_write_summary_bytes(const struct merge_summary *s)
{
	struct merged_writer w = {.fd = -1, .buf = mem_alloc(MERGED_BUF_SIZE)};

	if (!w.buf)
		return 0;
	merged_write_summary(&w, s); /* never more than the buffer: nothing is flushed */
	size_t bytes = w.error ? 0 : w.len;
	mem_free(w.buf);
	return bytes;
}

char *merged_write_format_row(char *p, const struct merged_row *r)
{
	p = fmt_i64(p, r->display_time);
	*p++ = ',';
	p = fmt_u64(p, r->thread_id);
	*p++ = ',';
	if (r->has_interval)
		p = fmt_ns_as_us(p, r->interval_ns);
	*p++ = ',';
	p = fmt_ns_as_us(p, r->pre_ns);
	*p++ = ',';
	p = fmt_ns_as_us(p, r->post_ns);
	*p++ = ',';
	p = fmt_ns_as_us(p, r->target_ns);
	*p++ = ',';
	p = fmt_fixed(p, r->cpu_pct, 4); /* writes nothing for NAN */
	*p++ = ',';
	p = fmt_fixed(p, r->gpu_us, 3);
	*p++ = ',';
	p = fmt_fixed(p, r->gpu_pct, 4);
	for (int i = 0; (r->has_calls || r->has_gpu_raw) && i < MERGED_CALLS_COLUMNS; i++) {
		*p++ = ',';
		if (r->has_calls && r->calls_ns[i] != INT64_MIN)
			p = fmt_ns_as_us(p, r->calls_ns[i]);
	}
	if (r->has_gpu_raw) {
		*p++ = ',';
		p = fmt_fixed(p, r->gpu_raw_us, 3);
	}
	*p++ = ',';
	if (r->gate_tripped >= 0)
		*p++ = r->gate_tripped ? '1' : '0';
	*p++ = '\n';
	return p;
}

/* Writes @p len bytes at the file's current end; records the first error. */
static void write_all(struct merged_writer *o, const char *data, size_t len)
{
	while (len > 0 && !o->error) {
		ssize_t n = write(o->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->error = n < 0 ? errno : EIO;
			break;
		}
		data += n;
		len -= (size_t)n;
	}
}

/*
 * Block @p b's first row. The first blocks are small, MERGED_BLOCK_MIN rows
 * and doubling up to r->block_items: when every row becomes ready at once
 * (the rows' every-function columns wait for the calls files), the file's
 * writes, one at a time, start as soon as a small block is formatted
 * rather than a full one (10^5 frames with calls files: 3-4 ms later).
 */
static size_t block_first(const struct merged_rows *r, size_t b)
{
	size_t first = 0, size = MERGED_BLOCK_MIN;

	for (; b > 0 && size < r->block_items; b--) {
		first += size;
		size *= 2;
	}
	return first + b * r->block_items;
}

/* The next block to format, or r->blocks when none is left. */
static size_t take_block(struct merged_rows *r)
{
	pthread_mutex_lock(&r->lock);
	size_t b = r->next < r->blocks ? r->next++ : r->blocks;
	pthread_mutex_unlock(&r->lock);
	return b;
}

/* Waits until rows [0, @p last) may be formatted. Returns false when cancelled. */
static bool wait_ready(struct merged_rows *r, size_t last)
{
	pthread_mutex_lock(&r->lock);
	while (r->ready < last && !r->cancelled)
		pthread_cond_wait(&r->changed, &r->lock);
	bool go = !r->cancelled;
	pthread_mutex_unlock(&r->lock);
	return go;
}

/* Waits for block @p b's turn at the file. Returns false when cancelled. */
static bool wait_turn(struct merged_rows *r, size_t b)
{
	pthread_mutex_lock(&r->lock);
	while (r->turn != b && !r->cancelled)
		pthread_cond_wait(&r->changed, &r->lock);
	bool go = !r->cancelled;
	pthread_mutex_unlock(&r->lock);
	return go;
}

static void pass_turn(struct merged_rows *r, size_t b)
{
	pthread_mutex_lock(&r->lock);
	r->turn = b + 1;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
}

/*
 * Formats rows [@p item, @p last) into *@p buf (of *@p cap bytes; *@p used
 * of them filled), growing it up to MERGED_BLOCK_BUF when the rows are
 * longer than the block's room assumed: rows with the every-function
 * columns are ~170 bytes, and those that did not fit were formatted while
 * holding the file's turn, one worker at a time. Returns the first row
 * not formatted (@p last when all were).
 */
static size_t format_block(struct merged_rows *r, char **buf, size_t *cap, size_t item,
                           size_t last, size_t *used)
{
	*used = 0;
	for (;;) {
		size_t more = 0;
		item = r->fill(r->ctx, item, last, *buf + *used, *cap - *used, &more);
		*used += more;
		if (item >= last || *cap >= MERGED_BLOCK_BUF)
			return item;
		size_t bigger = *cap * 2 < MERGED_BLOCK_BUF ? *cap * 2 : MERGED_BLOCK_BUF;
		char *p = mem_realloc(*buf, bigger);
		if (!p)
			return item;
		*buf = p;
		*cap = bigger;
	}
}

/*
 * Takes blocks in order, formats each as soon as its rows are ready, and
 * writes it when the file reaches it. Blocks are taken in increasing order
 * and each taker writes its own, so however many workers run (one is
 * enough) the file's turn always moves on.
 */
static void *rows_worker(void *arg)
{
	struct merged_rows *r = arg;
	/* Room for a block of plain rows (longer rows grow it): fresh memory
	 * is a large part of a short merge's cost. */
	size_t cap = r->block_items * MERGED_BLOCK_ROW_BYTES + MERGED_ROW_MAX;
	if (cap > MERGED_BLOCK_BUF)
		cap = MERGED_BLOCK_BUF;
	char *buf = mem_alloc(cap);

	for (size_t b = take_block(r); b < r->blocks; b = take_block(r)) {
		size_t item = block_first(r, b), next = block_first(r, b + 1);
		size_t last = next < r->count ? next : r->count;
		size_t used = 0;

		/* Format before taking the turn: that is the parallel part. */
		if (!wait_ready(r, last))
			break;
		if (buf)
			item = format_block(r, &buf, &cap, item, last, &used);
		if (!wait_turn(r, b))
			break;

		/* Only this thread touches the file until the turn moves on. */
		if (buf) {
			write_all(r->o, buf, used);
			while (item < last) {
				item = r->fill(r->ctx, item, last, buf, cap, &used);
				write_all(r->o, buf, used);
			}
		} else if (!r->o->error) {
			r->o->error = ENOMEM;
		}
		pass_turn(r, b);
	}
	mem_free(buf);
	return NULL;
}

/*
 * Rows per block for @p count rows over @p workers: MERGED_BLOCK_ITEMS, or
 * less, so that each worker has two blocks (one formatted while another
 * is written), down to MERGED_BLOCK_MIN.
 */
static size_t block_items(size_t count, size_t workers)
{
	size_t items = count / (2 * workers);

	if (items > MERGED_BLOCK_ITEMS)
		return MERGED_BLOCK_ITEMS;
	return items < MERGED_BLOCK_MIN ? MERGED_BLOCK_MIN : items;
}

/*
 * The first worker: starts the others (so the caller pays for one thread's
 * start, not for each), works beside them and joins them.
 */
static void *rows_first(void *arg)
{
	struct merged_rows *r = arg;
	size_t others = 0;

	while (1 + others < r->want &&
	       thread_start(&r->thread[1 + others], rows_worker, r) == 0)
		others++;
	rows_worker(r);
	for (size_t i = 0; i < others; i++)
		thread_join(&r->thread[1 + i]);
	return NULL;
}

void merged_write_rows_start(struct merged_rows *r, struct merged_writer *o, size_t count,
                             size_t ready, merged_write_fill_fn fill, void *ctx)
{
	size_t want = count / MERGED_WORKER_ROWS;

	if (want > workers_max())
		want = workers_max();
	if (want < 1)
		want = 1;
	*r = (struct merged_rows){.o = o, .count = count, .ready = ready, .fill = fill, .ctx = ctx,
	                          .turn = SIZE_MAX};
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	r->block_items = block_items(count, want);
	r->blocks = 0;
	while (block_first(r, r->blocks) < count)
		r->blocks++;
	r->want = want < r->blocks ? want : r->blocks;
	/* The workers format ahead; this thread joins the first in
	 * merged_write_rows_finish() (and does the work if it did not start). */
	r->started = r->blocks > 0 && thread_start(&r->thread[0], rows_first, r) == 0;
}

void merged_write_rows_ready(struct merged_rows *r, size_t ready)
{
	pthread_mutex_lock(&r->lock);
	r->ready = ready;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
}

int merged_write_rows_prefix(struct merged_rows *r, const char *data, size_t len)
{
	if (r->prefix_n == r->prefix_cap) {
		size_t cap = r->prefix_cap ? r->prefix_cap * 2 : 32;
		struct iovec *p = realloc(r->prefix, cap * sizeof(*p));
		if (!p) {
			if (!r->o->error)
				r->o->error = ENOMEM;
			return -1;
		}
		r->prefix = p;
		r->prefix_cap = cap;
	}
	r->prefix[r->prefix_n++] = (struct iovec){(void *)data, len};
	return 0;
}

/* Writes the rows formatted already, as few writes as IOV_MAX allows. */
static void write_prefix(struct merged_rows *r)
{
	struct iovec *v = r->prefix;
	size_t n = r->prefix_n;

	while (n > 0 && !r->o->error) {
		if (v->iov_len == 0) {
			v++;
			n--;
			continue;
		}
		ssize_t w = writev(r->o->fd, v, n < IOV_MAX ? (int)n : IOV_MAX);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->o->error = w < 0 ? errno : EIO;
			break;
		}
		/* Past what was written: whole buffers, then into the next one. */
		for (size_t done = (size_t)w; n > 0 && done > 0;) {
			size_t take = done < v->iov_len ? done : v->iov_len;
			v->iov_base = (char *)v->iov_base + take;
			v->iov_len -= take;
			done -= take;
			if (v->iov_len == 0) {
				v++;
				n--;
			}
		}
	}
}

/* Joins the workers and frees what the rows held. */
static void rows_end(struct merged_rows *r)
{
	free(r->prefix);
	r->prefix = NULL;
	r->prefix_n = r->prefix_cap = 0;
	if (r->started)
		thread_join(&r->thread[0]);
	pthread_cond_destroy(&r->changed);
	pthread_mutex_destroy(&r->lock);
}

void merged_write_rows_ahead(struct merged_rows *r, size_t bytes)
{
	r->ahead = bytes;
}

void merged_write_rows_cut(struct merged_rows *r, off_t end)
{
	r->ahead_end = end;
}

/* Cuts what was written ahead past the rows' end (they were written again elsewhere). */
static void cut_ahead(struct merged_rows *r)
{
	off_t end = lseek(r->o->fd, 0, SEEK_CUR);

	if (end < 0)
		r->o->error = errno;
	else if (end < r->ahead_end && ftruncate(r->o->fd, end) != 0)
		r->o->error = errno;
}

void merged_write_rows_finish(struct merged_rows *r)
{
	flush(r->o); /* the summary goes first */
	if (r->ahead > 0 && !r->o->error && lseek(r->o->fd, (off_t)r->ahead, SEEK_CUR) < 0)
		r->o->error = errno;
	write_prefix(r);
	merged_write_rows_ready(r, r->count);
	pass_turn(r, SIZE_MAX); /* block 0's turn */
	if (!r->started)
		rows_worker(r);
	rows_end(r);
	if (r->ahead_end > 0 && !r->o->error)
		cut_ahead(r);
}

void merged_write_rows_cancel(struct merged_rows *r)
{
	pthread_mutex_lock(&r->lock);
	r->cancelled = true;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
	rows_end(r);
}

int merged_write_commit(struct merged_writer *o, char *msg, size_t msg_size)
{
	flush(o);
	if (close(o->fd) != 0 && !o->error)
		o->error = errno;
	o->fd = -1;
	mem_free(o->buf);
	o->buf = NULL;
	restore_xfsz(o);
	if (o->error) {
		char q[QUOTE_PATH_MAX];
		snprintf(msg, msg_size, "%s: error: cannot write: %s", quote_path(q, o->path),
		         strerror(o->error));
		out_file_discard(o->tmp_path);
		return -1;
	}
	return out_file_place(o->tmp_path, o->path, msg, msg_size);
}

void merged_write_abort(struct merged_writer *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		out_file_discard(o->tmp_path);
	}
	o->fd = -1;
	mem_free(o->buf);
	o->buf = NULL;
	restore_xfsz(o);
}
