/*
 * A layer library's entry points, negotiated as the loader does: for the
 * tests that load the real libraries without a loader.
 */
#ifndef TL_NEGOTIATE_H
#define TL_NEGOTIATE_H

#include "loader_abi.h"

#include <stdbool.h>

/* Negotiates with the library @p lib (dlopen'ed) into @p request; false on failure. */
bool tl_negotiate(void *lib, XrNegotiateApiLayerRequest *request);

#endif /* TL_NEGOTIATE_H */
