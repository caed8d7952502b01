/*
 * The provider's probes: LTTng-UST generates them from xt_tp.h here, and
 * registers them with liblttng-ust when libxrlm_lttng.so is loaded.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "xt_tp.h"
