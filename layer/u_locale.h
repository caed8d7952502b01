/*
 * The "C" locale object, one per process, for locale-independent number
 * formatting and parsing (a host application's LC_NUMERIC may use ',').
 */
#ifndef XRLM_U_LOCALE_H
#define XRLM_U_LOCALE_H

#include <locale.h>

/*
 * The "C" locale, created on the first call and never freed (it lives as
 * long as the process, like libc's own locale objects); (locale_t)0 if it
 * could not be created. Thread-safe.
 */
locale_t u_locale_c(void);

#endif /* XRLM_U_LOCALE_H */
