/*
 * The files `xrlm report` inlines into every report, compiled in at build
 * time (merge/report/embed.cmake writes report_assets.c): Debian's
 * libjs-dygraphs (script and style sheet) and the page's own script and
 * style sheet from merge/report/. Each is NUL-terminated text, checked at
 * build time to be safe inside a <script> or <style> element.
 */
#ifndef XRLM_REPORT_ASSETS_H
#define XRLM_REPORT_ASSETS_H

#include <stddef.h>

extern const char report_asset_dygraph_js[];
extern const size_t report_asset_dygraph_js_len;
extern const char report_asset_dygraph_css[];
extern const size_t report_asset_dygraph_css_len;
extern const char report_asset_page_js[];
extern const size_t report_asset_page_js_len;
extern const char report_asset_page_css[];
extern const size_t report_asset_page_css_len;

#endif /* XRLM_REPORT_ASSETS_H */
