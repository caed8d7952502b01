/*
 * The test app's stereo swapchain: one swapchain with two array layers,
 * one per eye, cleared every frame.
 */
#ifndef APP_SWAPCHAIN_H
#define APP_SWAPCHAIN_H

#include "app_stats.h"
#include "app_vk.h"

/* Renders stay small: the GPU work should be "a little", even on lavapipe. */
#define APP_SWAPCHAIN_MAX_SIZE 512

struct app_swapchain {
	XrSwapchain handle;
	int64_t format;
	uint32_t width;
	uint32_t height;
	uint32_t layers; /* 2: one per view */
	uint32_t image_count;
	bool gl; /* GL textures (app_egl.c) rather than VkImages */
	union {
		XrSwapchainImageVulkanKHR *images;
		XrSwapchainImageOpenGLKHR *gl_images;
	};
};

/*
 * Creates a swapchain sized from the stereo view configuration of @p system,
 * of GL textures if @p gl (the session's GL context current), else of VkImages.
 * On failure prints why; @p sc is then safe for app_swapchain_destroy().
 */
bool app_swapchain_create(struct app_swapchain *sc, XrInstance xr, XrSystemId system,
                          XrSession session, bool gl);

/* Destroys the swapchain (safe on a partly created one). False if that failed. */
bool app_swapchain_destroy(struct app_swapchain *sc);

/* Acquires and waits for the next image; its index goes to @p index.
 * Both calls are timed into @p st as frame @p frame's. */
bool app_swapchain_acquire(struct app_swapchain *sc, struct app_stats *st, uint64_t frame,
                           uint32_t *index);

/* Releases the image acquired last (timed as app_swapchain_acquire()'s calls). */
bool app_swapchain_release(struct app_swapchain *sc, struct app_stats *st, uint64_t frame);

#endif /* APP_SWAPCHAIN_H */
