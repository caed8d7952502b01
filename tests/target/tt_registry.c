/*
 * Handle -> record map of the synthetic target layer.
 */
#include "tt_registry.h"

#include <stddef.h>

void *tt_registry_find(struct tt_registry *reg, uint64_t handle)
{
	void *found = NULL;
	pthread_mutex_lock(&reg->lock);
	for (int i = 0; i < TT_REGISTRY_SIZE && !found; i++)
		if (reg->entry[i].record && reg->entry[i].handle == handle)
			found = reg->entry[i].record;
	pthread_mutex_unlock(&reg->lock);
	return found;
}

bool tt_registry_add(struct tt_registry *reg, uint64_t handle, void *record)
{
	bool added = false;
	pthread_mutex_lock(&reg->lock);
	for (int i = 0; i < TT_REGISTRY_SIZE && !added; i++) {
		if (!reg->entry[i].record) {
			reg->entry[i].handle = handle;
			reg->entry[i].record = record;
			added = true;
		}
	}
	pthread_mutex_unlock(&reg->lock);
	return added;
}

static bool any_record(void *record, void *ctx)
{
	(void)record;
	(void)ctx;
	return true;
}

/* Removes the first entry whose handle is @p handle (or any, if !by_handle)
 * and whose record matches. */
static void *take(struct tt_registry *reg, bool by_handle, uint64_t handle,
                  bool (*match)(void *record, void *ctx), void *ctx)
{
	void *found = NULL;
	pthread_mutex_lock(&reg->lock);
	for (int i = 0; i < TT_REGISTRY_SIZE && !found; i++) {
		void *rec = reg->entry[i].record;
		if (!rec || (by_handle && reg->entry[i].handle != handle) || !match(rec, ctx))
			continue;
		found = rec;
		reg->entry[i].record = NULL;
	}
	pthread_mutex_unlock(&reg->lock);
	return found;
}

void *tt_registry_take(struct tt_registry *reg, uint64_t handle)
{
	return take(reg, true, handle, any_record, NULL);
}

void *tt_registry_take_if(struct tt_registry *reg, bool (*match)(void *record, void *ctx),
                          void *ctx)
{
	return take(reg, false, 0, match, ctx);
}
