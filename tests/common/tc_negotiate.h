/*
 * The loader negotiation checks shared by the test runtime (tests/runtime)
 * and the synthetic target layer (tests/target): what each answers the
 * loader depends on these, so they are written once. See the OpenXR loader
 * specification, "Loader/runtime interface negotiation" and "Loader/API
 * layer interface negotiation".
 */
#ifndef TC_NEGOTIATE_H
#define TC_NEGOTIATE_H

#include "loader_abi.h"

#include <stdbool.h>

/*
 * True if @p info and @p request are what xrNegotiateLoaderRuntimeInterface
 * can answer: both structures of the type, version and size this build
 * knows, and the loader's interface range contains ours.
 */
bool tc_negotiate_runtime_ok(const XrNegotiateLoaderInfo *info,
                             const XrNegotiateRuntimeRequest *request);

/* The same for xrNegotiateLoaderApiLayerInterface's @p info and @p request. */
bool tc_negotiate_layer_ok(const XrNegotiateLoaderInfo *info,
                           const XrNegotiateApiLayerRequest *request);

#endif /* TC_NEGOTIATE_H */
