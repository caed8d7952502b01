/*
 * File names as messages and listings show them, and a file's text as
 * tables show it.
 *
 * A file name is any bytes but '/' and NUL: one found in a directory or
 * given on the command line may hold an escape sequence or a line end,
 * which copied to a terminal would recolour it, move its cursor or fake a
 * line of its own. Messages show such a name escaped instead.
 */
#ifndef XRLM_QUOTE_H
#define XRLM_QUOTE_H

#include <stddef.h>

/* The buffer quote_path() escapes into (a message is shorter anyway). */
#define QUOTE_PATH_MAX 512

/*
 * @p path as a message shows it. A path with no control (a byte below
 * 0x20, 0x7f, a C1 control: U+0080 to U+009F in UTF-8, or a byte 0x80 to
 * 0x9f in no UTF-8 sequence) and no backslash is returned as it is:
 * ordinary names, UTF-8 ones included, read as they always did. Any other
 * is written into @p buf (QUOTE_PATH_MAX bytes) with C escapes and
 * returned: \n, \r, \t, "\\" for a backslash and \ooo (three octal
 * digits, \033 for ESC, \302\233 for U+009B) for the other control
 * bytes. Only an escaped name holds a backslash, so the two forms cannot
 * be confused. An escaped name too long for @p buf ends in "..." after a
 * whole escape.
 */
const char *quote_path(char *buf, const char *path);

/*
 * The first @p len bytes of @p text (up to its NUL; (size_t)-1: all of it,
 * up to 4095 bytes) as quote_path() shows them, always into @p buf (@p
 * size bytes, cut to fit), which may be @p text itself: for text that is
 * not NUL-terminated (a name array an application may fill whole), and
 * for a caller that needs the shown text in a buffer of its own.
 */
const char *quote_path_to(char *buf, size_t size, const char *text, size_t len);

/*
 * A file's text (a function's name, a summary value) made fit for a
 * terminal in place: each control quote_path() would escape, a backslash
 * aside, becomes one '?' (a C1 control in UTF-8 with its two bytes).
 * Other text, UTF-8 included, is left as it is.
 */
void quote_text(char *s);

#endif /* XRLM_QUOTE_H */
