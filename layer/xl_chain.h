/*
 * The chain check: where this layer's partner sits in the layer chain the
 * loader hands to xrCreateApiLayerInstance, and what lies in between.
 * The pre side uses it to name the target layer, to find post's
 * xrGetInstanceProcAddr, and to warn when post is missing or more than one
 * layer sits between them; the post side to warn when pre sits below it.
 *
 * Each element of the loader's list names one layer and carries the
 * functions of the layer below it; the first names the layer being created.
 */
#ifndef XL_CHAIN_H
#define XL_CHAIN_H

#include "loader_abi.h"

#include <stdbool.h>

struct xl_chain_report {
	bool partner_found;      /* the partner is below this layer */
	unsigned between;        /* layers between this one and the partner */
	char between_names[512]; /* their names joined by '+', or "none" */
	/* The partner's own xrGetInstanceProcAddr, when found. */
	PFN_xrGetInstanceProcAddr partner_gipa;
};

/* Walks the list handed to layer @p self, looking below it for @p partner. */
void xl_chain_inspect(const XrApiLayerNextInfo *list, const char *self, const char *partner,
                      struct xl_chain_report *out);

#endif /* XL_CHAIN_H */
