/*
 * A spool of fixed-size records in an anonymous temporary file: `xrlm
 * trace` writes one side's records into it in a first pass and reads them
 * back in order while it streams the other side, so that pairing the two
 * sides needs no memory in proportion to the session.
 */
#ifndef XRLM_TRACE_SPOOL_H
#define XRLM_TRACE_SPOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One spooled record: five numbers whose meaning is the user's. */
struct trace_spool_rec {
	int64_t v[5];
};

struct trace_spool {
	FILE *f;
	int error; /* errno of the first failed write; 0 when none failed */
};

/* Creates an empty spool. 0, or -1 with errno. */
int trace_spool_create(struct trace_spool *s);

/* Appends @p r. */
void trace_spool_add(struct trace_spool *s, const struct trace_spool_rec *r);

/*
 * Ends writing and starts reading from the first record. 0, or -1 when
 * writing failed (EFBIG past `ulimit -f`, ENOSPC), said on stderr.
 */
int trace_spool_rewind(struct trace_spool *s);

/* The next record into @p r; false at the end. */
bool trace_spool_next(struct trace_spool *s, struct trace_spool_rec *r);

/* Closes (and so deletes) the file. */
void trace_spool_destroy(struct trace_spool *s);

#endif /* XRLM_TRACE_SPOOL_H */
