/*
 * Writing the merged CSV.
 *
 * Format (all numbers written by fmt.h, '.' decimal point, LF endings):
 *  - the 14 summary lines of README "The merged CSV": counts as integers, *_ms_* in
 *    milliseconds with 4 decimals, *_pct_* in percent with 4 decimals and a
 *    trailing '%'; a statistic without samples has an empty value;
 *  - extra `# key=value` lines: percentiles and frame interval in µs with 3
 *    decimals, frame_rate_hz with 3 decimals, counts as integers, the
 *    target layer's name as text;
 *  - the column header and one row per matched frame: display_time and
 *    thread_id as integers, every *_us column in µs with 3 decimals (exact:
 *    the inputs are integer ns), every *_pct_* column with 4 decimals; blank
 *    cells where a value does not exist.
 *
 * The file is written to a temporary file in the target's directory and
 * renamed into place at commit without replacing an existing file.
 */
#ifndef XRLM_MERGED_WRITE_H
#define XRLM_MERGED_WRITE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "merge.h"
#include "thread.h"
#include <sys/types.h>
#include <sys/uio.h>

#include "workers.h"

/*
 * The merged CSV's columns, in file order (README "The merged CSV"): the
 * nine of the interface's header (MERGED_HEADER); with calls files the
 * twelve every-function columns (MERGED_CALLS_HEADER); with GPU files
 * target_gpu_raw_us (MERGED_GPU_RAW_HEADER, the calls columns then written
 * too, blank without calls files); and always gate_tripped, last
 * (MERGED_GATE_HEADER). Files written before gate_tripped moved last had
 * it tenth, the calls columns and target_gpu_raw_us after it; older ones
 * had only the nine. merged_read.c reads every one of those layouts.
 */

/* The interface's column header, the first nine columns (without newline). */
#define MERGED_HEADER                                                                          \
	"display_time,thread_id,frame_interval_us,pre_us,post_us,target_us,"                 \
	"target_cpu_pct_of_frame,target_gpu_us,target_gpu_pct_of_frame"
#define MERGED_COLUMNS 9

/*
 * The columns appended when the session has calls files (README "The
 * merged CSV"): the target's exclusive time per phase and in total, and the
 * app's own frame timeline, all in µs.
 */
#define MERGED_CALLS_HEADER                                                                    \
	",target_wait_us,target_begin_us,target_end_us,target_locate_views_us,"                \
	"target_sync_actions_us,target_swapchain_us,target_other_us,target_total_us,"         \
	"app_wait_us,app_cpu_us,app_render_us,app_submit_us"
#define MERGED_CALLS_COLUMNS 12

/*
 * The column after those when the session has GPU files (README "GPU
 * cost"): target_gpu_us before the bracket correction. The calls columns
 * are then written too, blank without calls files, so that every column
 * keeps its place.
 */
#define MERGED_GPU_RAW_HEADER ",target_gpu_raw_us"

/* The last column of every file: 0 or 1, blank without GPU files (merge_gate.h). */
#define MERGED_GATE_HEADER ",gate_tripped"

/* A count of the summary: its key and where struct merge_summary holds it. */
struct merged_count {
	const char *key;
	size_t offset;
};

/* The calls counts (written when the session has calls files), in file order. */
extern const struct merged_count merged_calls_counts[];
#define MERGED_CALLS_COUNTS 10

/* One merged row. */
struct merged_row {
	int64_t display_time;
	uint64_t thread_id;
	bool has_interval;
	int64_t interval_ns;
	int64_t pre_ns;
	int64_t post_ns;
	int64_t target_ns;
	double cpu_pct; /* NAN: blank */
	double gpu_us;  /* NAN: blank */
	double gpu_pct; /* NAN: blank */
	int gate_tripped; /* 0 or 1; -1: blank (no GPU file) */
	bool has_calls;   /* the session has calls files: calls_ns holds values */
	int64_t calls_ns[MERGED_CALLS_COLUMNS]; /* their values in ns; INT64_MIN: blank */
	bool has_gpu_raw; /* the file has MERGED_GPU_RAW_HEADER (and the calls columns) */
	double gpu_raw_us; /* gpu_us before the bracket correction; NAN: blank */
};

/* An output file being written. Owns its buffer, descriptor and temp file. */
struct merged_writer {
	sigset_t old_mask; /* the caller's signal mask, restored at commit/abort */
	int fd;
	char *buf;
	size_t len;
	int error; /* first errno of a failed write, 0 if none */
	char path[MERGE_PATH_MAX];
	char tmp_path[MERGE_PATH_MAX];
};

/*
 * Creates the temporary file for @p path. Returns 0, or -1 with a message
 * (naming the file) in @p msg.
 *
 * Until merged_write_commit() or merged_write_abort(), SIGXFSZ is blocked
 * in the calling thread (and so in the row writer it starts): past a file
 * size limit (ulimit -f) a write then fails with EFBIG, which is reported,
 * instead of the signal killing the process (the host application, for the
 * in-layer merge). A SIGXFSZ left pending is taken before the mask is
 * restored.
 */
int merged_write_open(struct merged_writer *o, const char *path, char *msg, size_t msg_size);

/* Writes the summary lines and the column header. */
void merged_write_summary(struct merged_writer *o, const struct merge_summary *s);

/* The bytes merged_write_summary() writes for @p s; 0 when out of memory. */
size_t merged_write_summary_bytes(const struct merge_summary *s);

/* Formats one row (with its newline) at @p p, which has MERGED_ROW_MAX bytes; returns the end. */
char *merged_write_format_row(char *p, const struct merged_row *r);

/* Room a row may take in a buffer given to merged_write_fill_fn. */
#define MERGED_ROW_MAX 1024

/*
 * Formats the rows of items [@p first, @p last) into @p buf, stopping early
 * when less than MERGED_ROW_MAX of @p cap is left. Sets *@p used to the bytes
 * written and returns the first item not formatted.
 */
typedef size_t (*merged_write_fill_fn)(void *ctx, size_t first, size_t last, char *buf, size_t cap,
                               size_t *used);

/* The smallest block of rows: below, a block is not worth a thread's hand-over. */
#define MERGED_BLOCK_MIN 512

/*
 * Rows being written: blocks of items formatted on worker threads (up to
 * workers_max(), fewer for a short file) while the caller still computes
 * the summary, and written in order once it is in the buffer: the bytes
 * are the same as a serial write. Each worker holds at most one formatted
 * block (MERGED_BLOCK_BUF) while it waits. The first blocks are small
 * (MERGED_BLOCK_MIN rows, doubling), so that the file's first write comes
 * soon after the rows are ready.
 */
struct merged_rows {
	struct merged_writer *o;
	size_t count;
	merged_write_fill_fn fill;
	void *ctx;
	size_t block_items; /* rows per block */
	size_t blocks;
	struct thread thread[WORKERS_MAX]; /* [0]: the caller's; the others: thread[0]'s */
	size_t want;        /* workers to run */
	bool started;       /* thread[0] runs (and starts the others) */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t ready;       /* items [0, ready) may be formatted */
	size_t next;        /* the next block a worker takes */
	size_t turn;        /* the block whose bytes go to the file next; SIZE_MAX: the summary's */
	bool cancelled;
	struct iovec *prefix; /* rows formatted already, written before the first item */
	size_t prefix_n, prefix_cap;
	size_t ahead; /* bytes after the summary in the file already (merged_write_rows_ahead()) */
	off_t ahead_end; /* the end of what was written ahead, 0 if nothing (merged_write_rows_cut()) */
};

/*
 * Starts writing the rows of items [0, @p count) of @p o, the first
 * @p ready of which may be formatted now. @p fill must be safe to call
 * from several threads at once on different ranges. Nothing reaches the
 * file before merged_write_rows_finish(); end with it or
 * merged_write_rows_cancel().
 */
void merged_write_rows_start(struct merged_rows *r, struct merged_writer *o, size_t count,
                             size_t ready, merged_write_fill_fn fill, void *ctx);

/*
 * Rows formatted already (@p len bytes at @p data, borrowed until
 * merged_write_rows_finish() returns), written after the summary and
 * before item 0, after those given before. From the thread that started
 * @p r. Returns 0, or -1 when out of memory (o->error set).
 */
int merged_write_rows_prefix(struct merged_rows *r, const char *data, size_t len);

/*
 * The @p bytes after the summary are in the file already, written ahead
 * (merge_early_write()) at exactly the summary's length: the prefix and
 * the items follow them. From the thread that started @p r.
 */
void merged_write_rows_ahead(struct merged_rows *r, size_t bytes);

/*
 * Bytes up to @p end were written to the file ahead of their turn
 * (merge_early_write()), maybe elsewhere than they belong: what of them
 * lies past the rows' end is cut at merged_write_rows_finish().
 */
void merged_write_rows_cut(struct merged_rows *r, off_t end);

/* Items [0, @p ready) may be formatted now. */
void merged_write_rows_ready(struct merged_rows *r, size_t ready);

/*
 * Writes what o's buffer holds (the summary: merged_write_summary() first),
 * then every row in order; returns when all are written (o->error says how).
 */
void merged_write_rows_finish(struct merged_rows *r);

/* Stops the workers without writing more; then merged_write_abort(). */
void merged_write_rows_cancel(struct merged_rows *r);

/*
 * Flushes, closes and renames the file into place (never replacing an
 * existing file). On failure removes the temporary file and returns -1 with
 * a message in @p msg. @p o is closed either way.
 */
int merged_write_commit(struct merged_writer *o, char *msg, size_t msg_size);

/* Closes and removes the temporary file (after an error elsewhere). */
void merged_write_abort(struct merged_writer *o);

#endif /* XRLM_MERGED_WRITE_H */
