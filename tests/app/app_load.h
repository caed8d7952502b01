/*
 * --gpu-us N: the app's own GPU load, N us of closed-loop fill work per
 * frame (tests/common/gw_work.h) submitted on the app's queue before
 * xrEndFrame's GPU bracket, and its self-measured duration per frame
 * (--stats: app_gpu_load_ns).
 */
#ifndef APP_LOAD_H
#define APP_LOAD_H

#include <stdbool.h>

struct app;

/* Creates and calibrates the load if --gpu-us asks for one (else no-op). */
bool app_load_create(struct app *app);

/* Submits this frame's load (no-op without one). Never blocks. */
bool app_load_submit(struct app *app);

/* Waits for the load, hands its last samples to the stats, destroys it. */
void app_load_destroy(struct app *app);

#endif /* APP_LOAD_H */
