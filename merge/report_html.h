/*
 * Writing `xrlm report`'s self-contained HTML page: dygraphs and the page
 * script inlined (report_assets.h), the session's data in one JSON block.
 *
 * Safety: every string that comes from a session (metadata values, column
 * and function names) goes only into that JSON block, escaped by jsonw.h
 * ('<' as \u003c, so nothing can close the element), and the page script
 * puts them into the document with textContent only. The one string in
 * the markup itself, the <title>, is HTML-escaped, its bytes that are not
 * UTF-8 and its control characters written as U+FFFD (utf8.h). As a second line of
 * defence the page carries a Content-Security-Policy that runs only the
 * two scripts bearing a fresh random nonce and allows no network access.
 *
 * Size: each per-frame series is kept whole as little-endian float32 in
 * base64 (5.3 bytes per value), so a 10^6-frame session with the three
 * main series is about 16 MB; statistics, histograms and percentile curves
 * are computed here, so the page need not sort anything.
 */
#ifndef XRLM_REPORT_HTML_H
#define XRLM_REPORT_HTML_H

#include <stdio.h>

#include "ncsv.h"

/* The most warnings a page shows (the files' own and the checks'). */
#define REPORT_HTML_WARNINGS 8

/* What one report shows. */
struct report_html_input {
	const char *frames_path;      /* shown as the source */
	const struct ncsv *frames;    /* the merged CSV */
	const char *functions_path;   /* NULL when there is no functions file */
	const struct ncsv *functions; /* its rows, or NULL */
	const char *generator;        /* "xrlm 0.1.0" */
	const char *warnings[REPORT_HTML_WARNINGS]; /* shown on the page; NULL after the last */
};

/*
 * Writes the page for @p in to @p f. Returns 0, or -1 when out of memory
 * (the caller checks @p f for write errors).
 */
int report_html_write(FILE *f, const struct report_html_input *in);

#endif /* XRLM_REPORT_HTML_H */
