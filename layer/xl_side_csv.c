/*
 * The per-side CPU and GPU CSVs; see xl_side_csv.h.
 */
#include "xl_side_csv.h"

#include "fmt.h"
#include "xl_fn.h"
#include "u_names.h"
#include "u_phase.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Creates "<kind>-<tag>-<side>.csv" and writes @p header into it. */
static int create_with_header(struct xl_csv_file *f, int dir_fd, const char *kind,
                              const char *tag, const char *side, const char *header)
{
	char name[sizeof(f->name)];

	if (u_names_side_file(name, sizeof(name), NULL, kind, tag, side) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (xl_csv_file_create(f, dir_fd, name) != 0)
		return -1;
	xl_csv_file_text(f, header);
	return 0;
}

/*
 * The CPU files' header: the "#" lines (@p fn_line, "# fn=...\n" or "";
 * @p own_line, one more of this tool's, or ""), then @p columns. The
 * interface's lines come first (README, Files), in their order; this
 * tool's after them.
 */
static int create_cpu_file(struct xl_csv_file *f, int dir_fd, const char *kind, const char *tag,
                           const struct xl_side_csv_meta *meta, const char *fn_line,
                           const char *own_line, const char *columns)
{
	char header[1024], correction[64] = "";

	if (meta->bracket_correction_ns >= 0)
		snprintf(correction, sizeof(correction), "# bracket_correction_ns=%lld\n",
		         meta->bracket_correction_ns);
	snprintf(header, sizeof(header),
	         "# clock=CLOCK_MONOTONIC\n"
	         "# clock_freq=1000000000\n"
	         "# side=%s\n"
	         "# layer=%s\n"
	         "# target_layer=%s\n"
	         "%s"
	         "# session=%s\n"
	         "%s"
	         "%s"
	         "%s\n",
	         meta->side, meta->layer, meta->target_layer, fn_line, tag, correction, own_line,
	         columns);
	return create_with_header(f, dir_fd, kind, tag, meta->side, header);
}

int xl_side_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                     const struct xl_side_csv_meta *meta)
{
	return create_cpu_file(f, dir_fd, U_NAMES_FRAMES, tag, meta, "# fn=xrEndFrame\n", "",
	                       "display_time,thread_id,t_entry,t_exit");
}

int xl_calls_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                      const struct xl_side_csv_meta *meta)
{
	char phases[U_PHASE_SET_MAX], line[sizeof(phases) + 32];

	/* What XRLM_FUNCTIONS left out: a phase without all its functions
	 * is not the target's cost in it (README, XRLM_FUNCTIONS). */
	u_phase_set_format(meta->phases_recorded, phases);
	snprintf(line, sizeof(line), "# phases_recorded=%s\n", phases);
	return create_cpu_file(f, dir_fd, U_NAMES_CALLS, tag, meta, "", line,
	                       "fn,thread_id,t_entry,t_exit,frame_id,result");
}

bool xl_calls_csv_row(struct xl_csv_file *f, const struct xl_call_record *rec)
{
	char line[192], *p = line;
	const char *name = rec->fn < XL_FN_COUNT ? xl_fn_names[rec->fn] : "unknown";
	/* OpenXR's longest names are about 50 characters; the numbers take 110 at most. */
	size_t len = strnlen(name, 64);

	memcpy(p, name, len);
	p += len;
	*p++ = ',';
	p = fmt_u64(p, rec->thread_id);
	*p++ = ',';
	p = fmt_u64(p, rec->t_entry);
	*p++ = ',';
	p = fmt_u64(p, rec->t_exit);
	*p++ = ',';
	p = fmt_i64(p, rec->frame_id);
	*p++ = ',';
	p = fmt_i64(p, rec->result);
	*p++ = '\n';
	return xl_csv_file_row(f, line, (size_t)(p - line));
}

bool xl_side_csv_row(struct xl_csv_file *f, const struct xl_call_record *rec)
{
	char line[96], *p = line;

	p = fmt_i64(p, rec->display_time);
	*p++ = ',';
	p = fmt_u64(p, rec->thread_id);
	*p++ = ',';
	p = fmt_u64(p, rec->t_entry);
	*p++ = ',';
	p = fmt_u64(p, rec->t_exit);
	*p++ = '\n';
	return xl_csv_file_row(f, line, (size_t)(p - line));
}

bool xl_side_csv_close(struct xl_csv_file *f, uint64_t dropped_queue_full)
{
	char footer[64];
	snprintf(footer, sizeof(footer), "# session_end dropped_queue_full=%llu\n",
	         (unsigned long long)dropped_queue_full);
	return xl_csv_file_close(f, footer);
}

int xl_gpu_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                    const struct xl_side_csv_meta *meta, const char *gpu_clock,
                    const char *gpu_mode, unsigned valid_bits)
{
	char header[512];

	snprintf(header, sizeof(header),
	         "# gpu_clock=%s\n"
	         "# side=%s\n"
	         "# layer=%s\n"
	         "# fn=xrEndFrame\n"
	         "# session=%s\n"
	         "# gpu_mode=%s\n"
	         "# gpu_valid_bits=%u\n"
	         "display_time,gpu_ticks,gpu_period_ns,valid\n",
	         gpu_clock, meta->side, meta->layer, tag, gpu_mode, valid_bits);
	return create_with_header(f, dir_fd, U_NAMES_GPU, tag, meta->side, header);
}

bool xl_gpu_csv_row(struct xl_csv_file *f, const struct xl_gpu_sample *s)
{
	char line[128], *p = line;

	if (s->bracket) {
		/* Applies to the rows after it (see README "GPU files"). */
		p = stpcpy(p, "# gpu_bracket_ns=");
		p = fmt_i64(p, s->bracket_ns);
		strcpy(p, "\n");
		return xl_csv_file_text(f, line);
	}
	if (s->gate_tripped) {
		/* Before its row: a reader marks that frame (see README "GPU files"). */
		p = stpcpy(p, "# gate_tripped display_time=");
		p = fmt_i64(p, s->display_time);
		strcpy(p, "\n");
		if (!xl_csv_file_text(f, line))
			return false;
		p = line;
	}

	p = fmt_i64(p, s->display_time);
	*p++ = ',';
	p = fmt_u64(p, s->ticks);
	/* The writer thread runs in the "C" locale: '.' whatever the host's. */
	p += snprintf(p, 32, ",%.9g,%d\n", (double)s->period_ns, s->valid ? 1 : 0);
	return xl_csv_file_row(f, line, (size_t)(p - line));
}

bool xl_gpu_csv_calibration(struct xl_csv_file *f, const struct xl_gpu_calibration *c)
{
	char line[160];
	snprintf(line, sizeof(line),
	         "# calibration gpu_ticks=%llu monotonic_ns=%llu max_deviation_ns=%llu\n",
	         (unsigned long long)c->gpu_ticks, (unsigned long long)c->monotonic_ns,
	         (unsigned long long)c->max_deviation_ns);
	return xl_csv_file_text(f, line);
}

bool xl_gpu_csv_close(struct xl_csv_file *f, uint64_t gpu_ring_overflow)
{
	char footer[64];
	snprintf(footer, sizeof(footer), "# session_end gpu_ring_overflow=%llu\n",
	         (unsigned long long)gpu_ring_overflow);
	return xl_csv_file_close(f, footer);
}
