/*
 * libxlsxwriter loaded on first use; see xlsx_lib.h.
 */
#define XLSX_LIB_DEFINE
#include "xlsx_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef XRLM_XLSXWRITER_SONAME
#define XRLM_XLSXWRITER_SONAME "libxlsxwriter.so.4"
#endif

struct xlsx_lib xlsx_lib;

int xlsx_lib_load(char *msg, size_t msg_size)
{
	static void *handle;
	struct xlsx_lib lib;

	if (handle)
		return 0;
	void *h = dlopen(XRLM_XLSXWRITER_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(msg, msg_size, "cannot load %s (Debian: libxlsxwriter4): %s",
		         XRLM_XLSXWRITER_SONAME, dlerror());
		return -1;
	}
	/* Through a void * copied into the pointer: ISO C has no cast from an
	 * object pointer to a function pointer. */
#define XLSX_LIB_LOAD(f)                                                                         \
	{                                                                                        \
		void *sym = dlsym(h, #f);                                                        \
		if (!sym) {                                                                      \
			snprintf(msg, msg_size, "%s lacks %s", XRLM_XLSXWRITER_SONAME, #f);      \
			dlclose(h);                                                              \
			return -1;                                                               \
		}                                                                                \
		memcpy(&lib.f, &sym, sizeof(sym));                                               \
	}
	XLSX_LIB_FUNCTIONS(XLSX_LIB_LOAD)
#undef XLSX_LIB_LOAD
	xlsx_lib = lib;
	handle = h;
	return 0;
}
