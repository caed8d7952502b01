/*
 * The chain check: where this layer's partner sits in the layer chain the
 * loader hands to xrCreateApiLayerInstance, and what lies in between.
 * The pre side uses it to name the target layer and to warn when post is
 * missing or more than one layer sits between them; the post side to warn
 * when pre sits below it.
 */
#ifndef XL_CHAIN_H
#define XL_CHAIN_H

#include "loader_abi.h"

#include <stdbool.h>

struct xl_chain_report {
	bool partner_found;     /* the partner is below this layer */
	unsigned between;       /* layers between this one and the partner */
	char between_names[512]; /* their names joined by '+', or "none" */
};

/* Walks @p next (the layers below this one) looking for @p partner. */
void xl_chain_inspect(const XrApiLayerNextInfo *next, const char *partner,
                      struct xl_chain_report *out);

#endif /* XL_CHAIN_H */
