/*
 * A layer library's entry points, negotiated as the loader does: for the
 * tests that load the real libraries without a loader.
 */
#ifndef TL_NEGOTIATE_H
#define TL_NEGOTIATE_H

#include "loader_abi.h"

#include <stdbool.h>

/* The loader's side of a negotiation, as the Khronos loader fills it. */
XrNegotiateLoaderInfo tl_loader_info(void);

/* An empty request, as the loader hands it to a layer. */
XrNegotiateApiLayerRequest tl_layer_request(void);

/* One element of the loader's chain below a layer: @p name's entry points, then @p next. */
XrApiLayerNextInfo tl_next_info(const char *name, PFN_xrGetInstanceProcAddr gipa,
                                PFN_xrCreateApiLayerInstance create, XrApiLayerNextInfo *next);

/* The loader's create info for a layer, its chain starting at @p next. */
XrApiLayerCreateInfo tl_create_info(XrApiLayerNextInfo *next);

/* Negotiates with the library @p lib (dlopen'ed) into @p request; false on failure. */
bool tl_negotiate(void *lib, XrNegotiateApiLayerRequest *request);

#endif /* TL_NEGOTIATE_H */
