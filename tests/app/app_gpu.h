/*
 * The test app's per-frame GPU work and its GPU bracket of xrEndFrame.
 *
 * Each frame uses one slot of a small ring: a render command buffer (clear
 * of the swapchain image), a command buffer with timestamp A submitted just
 * before xrEndFrame, one with timestamp B submitted just after, and a fence
 * on B's submission. A slot is reused only after its fence signalled; then
 * its timestamps are read (availability bit, no wait) - a few frames after
 * they were written, outside any measured bracket.
 */
#ifndef APP_GPU_H
#define APP_GPU_H

#include "app_stats.h"
#include "app_vk.h"

#define APP_GPU_SLOTS 3

struct app_gpu_slot {
	VkCommandBuffer render;
	VkCommandBuffer mark_before;
	VkCommandBuffer mark_after;
	VkFence fence;
	bool pending; /* submitted, results not read yet */
	uint64_t frame;
};

struct app_gpu {
	const struct app_vk *vk;
	VkCommandPool pool;
	VkQueryPool queries; /* 2 per slot; VK_NULL_HANDLE without timestamps */
	struct app_gpu_slot slot[APP_GPU_SLOTS];
	uint32_t cur;
};

/* Creates the ring on @p vk's queue. False on failure (printed). */
bool app_gpu_create(struct app_gpu *g, const struct app_vk *vk);

/* Waits for all submitted work and destroys the ring (safe if partly created). */
void app_gpu_destroy(struct app_gpu *g);

/*
 * Makes the current slot free for frame @p frame: waits for its previous
 * use and hands that use's GPU bracket to @p stats.
 */
bool app_gpu_begin_frame(struct app_gpu *g, uint64_t frame, struct app_stats *stats);

/* Clears @p layers layers of @p image (leaving it COLOR_ATTACHMENT_OPTIMAL) and submits. */
bool app_gpu_render(struct app_gpu *g, VkImage image, uint32_t layers, uint64_t frame);

/* Submits timestamp A; call just before xrEndFrame. */
bool app_gpu_mark_before(struct app_gpu *g);

/* Submits timestamp B with the slot's fence and moves to the next slot. */
bool app_gpu_mark_after(struct app_gpu *g);

/* Waits for every pending slot and hands its bracket to @p stats. */
bool app_gpu_drain(struct app_gpu *g, struct app_stats *stats);

#endif /* APP_GPU_H */
