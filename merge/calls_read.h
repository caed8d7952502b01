/*
 * Reading a per-side calls file, calls-<tag>-<side>.csv
 * (fn,thread_id,t_entry,t_exit,frame_id,result; README "Files"): one row
 * per wrapped OpenXR call, in the order the writer popped them (about
 * t_entry order). The rows are handed to a callback one by one and never kept,
 * so a file of any length is read in constant memory.
 *
 * Checked per row, besides the engine's strict parsing (csvr.h): fn is a
 * name (letters, digits, '_', at most CALLS_FN_MAX - 1 bytes), t_exit is
 * not before t_entry, and both lie within [0, 2^61) ns. A violation is an
 * error naming file and line. Rows need not be in t_entry order (see
 * calls_join.h for how far they may stray).
 */
#ifndef XRLM_CALLS_READ_H
#define XRLM_CALLS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "side_file.h"

/* Longest function name kept, with its NUL (OpenXR's are under 64). */
#define CALLS_FN_MAX 96

/* One call; times converted to nanoseconds. */
struct calls_row {
	uint64_t thread_id;
	int64_t t_entry_ns;
	int64_t t_exit_ns;
	uint64_t frame_id;
	int64_t result;
	const char *fn; /* NUL-terminated, valid during the callback only */
	size_t fn_len;  /* strlen(fn), below CALLS_FN_MAX */
	uint32_t fn_id; /* fn's id in the read's names table, when it has one */
};

/* Called for each good row. Return 0, or -1 after setting @p msg (file and line are added). */
typedef int (*calls_read_fn)(void *ctx, const struct calls_row *row, char *msg, size_t msg_size);

struct calls_names;

/*
 * Reads @p path, calling @p row with @p ctx for each row in file order.
 * @p meta (zeroed first) gets the `#` metadata and footer, @p diag the
 * messages; @p expected_side ("pre" or "post"), if non-NULL, must match a
 * `# side=` line when present. With @p names (may be NULL), each row's
 * function is interned there (row.fn_id; row.fn is then the table's
 * copy): more names than the table takes is an error at the row that
 * brings one too many. Returns 0, or -1 with @p diag->error set.
 * side_meta_destroy(@p meta) must be called either way.
 */
int calls_read(const char *path, const char *expected_side, struct side_meta *meta,
               struct csvr_diag *diag, struct calls_names *names, calls_read_fn row, void *ctx);

#endif /* XRLM_CALLS_READ_H */
