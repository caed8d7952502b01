/*
 * Handle table. Handles are generation-tagged slot numbers, never pointers,
 * so a stale or made-up handle is detected instead of dereferenced.
 */
#include "rt_internal.h"

#include <stdlib.h>

#define RT_HANDLE_SLOTS 4096
#define RT_HANDLE_TAG 0x5254000000000000ull /* "RT": no small integer is a handle */

struct rt_slot {
	enum rt_handle_type type; /* 0: free */
	uint32_t gen;
	void *obj;
	uint64_t parent;
	rt_destroy_fn destroy;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_slot g_slots[RT_HANDLE_SLOTS];

static uint64_t encode(uint32_t index, uint32_t gen)
{
	return RT_HANDLE_TAG | ((uint64_t)(gen & 0xffffff) << 16) | (index + 1);
}

/* The slot of a live @p handle, or NULL; g_lock held. */
static struct rt_slot *lookup(uint64_t handle)
{
	if ((handle & 0xffff000000000000ull) != RT_HANDLE_TAG)
		return NULL;
	uint32_t index = (uint32_t)(handle & 0xffff);
	if (index == 0 || index > RT_HANDLE_SLOTS)
		return NULL;
	struct rt_slot *s = &g_slots[index - 1];
	if (s->type == 0 || encode(index - 1, s->gen) != handle)
		return NULL;
	return s;
}

uint64_t rt_handle_add(enum rt_handle_type type, void *obj, uint64_t parent, rt_destroy_fn destroy)
{
	uint64_t handle = 0;
	pthread_mutex_lock(&g_lock);
	for (uint32_t i = 0; i < RT_HANDLE_SLOTS; i++) {
		struct rt_slot *s = &g_slots[i];
		if (s->type != 0)
			continue;
		s->type = type;
		s->gen++;
		s->obj = obj;
		s->parent = parent;
		s->destroy = destroy;
		handle = encode(i, s->gen);
		break;
	}
	pthread_mutex_unlock(&g_lock);
	return handle;
}

XrResult rt_handle_add_or_destroy(enum rt_handle_type type, void *obj, uint64_t parent,
                                  rt_destroy_fn destroy, uint64_t *out)
{
	*out = rt_handle_add(type, obj, parent, destroy);
	if (*out)
		return XR_SUCCESS;
	destroy(obj);
	return XR_ERROR_LIMIT_REACHED;
}

void *rt_handle_get(uint64_t handle, enum rt_handle_type type)
{
	pthread_mutex_lock(&g_lock);
	struct rt_slot *s = lookup(handle);
	void *obj = (s && s->type == type) ? s->obj : NULL;
	pthread_mutex_unlock(&g_lock);
	return obj;
}

uint64_t rt_handle_parent(uint64_t handle)
{
	pthread_mutex_lock(&g_lock);
	struct rt_slot *s = lookup(handle);
	uint64_t parent = s ? s->parent : 0;
	pthread_mutex_unlock(&g_lock);
	return parent;
}

/* Some live child of @p handle, or 0. */
static uint64_t first_child(uint64_t handle)
{
	uint64_t child = 0;
	pthread_mutex_lock(&g_lock);
	for (uint32_t i = 0; i < RT_HANDLE_SLOTS && !child; i++)
		if (g_slots[i].type != 0 && g_slots[i].parent == handle)
			child = encode(i, g_slots[i].gen);
	pthread_mutex_unlock(&g_lock);
	return child;
}

void rt_handle_destroy(uint64_t handle)
{
	/* Children go first: a session's swapchains need its VkDevice. */
	uint64_t child;
	while ((child = first_child(handle)) != 0)
		rt_handle_destroy(child);

	pthread_mutex_lock(&g_lock);
	struct rt_slot *s = lookup(handle);
	void *obj = s ? s->obj : NULL;
	rt_destroy_fn destroy = s ? s->destroy : NULL;
	if (s)
		s->type = 0;
	pthread_mutex_unlock(&g_lock);

	if (obj && destroy)
		destroy(obj);
}

XrResult rt_handle_destroy_as(uint64_t handle, enum rt_handle_type type)
{
	if (!rt_handle_get(handle, type))
		return XR_ERROR_HANDLE_INVALID;
	rt_handle_destroy(handle);
	return XR_SUCCESS;
}
