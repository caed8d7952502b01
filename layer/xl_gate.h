/*
 * The gate of the gated GPU mode, and its watchdog.
 *
 * Pre's GPU timestamp waits on a gate that post opens from the host at its
 * first line, right after submitting its own timestamp, so that the
 * target's GPU work and both timestamps run back to back. The gate is a
 * VkEvent (core Vulkan 1.0: every session) that pre's command buffer waits
 * for and the host sets, or a timeline semaphore value that pre's
 * submission waits for and the host signals (XRLM_GPU_GATE=timeline). The
 * event costs the frame thread far less: vkSetEvent is a write to memory
 * the GPU polls, where a submission that waits on an unsignalled timeline
 * value and the host signal both go through the kernel driver. A target that waits for its own GPU work inside xrEndFrame would
 * then wait forever: the watchdog, a thread of its own (some drivers block
 * the writer in vkGetQueryPoolResults while the gate is closed), opens the
 * gate after a timeout, marks that frame's sample invalid and trips the
 * gate (sandwich mode from then on).
 */
#ifndef XL_GATE_H
#define XL_GATE_H

#include "xl_vk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum xl_gate_kind {
	XL_GATE_KIND_EVENT,
	XL_GATE_KIND_TIMELINE,
};

/*
 * The gate shared by both sides of a process (it lives in xl_control): pre
 * arms it with the token its submission waits for; post, or the watchdog
 * when post never comes, opens it.
 */
struct xl_gate {
	enum xl_gate_kind kind;
	VkDevice device;
	VkSemaphore semaphore;      /* timeline kind; owned by pre's xl_gpu */
	PFN_vkSignalSemaphore signal;
	PFN_vkSetEvent set_event;   /* event kind: the events are pre's slots' */
	/* The token waited for: the timeline value, or the VkEvent's handle
	 * (xl_gate_event_token); 0 = not armed. */
	atomic_uint_fast64_t armed;
	atomic_uint_fast64_t armed_at_ns;
	atomic_uintptr_t armed_invalid; /* the invalid flag of pre's sample for that frame */
	atomic_uint armed_tid;          /* the thread ending that frame */
	atomic_int_fast64_t armed_display_time; /* that frame's display time */
	atomic_bool tripped;            /* the watchdog opened it: sandwich from now on */
	/* The display time of the frame it tripped on, set before tripped. */
	atomic_int_fast64_t tripped_display_time;
	atomic_uint setting;            /* threads inside vkSetEvent on one of the events */
	uint64_t counter;               /* last value armed (pre's frame thread) */
};

/* The watchdog thread of one gate. */
struct xl_gate_watchdog {
	pthread_t thread;
	bool started;
	atomic_bool stop;
	struct xl_gate *gate;
};

/* How long an armed gate may stay closed while the frame thread is blocked, or runs (or sleeps on a timer). */
#define XL_GATE_TIMEOUT_NS 50000000ull
#define XL_GATE_HARD_TIMEOUT_NS 2000000000ull

/*
 * Resets @p gate as a gate of @p kind on @p device; for the timeline kind
 * also creates its semaphore (signalled through vkSignalSemaphoreKHR when
 * @p timeline_khr).
 */
VkResult xl_gate_create(struct xl_gate *gate, const struct xl_vk *vk, VkDevice device,
                        enum xl_gate_kind kind, bool timeline_khr);

/* The token that arms an event gate for @p event (never 0 for a real event). */
static inline uint64_t xl_gate_event_token(VkEvent event)
{
	_Static_assert(sizeof(VkEvent) == sizeof(uint64_t), "a VkEvent is 64 bits");
	uint64_t token;
	__builtin_memcpy(&token, &event, sizeof(token));
	return token;
}

/* Destroys the semaphore, if any. */
void xl_gate_destroy(struct xl_gate *gate, const struct xl_vk *vk);

/* Frame thread, post side: opens the gate pre armed for this frame, if any. */
void xl_gate_open(struct xl_gate *gate);

/*
 * Writer: whether post or the watchdog may still be inside vkSetEvent on one
 * of the event gate's events. The writer resets a slot's event once its
 * sample is done, which the set lets happen before the setter has returned:
 * Vulkan wants the two calls externally synchronized, so the writer waits.
 */
static inline bool xl_gate_setting(struct xl_gate *gate)
{
	return atomic_load(&gate->setting) != 0;
}

/*
 * The watchdog thread's check, every few milliseconds: a target that waits
 * for its own GPU work inside xrEndFrame would wait forever behind the gate. If the gate has been armed
 * for @p timeout_ns while the frame thread sleeps (a thread that keeps
 * running is a slow target, not a stuck one: it gets until
 * @p hard_timeout_ns), opens it, marks that frame's sample invalid and trips
 * the gate. Returns true if it fired.
 */
bool xl_gate_watchdog(struct xl_gate *gate, uint64_t timeout_ns, uint64_t hard_timeout_ns);

/* Starts the watchdog thread of @p gate (signals blocked: xl_thread_start). False on failure. */
bool xl_gate_watchdog_start(struct xl_gate_watchdog *wd, struct xl_gate *gate);

/* Stops and joins the watchdog thread, if started. */
void xl_gate_watchdog_stop(struct xl_gate_watchdog *wd);

#endif /* XL_GATE_H */
