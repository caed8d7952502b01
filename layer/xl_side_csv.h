/*
 * The per-side CPU CSV, frames-<tag>-<side>.csv (schema in INTERFACE.md).
 *
 * Rows hold only integers, so they are formatted here directly rather than
 * through libcsv, whose writer quotes every field; every reader of these
 * files (merge/, xrlm) parses them with libcsv.
 */
#ifndef XL_SIDE_CSV_H
#define XL_SIDE_CSV_H

#include "xl_ring.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct xl_side_csv {
	FILE *file;
	uint64_t rows;
	bool failed; /* a write failed: the file is closed early, rows dropped */
};

/* Identity written into each per-side file's header. */
struct xl_side_csv_meta {
	const char *side;         /* "pre" or "post" */
	const char *layer;        /* this layer's name */
	const char *target_layer; /* the layer(s) between pre and post */
};

/* Creates "frames-<tag>-<side>.csv" in @p dir_fd and writes its header. 0 on success. */
int xl_side_csv_open(struct xl_side_csv *csv, int dir_fd, const char *tag,
                     const struct xl_side_csv_meta *meta);

/* Appends one row; returns false (once) when the file can no longer be written. */
bool xl_side_csv_row(struct xl_side_csv *csv, const struct xl_frame_record *rec);

/* Pushes buffered rows to the kernel; false when that fails. */
bool xl_side_csv_flush(struct xl_side_csv *csv);

/* Writes the "# session_end" footer and closes. False if anything failed. */
bool xl_side_csv_close(struct xl_side_csv *csv, uint64_t dropped_queue_full);

/* Writes @p v in decimal at @p p; returns the end. @p p needs 20 bytes. */
char *xl_fmt_u64(char *p, uint64_t v);

/* Writes @p v in decimal at @p p; returns the end. @p p needs 21 bytes. */
char *xl_fmt_i64(char *p, int64_t v);

#endif /* XL_SIDE_CSV_H */
