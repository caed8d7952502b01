/*
 * libxlsxwriter, loaded by `xrlm xlsx` when it first needs it (dlopen)
 * instead of by the dynamic linker at every start of `xrlm`: the library
 * brings libminizip, zlib and libcrypto, whose loading and relocation
 * cost every `xrlm merge` and `xrlm stats` several milliseconds for
 * nothing (see bench/RESULTS.md, offline merge at 10^4 frames).
 *
 * Files that use the library include this header instead of
 * <xlsxwriter.h>: each function used is then a pointer in xlsx_lib, under
 * its own name, so the calls read as plain libxlsxwriter calls.
 */
#ifndef XRLM_XLSX_LIB_H
#define XRLM_XLSX_LIB_H

#include <stddef.h>

#include <xlsxwriter.h>

/* Every libxlsxwriter function xrlm calls. */
#define XLSX_LIB_FUNCTIONS(X)                                                                   \
	X(chart_add_series) X(chart_axis_set_name) X(chart_legend_set_position)                  \
	X(chart_series_set_categories) X(chart_series_set_name_range)                            \
	X(chart_series_set_values) X(chart_set_series_gap) X(chart_show_blanks_as)               \
	X(chart_title_set_name) X(format_set_bold) X(format_set_num_format) X(lxw_strerror)      \
	X(lxw_workbook_free) X(workbook_add_chart) X(workbook_add_format)                        \
	X(workbook_add_worksheet) X(workbook_close) X(workbook_new_opt)                          \
	X(worksheet_freeze_panes) X(worksheet_insert_chart_opt) X(worksheet_set_column)          \
	X(worksheet_write_number) X(worksheet_write_string)

struct xlsx_lib {
#define XLSX_LIB_MEMBER(f) __typeof__(&f) f;
	XLSX_LIB_FUNCTIONS(XLSX_LIB_MEMBER)
#undef XLSX_LIB_MEMBER
};

/* The loaded functions (all NULL until xlsx_lib_load() succeeded). */
extern struct xlsx_lib xlsx_lib;

/*
 * Loads the library (once; later calls return at once). Returns 0, or -1
 * with a message in @p msg (the library or a function is missing).
 */
int xlsx_lib_load(char *msg, size_t msg_size);

#ifndef XLSX_LIB_DEFINE
#define chart_add_series (xlsx_lib.chart_add_series)
#define chart_axis_set_name (xlsx_lib.chart_axis_set_name)
#define chart_legend_set_position (xlsx_lib.chart_legend_set_position)
#define chart_series_set_categories (xlsx_lib.chart_series_set_categories)
#define chart_series_set_name_range (xlsx_lib.chart_series_set_name_range)
#define chart_series_set_values (xlsx_lib.chart_series_set_values)
#define chart_set_series_gap (xlsx_lib.chart_set_series_gap)
#define chart_show_blanks_as (xlsx_lib.chart_show_blanks_as)
#define chart_title_set_name (xlsx_lib.chart_title_set_name)
#define format_set_bold (xlsx_lib.format_set_bold)
#define format_set_num_format (xlsx_lib.format_set_num_format)
#define lxw_strerror (xlsx_lib.lxw_strerror)
#define lxw_workbook_free (xlsx_lib.lxw_workbook_free)
#define workbook_add_chart (xlsx_lib.workbook_add_chart)
#define workbook_add_format (xlsx_lib.workbook_add_format)
#define workbook_add_worksheet (xlsx_lib.workbook_add_worksheet)
#define workbook_close (xlsx_lib.workbook_close)
#define workbook_new_opt (xlsx_lib.workbook_new_opt)
#define worksheet_freeze_panes (xlsx_lib.worksheet_freeze_panes)
#define worksheet_insert_chart_opt (xlsx_lib.worksheet_insert_chart_opt)
#define worksheet_set_column (xlsx_lib.worksheet_set_column)
#define worksheet_write_number (xlsx_lib.worksheet_write_number)
#define worksheet_write_string (xlsx_lib.worksheet_write_string)
#endif

#endif /* XRLM_XLSX_LIB_H */
