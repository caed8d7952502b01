/*
 * What the writer reads back from the GPU timestamps (layer/xl_gpu.c) and
 * what the gate's watchdog records (layer/xl_gate.c), against a stand-in
 * device whose queries return chosen values:
 *   - each frame's sample carries its own display time and frame id, its
 *     ticks masked to timestampValidBits (so is a clock correlation's);
 *   - a bracket measurement is (B - A) less E's own span (0 when E's span
 *     is the longer), emitted just before the frame it was submitted with,
 *     with that frame's display time, as the median of the last ones;
 *   - a watchdog that finds the frame thread blocked trips the gate: the
 *     frame's sample is invalid and marked tripped, the tripped display
 *     time is that frame's, the event is set; the slot's next use is valid;
 *   - a blocked frame thread trips a gate armed for longer than the
 *     timeout, one asleep on a timer only past the hard timeout;
 *   - the timeline gate's first armed value is 1, never 0 ("not armed");
 *     gated, the bracket's event is set after its three submissions, plain
 *     before them; the first XL_BRACKET_WINDOW brackets come
 *     XL_GPU_BRACKET_START_NS apart, then one a period;
 *   - a step in the bracket (the GPU's clocks changed) is followed: a
 *     measurement off the correction brings the next one due at the
 *     start's pace, not a period later, and the third in a row off it the
 *     same way is the correction;
 *   - destroying a broken bracket waits for E's fence when E was
 *     submitted, and leaves everything to the device when A alone was.
 * lavapipe's timestamps are 64 bits wide and its brackets vary: the
 * layer_gpu_* runs cannot tell these apart.
 */
#include "xl_gpu.h"

#include "u_ticks.h"
#include "xl_clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define VALID_BITS 36
#define HIGH (1ull << 40) /* beyond VALID_BITS: masked away */

static uint64_t bracket_q[4];   /* A, E's two, B */
static uint64_t slot_ticks = HIGH | 7;
static unsigned submits, fail_from = 1000;
/* Not a lost device: that one lets destruction free everything. */
static const VkResult fail_result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
static uint64_t last_wait_value;
static VkEvent last_set;
#define BRACKET_EVENT ((VkEvent)(uintptr_t)77)
/* Submissions made when the bracket's event was first set (NOT_SET: not yet). */
#define NOT_SET 99
static unsigned bracket_set_after = NOT_SET;

static VKAPI_ATTR VkResult VKAPI_CALL fake_submit(VkQueue queue, uint32_t n,
                                                   const VkSubmitInfo *info, VkFence fence)
{
	(void)queue, (void)n, (void)fence;
	const VkTimelineSemaphoreSubmitInfo *t = info->pNext;
	if (t && t->waitSemaphoreValueCount)
		last_wait_value = t->pWaitSemaphoreValues[0];
	return ++submits >= fail_from ? fail_result : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_set_event(VkDevice device, VkEvent event)
{
	(void)device;
	last_set = event;
	if (event == BRACKET_EVENT && bracket_set_after == NOT_SET)
		bracket_set_after = submits;
	return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_reset_event(VkDevice device, VkEvent event)
{
	(void)device, (void)event;
	return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_fence_status(VkDevice device, VkFence fence)
{
	(void)device, (void)fence;
	return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_reset_fences(VkDevice device, uint32_t n,
                                                         const VkFence *fences)
{
	(void)device, (void)n, (void)fences;
	return VK_SUCCESS;
}

/* Slot queries read slot_ticks, the bracket's four read bracket_q; all available. */
static VKAPI_ATTR VkResult VKAPI_CALL fake_results(VkDevice device, VkQueryPool pool,
                                                    uint32_t first, uint32_t count, size_t size,
                                                    void *data, VkDeviceSize stride,
                                                    VkQueryResultFlags flags)
{
	(void)device, (void)pool, (void)size, (void)flags;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t *q = (uint64_t *)((char *)data + i * stride);
		q[0] = first >= XL_GPU_SLOTS ? bracket_q[first - XL_GPU_SLOTS + i] : slot_ticks;
		q[1] = 1;
	}
	return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_calibrated(VkDevice device, uint32_t n,
                                                       const VkCalibratedTimestampInfoEXT *info,
                                                       uint64_t *stamps, uint64_t *deviation)
{
	(void)device, (void)n, (void)info;
	stamps[0] = HIGH | 9;
	stamps[1] = 123;
	*deviation = 1;
	return VK_SUCCESS;
}

static unsigned waited, destroyed;
static bool waited_e;
#define E_FENCE ((VkFence)(uintptr_t)2)

static VKAPI_ATTR VkResult VKAPI_CALL fake_wait(VkDevice device, uint32_t n, const VkFence *fences,
                                                 VkBool32 all, uint64_t timeout)
{
	(void)device, (void)all, (void)timeout;
	for (uint32_t i = 0; i < n; i++)
		waited_e |= fences[i] == E_FENCE;
	waited++;
	return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL fake_destroy_fence(VkDevice device, VkFence fence,
                                                      const VkAllocationCallbacks *a)
{
	(void)device, (void)fence, (void)a;
	destroyed++;
}

static struct xl_gpu *fake_gpu(void)
{
	struct xl_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		exit(1);
	gpu->vk.QueueSubmit = fake_submit;
	gpu->vk.SetEvent = fake_set_event;
	gpu->vk.ResetEvent = fake_reset_event;
	gpu->vk.GetFenceStatus = fake_fence_status;
	gpu->vk.ResetFences = fake_reset_fences;
	gpu->vk.GetQueryPoolResults = fake_results;
	gpu->vk.GetCalibratedTimestamps = fake_calibrated;
	gpu->vk.WaitForFences = fake_wait;
	gpu->vk.DestroyFence = fake_destroy_fence;
	gpu->valid_bits = VALID_BITS;
	gpu->valid_mask = u_ticks_mask(VALID_BITS);
	gpu->period_ns = 1.0f;
	atomic_init(&gpu->submit_error, VK_SUCCESS);
	return gpu;
}

static struct xl_gpu_sample got[64];
static unsigned ngot;

static void emit(void *ctx, const struct xl_gpu_sample *s)
{
	(void)ctx;
	if (ngot < 64)
		got[ngot] = *s;
	ngot++;
}

static int failures;

static void expect(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "FAIL: %s\n", what);
	failures++;
}

static bool frame_is(const struct xl_gpu_sample *s, int64_t display_time, int64_t frame_id)
{
	return !s->bracket && s->display_time == display_time && s->frame_id == frame_id &&
	       s->valid && !s->gate_tripped && s->ticks == 7;
}

/* Stamps frame @p id (display time 1000 + id), a bracket measurement before it if @p bracket. */
static void stamp(struct xl_gpu *gpu, int64_t id, bool bracket)
{
	gpu->bracket.due_ns = bracket ? 0 : UINT64_MAX;
	if (!xl_gpu_stamp(gpu, 1000 + id, id, 1, false, 1))
		expect(false, "a frame's timestamp was not submitted");
}

static void check_collect(void)
{
	struct xl_gpu *gpu = fake_gpu();
	gpu->bracket.fence = (VkFence)(uintptr_t)1;

	stamp(gpu, 1, false);
	memcpy(bracket_q, (uint64_t[4]){100, 200, 250, 400}, sizeof(bracket_q)); /* 300 - 50 */
	stamp(gpu, 2, true);
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	expect(ngot == 3, "frame 1, a bracket line, frame 2 expected");
	expect(frame_is(&got[0], 1001, 1), "frame 1's sample: display time, id or masked ticks");
	expect(got[1].bracket && got[1].bracket_ns == 250 && got[1].display_time == 1002,
	       "the bracket before frame 2: (B - A) - (E's span) = 250 ns, frame 2's display time");
	expect(frame_is(&got[2], 1002, 2), "frame 2's sample: display time, id or masked ticks");

	/* 410 - 100 = 310: the median of two is their mean. */
	memcpy(bracket_q, (uint64_t[4]){1000, 1100, 1200, 1410}, sizeof(bracket_q));
	stamp(gpu, 3, true);
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	expect(ngot == 2 && got[0].bracket && got[0].bracket_ns == 280,
	       "the second bracket line: the median of 250 and 310 is 280");

	/* E's span (500) longer than the outer one (100): 0, median of 0, 250, 310. */
	memcpy(bracket_q, (uint64_t[4]){0, 0, 500, 100}, sizeof(bracket_q));
	stamp(gpu, 4, true);
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	expect(ngot == 2 && got[0].bracket && got[0].bracket_ns == 250,
	       "a bracket whose E outlasts it reads 0: the median of 0, 250, 310 is 250");
	int64_t now = 0;
	expect(xl_gpu_bracket_now(gpu, &now) && now == 250, "the correction in effect is 250");

	struct xl_gpu_calibration cal;
	gpu->calibrated = true;
	expect(xl_gpu_calibrate(gpu, &cal) && cal.gpu_ticks == 9 && cal.monotonic_ns == 123,
	       "a clock correlation's ticks are masked to timestampValidBits");
	free(gpu);
}

/* A frame thread blocked in read(2): not running, not on a timer. */
static int blocker_pipe[2];
static _Atomic uint32_t blocker_tid;

static void *blocker(void *arg)
{
	char c;
	(void)arg;
	atomic_store(&blocker_tid, (uint32_t)syscall(SYS_gettid));
	if (read(blocker_pipe[0], &c, 1) < 0)
		perror("read");
	return NULL;
}

#define SECOND 1000000000ull

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000}, NULL);
}

/*
 * Calls the watchdog (1 s timeout, no hard one) on a gate armed 1.5 s ago
 * until it trips, for 10 s at most: the thread may take a moment to block.
 */
static bool trip(struct xl_gate *gate)
{
	for (int i = 0; i < 1000; i++) {
		atomic_store(&gate->armed_at_ns, xl_clock_mono_ns() - 3 * SECOND / 2);
		if (xl_gate_watchdog(gate, SECOND, UINT64_MAX))
			return true;
		sleep_ms(10);
	}
	return false;
}

static void check_trip(void)
{
	struct xl_gpu *gpu = fake_gpu();
	struct xl_gate gate;
	pthread_t thread;

	if (pipe(blocker_pipe) || pthread_create(&thread, NULL, blocker, NULL))
		exit(1);
	while (!atomic_load(&blocker_tid))
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	xl_gate_create(&gate, &gpu->vk, VK_NULL_HANDLE, XL_GATE_KIND_EVENT, false);
	gpu->gate = &gate;
	for (uint32_t i = 0; i < XL_GPU_SLOTS; i++)
		gpu->events[i] = (VkEvent)(uintptr_t)(i + 1);
	gpu->bracket.fence = VK_NULL_HANDLE; /* post's: no bracket */

	bool ok = xl_gpu_stamp(gpu, 5001, 1, 1, true, atomic_load(&blocker_tid));
	expect(ok && atomic_load(&gate.armed) == xl_gate_event_token(gpu->events[0]),
	       "a gated frame arms the gate with its slot's event");
	last_set = VK_NULL_HANDLE;
	expect(!xl_gate_watchdog(&gate, SECOND, UINT64_MAX), "the watchdog tripped a gate armed < 1 s ago");
	expect(trip(&gate), "the watchdog did not trip with the frame thread blocked in read(2)");
	expect(atomic_load(&gate.tripped) && atomic_load(&gate.tripped_display_time) == 5001,
	       "the trip records the tripped frame's display time");
	expect(last_set == gpu->events[0], "the trip sets the frame's event");
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	expect(ngot == 1 && got[0].gate_tripped && !got[0].valid,
	       "the tripped frame's sample is invalid and marked tripped");
	/* Once round the ring: slot 0 again, plain this time. */
	for (int64_t id = 2; id <= XL_GPU_SLOTS + 1; id++)
		xl_gpu_stamp(gpu, 5000 + id, id, 1, false, 1);
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	expect(ngot == XL_GPU_SLOTS && got[XL_GPU_SLOTS - 1].valid &&
	       !got[XL_GPU_SLOTS - 1].gate_tripped,
	       "the tripped slot's next frame is valid, not tripped");
	if (write(blocker_pipe[1], "x", 1) != 1)
		exit(1);
	pthread_join(thread, NULL);
	free(gpu);
}

static void *sleeper(void *arg)
{
	(void)arg;
	atomic_store(&blocker_tid, (uint32_t)syscall(SYS_gettid));
	for (;;)
		sleep_ms(60000); /* a cancellation point */
	return NULL;
}

/* A frame thread asleep on a timer is left alone until the hard timeout. */
static void check_sleeper(void)
{
	struct xl_gate gate = {.kind = XL_GATE_KIND_EVENT, .set_event = fake_set_event};
	pthread_t thread;

	atomic_store(&blocker_tid, 0);
	if (pthread_create(&thread, NULL, sleeper, NULL))
		exit(1);
	while (!atomic_load(&blocker_tid))
		sleep_ms(1);
	sleep_ms(50); /* into its sleep; if not yet, it runs: left alone all the same */
	atomic_store(&gate.armed_tid, atomic_load(&blocker_tid));
	atomic_store(&gate.armed, 1);
	atomic_store(&gate.armed_at_ns, xl_clock_mono_ns() - 3 * SECOND / 2);
	expect(!xl_gate_watchdog(&gate, SECOND, UINT64_MAX),
	       "the watchdog tripped a gate whose frame thread sleeps on a timer");
	expect(xl_gate_watchdog(&gate, SECOND, SECOND) && atomic_load(&gate.tripped),
	       "the watchdog did not trip a gate past its hard timeout");
	pthread_cancel(thread);
	pthread_join(thread, NULL);
}

/*
 * Gated, the bracket's A waits for its event until its three submissions
 * are made (they then run back to back, as the frame's); plain, it is set
 * before them.
 */
static void check_timeline(void)
{
	struct xl_gpu *gpu = fake_gpu();
	struct xl_gate gate = {.kind = XL_GATE_KIND_TIMELINE, .semaphore = (VkSemaphore)(uintptr_t)1};
	gpu->gate = &gate;
	gpu->bracket.fence = (VkFence)(uintptr_t)1;
	gpu->bracket.event = BRACKET_EVENT;
	submits = 0;
	bracket_set_after = NOT_SET;
	bool ok = xl_gpu_stamp(gpu, 1, 1, 1, true, 1);
	expect(ok && atomic_load(&gate.armed) == 1 && last_wait_value == 1,
	       "the first gated frame waits for, and arms, timeline value 1");
	expect(bracket_set_after == 3, "gated, the bracket's event is set after its three submissions");
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	submits = 0;
	bracket_set_after = NOT_SET;
	gpu->bracket.due_ns = 0;
	xl_gpu_stamp(gpu, 2, 2, 1, false, 1);
	expect(bracket_set_after == 0, "plain, the bracket's event is set before its submissions");
	free(gpu);
}

/* XL_BRACKET_WINDOW measurements XL_GPU_BRACKET_START_NS apart, then one a period. */
static void check_spacing(void)
{
	struct xl_gpu *gpu = fake_gpu();
	gpu->bracket.fence = (VkFence)(uintptr_t)1;
	for (int64_t id = 1; id <= XL_BRACKET_WINDOW + 1; id++) {
		stamp(gpu, id, true);
		uint64_t ahead = gpu->bracket.due_ns - xl_clock_mono_ns();
		bool period = id >= XL_BRACKET_WINDOW;
		if (period ? ahead <= XL_GPU_BRACKET_START_NS : ahead > XL_GPU_BRACKET_START_NS) {
			fprintf(stderr, "FAIL: after bracket %lld the next is due in %llu ns: want %s\n",
			        (long long)id, (unsigned long long)ahead,
			        period ? "a period" : "XL_GPU_BRACKET_START_NS at most");
			failures++;
		}
		xl_gpu_collect(gpu, 1, emit, NULL);
	}
	free(gpu);
}

/*
 * One bracket measurement of @p ns (B - A, E's span 0) submitted with frame
 * @p id if one is due by the frame thread's own schedule, and collected.
 * Returns whether one was submitted; its line's value goes to *@p line.
 */
static bool scheduled_bracket(struct xl_gpu *gpu, int64_t id, uint64_t ns, int64_t *line)
{
	memcpy(bracket_q, (uint64_t[4]){1000, 2000, 2000, 1000 + ns}, sizeof(bracket_q));
	if (!xl_gpu_stamp(gpu, 1000 + id, id, 1, false, 1))
		expect(false, "a frame's timestamp was not submitted");
	ngot = 0;
	xl_gpu_collect(gpu, 1, emit, NULL);
	if (ngot != 2 || !got[0].bracket)
		return false;
	*line = got[0].bracket_ns;
	return true;
}

/*
 * The GPU's clocks drop under a light load and the bracket steps from 18 to
 * 35 us (H200, bench/RESULTS.md): the correction follows after three
 * measurements, which come at the start's pace once the first is off.
 */
static void check_step(void)
{
	struct xl_gpu *gpu = fake_gpu();
	gpu->bracket.fence = (VkFence)(uintptr_t)1;
	int64_t line = 0;
	int64_t id = 1;

	for (int i = 0; i < XL_BRACKET_WINDOW; i++) {
		gpu->bracket.due_ns = 0;
		expect(scheduled_bracket(gpu, id++, 18000, &line) && line == 18000,
		       "nine measurements of 18 us read 18 us");
	}
	/* The period's measurement, off: the next is due at the start's pace. */
	gpu->bracket.due_ns = 0;
	expect(scheduled_bracket(gpu, id++, 35000, &line) && line == 18000,
	       "one measurement off the correction leaves it as it was");
	for (int k = 2; k <= XL_BRACKET_CONFIRM; k++) {
		expect(gpu->bracket.due_ns - xl_clock_mono_ns() > XL_GPU_BRACKET_START_NS,
		       "the period's own schedule is more than XL_GPU_BRACKET_START_NS ahead");
		gpu->bracket.last_ns -= XL_GPU_BRACKET_START_NS; /* as if that long had passed */
		bool submitted = scheduled_bracket(gpu, id++, 35000, &line);
		expect(submitted, "after a measurement off the correction, the next one is due "
		                  "XL_GPU_BRACKET_START_NS later, not a period");
		expect(!submitted || line == (k < XL_BRACKET_CONFIRM ? 18000 : 35000),
		       "the correction becomes 35 us with the third measurement of it in a row");
	}
	/* The restarted window is filled at the start's pace too. */
	expect(atomic_load(&gpu->bracket.fast_until_ns) - xl_clock_mono_ns() >=
	               (XL_BRACKET_WINDOW - XL_BRACKET_CONFIRM) * XL_GPU_BRACKET_START_NS,
	       "after a step, the window's other measurements are asked for at the start's pace");
	/* Not earlier than the start's pace, though. */
	expect(!scheduled_bracket(gpu, id++, 35000, &line),
	       "asked for measurements, the frame thread still spaces them");
	free(gpu);
}

/*
 * A bracket whose submission @p failing (1: A, 2: E, 3: B) failed, then
 * destroyed: whether the destruction waited for E's fence, and how many
 * fences it destroyed (none when it cannot know that A is done).
 */
static void broken_bracket(unsigned failing, bool *waited_for_e, unsigned *fences)
{
	struct xl_gpu *gpu = fake_gpu();
	gpu->bracket.fence = (VkFence)(uintptr_t)1;
	gpu->bracket.e_fence = E_FENCE;
	submits = 0;
	fail_from = failing;
	xl_gpu_stamp(gpu, 1, 1, 1, false, 1);
	fail_from = 1000;
	waited_e = false;
	destroyed = 0;
	xl_gpu_destroy(gpu);
	*waited_for_e = waited_e;
	*fences = destroyed;
}

static void check_broken(void)
{
	bool e;
	unsigned fences;

	broken_bracket(2, &e, &fences);
	expect(!e && fences == 0, "A alone submitted (E failed): no fence tells when it ends, "
	       "the objects must be left to the device");
	broken_bracket(3, &e, &fences);
	expect(e && fences == 2, "A and E submitted (B failed): destruction waits for E's fence, "
	       "then destroys both");
	broken_bracket(1, &e, &fences);
	expect(!e && fences == 2, "nothing submitted (A failed): nothing to wait for");
}

int main(void)
{
	check_collect();
	check_trip();
	check_sleeper();
	check_timeline();
	check_spacing();
	check_step();
	check_broken();
	if (!failures)
		printf("-- GPU samples, bracket lines, trips and timeline tokens read back as "
		       "submitted\n");
	return failures != 0;
}
