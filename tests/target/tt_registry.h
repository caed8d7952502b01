/*
 * A small thread-safe map from OpenXR handles to the target's records
 * (instances, sessions). Few entries, so a locked linear scan.
 */
#ifndef TT_REGISTRY_H
#define TT_REGISTRY_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define TT_REGISTRY_SIZE 16

struct tt_registry {
	pthread_mutex_t lock;
	struct {
		uint64_t handle;
		void *record;
	} entry[TT_REGISTRY_SIZE];
};

#define TT_REGISTRY_INIT {.lock = PTHREAD_MUTEX_INITIALIZER}

/* The record of @p handle, or NULL. */
void *tt_registry_find(struct tt_registry *reg, uint64_t handle);

/* Adds @p record under @p handle; false if the registry is full. */
bool tt_registry_add(struct tt_registry *reg, uint64_t handle, void *record);

/* Removes @p handle's entry and returns its record (NULL if none). */
void *tt_registry_take(struct tt_registry *reg, uint64_t handle);

/* Removes and returns the first record for which @p match is true, or NULL. */
void *tt_registry_take_if(struct tt_registry *reg, bool (*match)(void *record, void *ctx),
                          void *ctx);

#endif /* TT_REGISTRY_H */
