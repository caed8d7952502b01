/*
 * The frame thread's GPU timestamps (layer/xl_gpu.c), against a stand-in
 * queue:
 *   - after one failed vkQueueSubmit (a lost device) the layer puts nothing
 *     more on the application's queue: every later frame returns at once,
 *     its sample counted as lost (xl_gpu_stamp);
 *   - the samples submitted and never collected are each reported with
 *     their session before the GPU state goes (xl_gpu_each_uncollected),
 *     so that xrDestroySession counts them as lost.
 */
#include "xl_gpu.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned submits, set_events, fail_from = 3;

static VKAPI_ATTR VkResult VKAPI_CALL fake_submit(VkQueue queue, uint32_t n,
                                                   const VkSubmitInfo *info, VkFence fence)
{
	(void)queue, (void)n, (void)info, (void)fence;
	return ++submits >= fail_from ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_set_event(VkDevice device, VkEvent event)
{
	(void)device, (void)event;
	set_events++;
	return VK_SUCCESS;
}

static struct xl_gpu *fake_gpu(void)
{
	struct xl_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		exit(1);
	gpu->vk.QueueSubmit = fake_submit;
	gpu->vk.SetEvent = fake_set_event;
	atomic_init(&gpu->submit_error, VK_SUCCESS);
	return gpu;
}

static unsigned lost_of[3];

static void lost(void *ctx, uint32_t session_id)
{
	(void)ctx;
	lost_of[session_id < 3 ? session_id : 0]++;
}

/* Three samples of sessions 1, 1 and 2 submitted, none collected: each reported. */
static int check_uncollected(void)
{
	struct xl_gpu *gpu = fake_gpu();
	fail_from = 1000;
	bool ok = xl_gpu_stamp(gpu, 1, 1, 1, false, 1) && xl_gpu_stamp(gpu, 2, 2, 1, false, 1) &&
	          xl_gpu_stamp(gpu, 3, 3, 2, false, 1);
	xl_gpu_each_uncollected(gpu, lost, NULL);
	free(gpu);
	if (ok && lost_of[1] == 2 && lost_of[2] == 1 && lost_of[0] == 0)
		return 0;
	fprintf(stderr, "FAIL: uncollected samples reported %u (session 1), %u (session 2), %u "
	        "(other); want 2, 1, 0\n", lost_of[1], lost_of[2], lost_of[0]);
	return 1;
}

int main(void)
{
	struct xl_gpu *gpu = fake_gpu();
	unsigned ok = 0;
	for (int frame = 0; frame < 10; frame++)
		ok += xl_gpu_stamp(gpu, 1000 + frame, frame, 1, false, 1);
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
	failures += check_uncollected();
	if (!failures)
		printf("-- after a failed submission, nothing more is submitted; uncollected samples "
		       "reported with their sessions\n");
	return failures != 0;
}
