/*
 * The frame phases of an OpenXR function (README "The merged CSV"): which
 * part of the frame loop a call belongs to. One home for the layers
 * (XRLM_FUNCTIONS takes phase names) and xrlm (the per-phase columns and
 * the functions file).
 */
#ifndef XRLM_U_PHASE_H
#define XRLM_U_PHASE_H

#include <stdbool.h>

/* In the order of the merged CSV's target_<phase>_us columns. */
enum u_phase {
	U_PHASE_WAIT,         /* xrWaitFrame */
	U_PHASE_BEGIN,        /* xrBeginFrame */
	U_PHASE_END,          /* xrEndFrame */
	U_PHASE_LOCATE_VIEWS, /* xrLocateViews */
	U_PHASE_SYNC_ACTIONS, /* xrSyncActions, xrGetActionState* */
	U_PHASE_SWAPCHAIN,    /* xrAcquire/Wait/ReleaseSwapchainImage */
	U_PHASE_OTHER,        /* every other function */
	U_PHASE_COUNT,
};

/* The phase of the function named @p fn (U_PHASE_OTHER for any other name). */
enum u_phase u_phase_of(const char *fn);

/* The phase's name: "wait", "begin", ..., "other". */
const char *u_phase_name(enum u_phase phase);

/* The phase named @p name into *@p out; false when @p name is none. */
bool u_phase_parse(const char *name, enum u_phase *out);

/* A set of phases: bit p for phase p. Every phase: every function. */
#define U_PHASE_ALL ((1u << U_PHASE_COUNT) - 1)

/* The longest text u_phase_set_format() writes, with its NUL. */
#define U_PHASE_SET_MAX 64

/*
 * The phases of @p set as their names in phase order, comma-separated
 * ("wait,begin,end"; "" for none), into @p out (U_PHASE_SET_MAX bytes).
 */
void u_phase_set_format(unsigned set, char out[U_PHASE_SET_MAX]);

/*
 * The phases named in the comma list @p text (blanks around names
 * ignored; "" is none) into *@p out; false when a name is no phase.
 */
bool u_phase_set_parse(const char *text, unsigned *out);

#endif /* XRLM_U_PHASE_H */
