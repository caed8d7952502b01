/*
 * Every OpenXR function, from the list generated at build time out of the
 * installed headers (gen/xl_gen_functions.py writes xl_fn_list.h): a
 * function id per function, its name, and the next layer's dispatch table.
 * Functions under a platform guard exist here only where the layer is built
 * with that guard (see xl_openxr.h).
 *
 * The list is an X-macro, XL_FN(ret, name, params, args): params is the
 * parenthesised parameter list with types, args the same names without, so
 * that a wrapper can be written as
 *
 *   #define XL_FN(ret, name, params, args) ret wrap_##name params { ... next.name args; }
 */
#ifndef XL_FN_H
#define XL_FN_H

#include "xl_openxr.h"

#include <stdbool.h>

/* Strips the parentheses of an X-macro's params or args. */
#define XL_UNPAREN(...) __VA_ARGS__

/* XL_FN_xrEndFrame, ...: indices into xl_fn_names and the dispatch table. */
enum xl_fn_id {
#define XL_FN(ret, name, params, args) XL_FN_##name,
#include "xl_fn_list.h"
#undef XL_FN
	XL_FN_COUNT
};

/* The next layer's function for every id; NULL where it has none. */
struct xl_dispatch {
#define XL_FN(ret, name, params, args) PFN_##name name;
#include "xl_fn_list.h"
#undef XL_FN
};

/* Function names by id ("xrEndFrame"). */
extern const char *const xl_fn_names[XL_FN_COUNT];

/* The id of function @p name, or XL_FN_COUNT for a name the headers do not know. */
enum xl_fn_id xl_fn_lookup(const char *name);

/*
 * Clears @p d, then fills in the @p count functions @p ids from @p gipa for
 * @p instance (NULL where the next layer has none), and gipa itself. Only
 * the functions the layer calls are asked for: every request shows in the
 * chain below (an api_dump layer lists it), and the layer must not change
 * what the chain sees. A wrapper handed out by xrGetInstanceProcAddr gets
 * its slot filled there, from the next layer's answer to the application.
 */
void xl_dispatch_fill(struct xl_dispatch *d, PFN_xrGetInstanceProcAddr gipa, XrInstance instance,
                      const enum xl_fn_id *ids, size_t count);

/* The slot of function @p id in @p d. */
PFN_xrVoidFunction *xl_dispatch_slot(struct xl_dispatch *d, enum xl_fn_id id);

#endif /* XL_FN_H */
