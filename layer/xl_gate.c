/*
 * The GPU gate and its watchdog; see xl_gate.h.
 */
#include "xl_gate.h"

#include "xl_clock.h"
#include "xl_log.h"
#include "xl_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

VkResult xl_gate_create(struct xl_gate *gate, const struct xl_vk *vk, VkDevice device,
                        enum xl_gate_kind kind, bool timeline_khr)
{
	memset(gate, 0, sizeof(*gate));
	gate->kind = kind;
	gate->device = device;
	gate->set_event = vk->SetEvent;
	if (kind == XL_GATE_KIND_EVENT)
		return VK_SUCCESS;

	VkSemaphoreTypeCreateInfo type = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
	gate->signal = (PFN_vkSignalSemaphore)vk->GetDeviceProcAddr(
		device, timeline_khr ? "vkSignalSemaphoreKHR" : "vkSignalSemaphore");
	if (!gate->signal)
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	return vk->CreateSemaphore(device, &si, NULL, &gate->semaphore);
}

void xl_gate_destroy(struct xl_gate *gate, const struct xl_vk *vk)
{
	if (!gate->semaphore)
		return;
	vk->DestroySemaphore(gate->device, gate->semaphore, NULL);
	gate->semaphore = VK_NULL_HANDLE;
}

/* Whoever takes the armed value signals it: post, or the watchdog. Never both. */
static uint64_t gate_take(struct xl_gate *gate, uint64_t expected)
{
	uint_fast64_t v = expected;
	if (expected == 0)
		return atomic_exchange_explicit(&gate->armed, 0, memory_order_acq_rel);
	return atomic_compare_exchange_strong(&gate->armed, &v, 0) ? expected : 0;
}

static void gate_signal(struct xl_gate *gate, uint64_t token)
{
	if (gate->kind == XL_GATE_KIND_EVENT) {
		VkEvent event;
		memcpy(&event, &token, sizeof(event));
		/* Counted before the set can let the GPU finish the sample
		 * (xl_gate_setting()), until the call has returned. */
		atomic_fetch_add(&gate->setting, 1);
		gate->set_event(gate->device, event);
		atomic_fetch_sub(&gate->setting, 1);
		return;
	}
	VkSemaphoreSignalInfo info = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = gate->semaphore,
		.value = token,
	};
	gate->signal(gate->device, &info);
}

void xl_gate_open(struct xl_gate *gate)
{
	/* A plain load first: in sandwich mode nothing is ever armed. */
	if (!atomic_load_explicit(&gate->armed, memory_order_relaxed))
		return;
	uint64_t value = gate_take(gate, 0);
	if (value)
		gate_signal(gate, value);
}

/* The first line of /proc/self/task/<tid>/<what> into @p buf; false if unreadable. */
static bool task_read(uint32_t tid, const char *what, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%u/%s", tid, what);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n > 0;
}

/* Whether a syscall number is a timed sleep (nanosleep(2), clock_nanosleep(2)). */
static bool is_sleep_syscall(long nr)
{
#ifdef SYS_nanosleep
	if (nr == SYS_nanosleep)
		return true;
#endif
#ifdef SYS_clock_nanosleep
	if (nr == SYS_clock_nanosleep)
		return true;
#endif
#ifdef SYS_clock_nanosleep_time64
	if (nr == SYS_clock_nanosleep_time64)
		return true;
#endif
	return false;
}

/*
 * Whether thread @p tid of this process will come back by itself: it is
 * running or runnable ('R'), or sleeps on a timer (a target that sleeps
 * before calling down, as a frame limiter does, is not waiting for its GPU
 * work; it gets the running thread's timeout, as one polling its GPU work
 * between sleeps does).
 */
static bool thread_returns(uint32_t tid)
{
	char buf[512];

	if (!task_read(tid, "stat", buf, sizeof(buf)))
		return false;
	/* "tid (comm) S ...": comm may hold spaces and parentheses. */
	char *end = strrchr(buf, ')');
	if (end && end[1] == ' ' && end[2] == 'R')
		return true;
	/* "<syscall number> <arguments...>", "-1 ..." outside a syscall, or
	 * "running": woken since its state was read. */
	if (!task_read(tid, "syscall", buf, sizeof(buf)))
		return false;
	if (strncmp(buf, "running", 7) == 0)
		return true;
	char *after;
	long nr = strtol(buf, &after, 10);
	return after != buf && is_sleep_syscall(nr);
}

bool xl_gate_watchdog(struct xl_gate *gate, uint64_t timeout_ns, uint64_t hard_timeout_ns)
{
	uint64_t value = atomic_load_explicit(&gate->armed, memory_order_acquire);
	if (!value)
		return false;
	/* The clock is read after the arming time: the frame thread may re-arm
	 * at any moment, and an age must never come out negative. */
	uint64_t armed_at = atomic_load(&gate->armed_at_ns), now = xl_clock_mono_ns();
	if (now <= armed_at || now - armed_at < timeout_ns)
		return false;
	uint64_t age = now - armed_at;
	if (age < hard_timeout_ns && thread_returns(atomic_load(&gate->armed_tid)))
		return false;
	atomic_bool *invalid = (atomic_bool *)atomic_load(&gate->armed_invalid);
	if (gate_take(gate, value) != value)
		return false; /* post opened it meanwhile */
	/* This thread also collects pre's samples: the mark lands before the read. */
	if (invalid)
		atomic_store(invalid, true);
	atomic_store(&gate->tripped_display_time, atomic_load(&gate->armed_display_time));
	atomic_store(&gate->tripped, true);
	gate_signal(gate, value);
	return true;
}

/* How often the watchdog looks at the gate. */
#define WATCHDOG_STEP_NS 2000000

static void *watchdog_main(void *arg)
{
	struct xl_gate_watchdog *wd = arg;

	while (!atomic_load(&wd->stop)) {
		if (xl_gate_watchdog(wd->gate, XL_GATE_TIMEOUT_NS, XL_GATE_HARD_TIMEOUT_NS))
			xl_log_loud("GPU gate: the target waited inside xrEndFrame without calling "
			            "down for %llu ms (%llu s if its thread ran or slept on a timer): "
			            "waiting for its own GPU work, it would deadlock in the gated "
			            "mode; the gate was opened, that frame's GPU sample is marked "
			            "invalid, and the session continues in sandwich mode",
			            (unsigned long long)(XL_GATE_TIMEOUT_NS / 1000000),
			            (unsigned long long)(XL_GATE_HARD_TIMEOUT_NS / 1000000000));
		xl_thread_sleep_ns(WATCHDOG_STEP_NS);
	}
	return NULL;
}

bool xl_gate_watchdog_start(struct xl_gate_watchdog *wd, struct xl_gate *gate)
{
	wd->gate = gate;
	atomic_init(&wd->stop, false);
	if (xl_thread_start(&wd->thread, watchdog_main, wd, "xrlm-gate") != 0)
		return false;
	wd->started = true;
	return true;
}

void xl_gate_watchdog_stop(struct xl_gate_watchdog *wd)
{
	if (!wd->started)
		return;
	atomic_store(&wd->stop, true);
	pthread_join(wd->thread, NULL);
	wd->started = false;
}
