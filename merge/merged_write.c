/*
 * Writing the merged CSV; see merged_write.h.
 */
#include "merged_write.h"

#include <errno.h>
#include <fcntl.h>
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
#include "out_file.h"

#define MERGED_BUF_SIZE (1u << 20)
/* Items per block of merged_write_rows(), and the buffer a block is formatted in
 * (a normal row is under 150 bytes; a block that does not fit is written
 * in several pieces). */
#define MERGED_BLOCK_ITEMS 16384
#define MERGED_BLOCK_BUF (4u << 20)

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
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path)) {
		snprintf(msg, msg_size, "%.200s...: error: path too long", path);
		return -1;
	}
	o->buf = malloc(MERGED_BUF_SIZE);
	if (!o->buf) {
		snprintf(msg, msg_size, "%s: error: out of memory", path);
		return -1;
	}

	o->fd = out_file_create_tmp(path, o->tmp_path, sizeof(o->tmp_path), msg, msg_size);
	if (o->fd >= 0)
		return 0;
	free(o->buf);
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
};

/* The counts of the nested-call sandwich (merge/README.md "Calls"). */
static void write_calls_summary(struct merged_writer *o, const struct merge_summary *s)
{
	for (size_t i = 0; i < MERGED_CALLS_COUNTS; i++) {
		const struct merged_count *c = &merged_calls_counts[i];
		line_u64(o, c->key, *(const uint64_t *)((const char *)s + c->offset));
	}
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
	p = put_str(p, s->has_gpu_raw ? MERGED_HEADER MERGED_CALLS_HEADER MERGED_GPU_RAW_HEADER "\n"
	               : s->has_calls ? MERGED_HEADER MERGED_CALLS_HEADER "\n"
	                              : MERGED_HEADER "\n");
	commit_bytes(o, p);
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
	*p++ = ',';
	if (r->gate_tripped >= 0)
		*p++ = r->gate_tripped ? '1' : '0';
	for (int i = 0; (r->has_calls || r->has_gpu_raw) && i < MERGED_CALLS_COLUMNS; i++) {
		*p++ = ',';
		if (r->has_calls && r->calls_ns[i] != INT64_MIN)
			p = fmt_ns_as_us(p, r->calls_ns[i]);
	}
	if (r->has_gpu_raw) {
		*p++ = ',';
		p = fmt_fixed(p, r->gpu_raw_us, 3);
	}
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

/* State shared by the two row writers. */
struct rows_job {
	struct merged_writer *o;
	size_t count;
	merged_write_fill_fn fill;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t turn_changed;
	size_t turn; /* the block whose bytes go to the file next */
	size_t stride;
};

struct rows_worker {
	struct rows_job *job;
	size_t first_block;
	bool out_of_memory;
};

/* Formats every stride-th block; writes each when the file reaches it. */
static void *rows_worker(void *arg)
{
	struct rows_worker *w = arg;
	struct rows_job *job = w->job;
	size_t blocks = (job->count + MERGED_BLOCK_ITEMS - 1) / MERGED_BLOCK_ITEMS;
	char *buf = malloc(MERGED_BLOCK_BUF);

	w->out_of_memory = buf == NULL;
	for (size_t b = w->first_block; b < blocks; b += job->stride) {
		size_t item = b * MERGED_BLOCK_ITEMS;
		size_t last = item + MERGED_BLOCK_ITEMS < job->count ? item + MERGED_BLOCK_ITEMS : job->count;
		size_t used = 0;

		/* Format before taking the turn: that is the parallel part. */
		if (buf)
			item = job->fill(job->ctx, item, last, buf, MERGED_BLOCK_BUF, &used);

		pthread_mutex_lock(&job->lock);
		while (job->turn != b)
			pthread_cond_wait(&job->turn_changed, &job->lock);
		pthread_mutex_unlock(&job->lock);

		/* Only this thread touches the file until the turn moves on. */
		if (buf) {
			write_all(job->o, buf, used);
			while (item < last) {
				item = job->fill(job->ctx, item, last, buf, MERGED_BLOCK_BUF, &used);
				write_all(job->o, buf, used);
			}
		} else if (!job->o->error) {
			job->o->error = ENOMEM;
		}

		pthread_mutex_lock(&job->lock);
		job->turn = b + 1;
		pthread_cond_broadcast(&job->turn_changed);
		pthread_mutex_unlock(&job->lock);
	}
	free(buf);
	return NULL;
}

void merged_write_rows(struct merged_writer *o, size_t count, merged_write_fill_fn fill, void *ctx)
{
	struct rows_job job = {.o = o, .count = count, .fill = fill, .ctx = ctx, .stride = 2};
	struct rows_worker a = {.job = &job, .first_block = 0};
	struct rows_worker b = {.job = &job, .first_block = 1};
	pthread_t thread;

	flush(o); /* the summary goes first */
	pthread_mutex_init(&job.lock, NULL);
	pthread_cond_init(&job.turn_changed, NULL);
	if (count > MERGED_BLOCK_ITEMS && pthread_create(&thread, NULL, rows_worker, &b) == 0) {
		rows_worker(&a);
		pthread_join(thread, NULL);
	} else {
		job.stride = 1;
		rows_worker(&a);
	}
	pthread_cond_destroy(&job.turn_changed);
	pthread_mutex_destroy(&job.lock);
}

int merged_write_commit(struct merged_writer *o, char *msg, size_t msg_size)
{
	flush(o);
	if (close(o->fd) != 0 && !o->error)
		o->error = errno;
	o->fd = -1;
	free(o->buf);
	o->buf = NULL;
	restore_xfsz(o);
	if (o->error) {
		snprintf(msg, msg_size, "%s: error: cannot write: %s", o->path, strerror(o->error));
		unlink(o->tmp_path);
		return -1;
	}
	return out_file_place(o->tmp_path, o->path, msg, msg_size);
}

void merged_write_abort(struct merged_writer *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		unlink(o->tmp_path);
	}
	o->fd = -1;
	free(o->buf);
	o->buf = NULL;
	restore_xfsz(o);
}
