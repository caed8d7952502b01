/*
 * The test app's input and tracking, the part of a real engine's frame
 * that is not rendering: an action set of two-handed actions (buttons,
 * triggers, thumbsticks, grip and aim poses) synced and read every frame,
 * and the hands, head and stage located every frame (--calls full).
 */
#ifndef APP_INPUT_H
#define APP_INPUT_H

#include "app_stats.h"

#include <openxr/openxr.h>
#include <stdbool.h>

/* Actions, each with a left- and a right-hand subaction path. */
enum app_action {
	APP_ACTION_SELECT,     /* boolean */
	APP_ACTION_MENU,       /* boolean */
	APP_ACTION_TRIGGER,    /* float */
	APP_ACTION_SQUEEZE,    /* float */
	APP_ACTION_THUMBSTICK, /* vector2f */
	APP_ACTION_GRIP,       /* pose, with an action space per hand */
	APP_ACTION_AIM,        /* pose, with an action space per hand */
	APP_ACTION_COUNT
};

#define APP_HANDS 2
/* The grip and aim spaces of both hands, then VIEW and STAGE. */
#define APP_LOCATED_SPACES (2 * APP_HANDS + 2)

struct app_input {
	XrActionSet set;
	XrAction actions[APP_ACTION_COUNT];
	XrPath hands[APP_HANDS];
	XrSpace spaces[APP_LOCATED_SPACES]; /* located in the app's LOCAL space */
};

/*
 * Creates the action set, its actions and suggested bindings (in
 * @p instance), attaches it to @p session and creates the spaces to locate.
 * On failure prints why; @p in is then safe for app_input_destroy().
 */
bool app_input_create(struct app_input *in, XrInstance instance, XrSession session);

/* Destroys the spaces and the action set (with its actions). False if a call failed. */
bool app_input_destroy(struct app_input *in);

/*
 * xrSyncActions, then every action's state for each hand (14 calls), each
 * timed into @p st as frame @p frame's.
 */
bool app_input_sync(struct app_input *in, XrSession session, struct app_stats *st, uint64_t frame);

/* xrLocateSpace of every space in @p base at @p time (6 calls), timed likewise. */
bool app_input_locate(struct app_input *in, XrSpace base, XrTime time, struct app_stats *st,
                      uint64_t frame);

#endif /* APP_INPUT_H */
