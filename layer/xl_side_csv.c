/*
 * The per-side CPU CSV; see xl_side_csv.h.
 */
#include "xl_side_csv.h"

#include "xl_files.h"

#include <string.h>

char *xl_fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

char *xl_fmt_i64(char *p, int64_t v)
{
	if (v >= 0)
		return xl_fmt_u64(p, (uint64_t)v);
	*p++ = '-';
	return xl_fmt_u64(p, 0 - (uint64_t)v);
}

int xl_side_csv_open(struct xl_side_csv *csv, int dir_fd, const char *tag,
                     const struct xl_side_csv_meta *meta)
{
	char name[256];

	memset(csv, 0, sizeof(*csv));
	snprintf(name, sizeof(name), "frames-%s-%s.csv", tag, meta->side);
	csv->file = xl_files_create(dir_fd, name);
	if (!csv->file)
		return -1;
	fprintf(csv->file,
	        "# clock=CLOCK_MONOTONIC\n"
	        "# clock_freq=1000000000\n"
	        "# side=%s\n"
	        "# layer=%s\n"
	        "# target_layer=%s\n"
	        "# fn=xrEndFrame\n"
	        "display_time,thread_id,t_entry,t_exit\n",
	        meta->side, meta->layer, meta->target_layer);
	return 0;
}

bool xl_side_csv_row(struct xl_side_csv *csv, const struct xl_frame_record *rec)
{
	char line[96], *p = line;

	if (csv->failed || !csv->file)
		return false;
	p = xl_fmt_i64(p, rec->display_time);
	*p++ = ',';
	p = xl_fmt_u64(p, rec->thread_id);
	*p++ = ',';
	p = xl_fmt_u64(p, rec->t_entry);
	*p++ = ',';
	p = xl_fmt_u64(p, rec->t_exit);
	*p++ = '\n';
	if (fwrite(line, 1, (size_t)(p - line), csv->file) != (size_t)(p - line)) {
		csv->failed = true;
		return false;
	}
	csv->rows++;
	return true;
}

bool xl_side_csv_flush(struct xl_side_csv *csv)
{
	if (csv->failed || !csv->file)
		return false;
	if (fflush(csv->file) != 0)
		csv->failed = true;
	return !csv->failed;
}

bool xl_side_csv_close(struct xl_side_csv *csv, uint64_t dropped_queue_full)
{
	bool ok = !csv->failed;

	if (!csv->file)
		return false;
	if (ok)
		ok = fprintf(csv->file, "# session_end dropped_queue_full=%llu\n",
		             (unsigned long long)dropped_queue_full) > 0;
	if (fclose(csv->file) != 0)
		ok = false;
	csv->file = NULL;
	return ok;
}
