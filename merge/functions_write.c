/*
 * Writing the functions file; see functions_write.h.
 */
#include "functions_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "out_file.h"
#include "quote.h"

/* Longest row: a name, a phase and twelve numbers. */
#define ROW_MAX (CALLS_FN_MAX + 32 + 12 * FMT_NUM_MAX)

/* Most target time first; ties by name, so the order is fixed. */
static int by_total(const void *a, const void *b, void *ctx)
{
	const struct calls_fn *fns = ctx;
	const struct calls_fn *x = &fns[*(const uint32_t *)a], *y = &fns[*(const uint32_t *)b];

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static char *cell_us(char *p, double ns)
{
	*p++ = ',';
	return fmt_fixed(p, ns / 1000.0, 3);
}

static char *cell_u64(char *p, uint64_t v)
{
	*p++ = ',';
	return fmt_u64(p, v);
}

static char *format_row(char *p, const struct calls_fn *f, uint64_t frame_count, int64_t sum_ns)
{
	size_t n = strlen(f->name);

	memcpy(p, f->name, n);
	p += n;
	*p++ = ',';
	const char *phase = u_phase_name(f->phase);
	memcpy(p, phase, strlen(phase));
	p += strlen(phase);
	p = cell_u64(p, f->calls);
	*p++ = ',';
	if (frame_count)
		p = fmt_fixed(p, (double)f->calls / (double)frame_count, 4);
	if (f->calls) {
		p = cell_us(p, (double)f->total_ns);
		p = cell_us(p, (double)f->total_ns / (double)f->calls);
		p = cell_us(p, qhist_percentile(&f->excl, 0.5));
		p = cell_us(p, qhist_percentile(&f->excl, 0.99));
		p = cell_us(p, (double)f->excl.max);
	} else {
		memcpy(p, ",,,,,", 5);
		p += 5;
	}
	*p++ = ',';
	if (f->calls && sum_ns > 0)
		p = fmt_fixed(p, (double)f->total_ns / (double)sum_ns * 100.0, 4);
	p = cell_u64(p, f->induced_calls);
	p = cell_u64(p, f->own_thread_calls);
	p = cell_us(p, (double)f->induced_ns);
	p = cell_us(p, (double)f->own_thread_ns);
	*p++ = '\n';
	return p;
}

static int write_rows(FILE *out, const struct calls_result *r, uint64_t frame_count)
{
	uint32_t *order = malloc((r->fn_count ? r->fn_count : 1) * sizeof(*order));
	char *row = malloc(ROW_MAX);
	int64_t sum_ns = 0;

	if (!order || !row) {
		free(order);
		free(row);
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < r->fn_count; i++) {
		order[i] = (uint32_t)i;
		sum_ns += r->fns[i].total_ns;
	}
	qsort_r(order, r->fn_count, sizeof(*order), by_total, r->fns);
	fprintf(out, "# frame_count=%llu\n" FUNCTIONS_HEADER "\n", (unsigned long long)frame_count);
	for (size_t i = 0; i < r->fn_count; i++) {
		char *end = format_row(row, &r->fns[order[i]], frame_count, sum_ns);
		fwrite(row, 1, (size_t)(end - row), out);
	}
	free(order);
	free(row);
	return 0;
}

int functions_write(const char *path, const struct calls_result *r, uint64_t frame_count,
                    char *msg, size_t msg_size)
{
	char tmp[4096], q[QUOTE_PATH_MAX];
	int fd = out_file_create_tmp(path, tmp, sizeof(tmp), msg, msg_size);

	if (fd < 0)
		return -1;
	FILE *out = fdopen(fd, "w");
	if (!out) {
		snprintf(msg, msg_size, "%s: error: cannot write: %s", quote_path(q, path),
		         strerror(errno));
		close(fd);
		out_file_discard(tmp);
		return -1;
	}
	int ret = write_rows(out, r, frame_count);
	int err = ret != 0 || ferror(out) ? (errno ? errno : EIO) : 0;
	if (fclose(out) != 0 && !err)
		err = errno;
	if (err) {
		snprintf(msg, msg_size, "%s: error: cannot write: %s", quote_path(q, path),
		         strerror(err));
		out_file_discard(tmp);
		return -1;
	}
	return out_file_place(tmp, path, msg, msg_size);
}
