/*
 * The process's "C" locale object; see u_locale.h.
 */
#include "u_locale.h"

#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void create(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t u_locale_c(void)
{
	pthread_once(&once, create);
	return c_locale;
}
