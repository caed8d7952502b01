/*
 * After one failed vkQueueSubmit of a GPU timestamp (a lost device), the
 * layer puts nothing more on the application's queue (layer/xl_gpu.c,
 * xl_gpu_stamp): every later frame returns at once, its sample counted as
 * lost. Against a stand-in queue that fails from its third submission.
 */
#include "xl_gpu.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned submits, set_events;

static VKAPI_ATTR VkResult VKAPI_CALL fake_submit(VkQueue queue, uint32_t n,
                                                   const VkSubmitInfo *info, VkFence fence)
{
	(void)queue, (void)n, (void)info, (void)fence;
	return ++submits >= 3 ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_set_event(VkDevice device, VkEvent event)
{
	(void)device, (void)event;
	set_events++;
	return VK_SUCCESS;
}

int main(void)
{
	struct xl_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return 1;
	gpu->vk.QueueSubmit = fake_submit;
	gpu->vk.SetEvent = fake_set_event;
	atomic_init(&gpu->submit_error, VK_SUCCESS);

	unsigned ok = 0;
	for (int frame = 0; frame < 10; frame++)
		ok += xl_gpu_stamp(gpu, 1000 + frame, 1, false, 1);
	int failures = 0;
	if (ok != 2 || submits != 3) {
		fprintf(stderr, "FAIL: %u samples taken, %u submissions made; want 2 and 3 (none "
		        "after the failed one)\n", ok, submits);
		failures++;
	}
	if (atomic_load(&gpu->submit_error) != VK_ERROR_DEVICE_LOST) {
		fprintf(stderr, "FAIL: the failure was not kept for the writer to log\n");
		failures++;
	}
	free(gpu);
	if (!failures)
		printf("-- after a failed submission, nothing more is submitted\n");
	return failures != 0;
}
