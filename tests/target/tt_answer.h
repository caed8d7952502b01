/*
 * The functions the synthetic target can answer itself, without calling
 * down (XRTEST_TARGET_ANSWER_<function>): each answer is a well-formed
 * result a runtime could give.
 */
#ifndef TT_ANSWER_H
#define TT_ANSWER_H

#include "xl_fn.h"

/* The target's own answer to function @p id (its PFN type), or NULL if it has none. */
PFN_xrVoidFunction tt_answer_for(enum xl_fn_id id);

#endif /* TT_ANSWER_H */
