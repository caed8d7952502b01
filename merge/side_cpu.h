/*
 * Reading a per-side CPU file, frames-<tag>-<side>.csv
 * (display_time,thread_id,t_entry,t_exit; README "Files").
 */
#ifndef XRLM_SIDE_CPU_H
#define XRLM_SIDE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "side_file.h"

/* One CPU bracket; times are converted to nanoseconds on reading. 32 bytes. */
struct side_cpu_row {
	int64_t display_time;
	uint64_t thread_id;
	int64_t t_entry_ns;
	int64_t dur_ns; /* t_exit - t_entry */
};

/* A per-side CPU file. Owns rows; release with side_cpu_destroy(). */
struct side_cpu_file {
	struct side_meta meta;
	struct csvr_diag diag;
	struct side_cpu_row *rows;
	size_t count;
	size_t cap;
};


/*
 * The CPU file's columns for csvr (comment callback side_file_comment(),
 * context a struct side_reader), for readers that stream it with their own
 * row callback (`xrlm trace`).
 */
extern const struct csvr_format side_cpu_format;

/*
 * Reads the CPU file @p path into @p out (zeroed first). @p expected_side
 * ("pre" or "post"), if non-NULL, must match a `# side=` line when present.
 * Returns 0, or -1 with out->diag.error set (rows may be partially read;
 * side_cpu_destroy() must still be called).
 */
int side_cpu_read(const char *path, const char *expected_side, struct side_cpu_file *out);

/* Frees the rows of @p f; leaves it empty. */
void side_cpu_destroy(struct side_cpu_file *f);

#endif /* XRLM_SIDE_CPU_H */
