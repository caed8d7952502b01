/*
 * The gate of the gated GPU mode, and its watchdog.
 *
 * Pre's GPU timestamp waits on a timeline semaphore value that post signals
 * from the host at its first line, right after submitting its own
 * timestamp, so that the target's GPU work and both timestamps run back to
 * back. A target that waits for its own GPU work inside xrEndFrame would
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

/*
 * The gate shared by both sides of a process (it lives in xl_control): pre
 * arms it with the value its submission waits for; post, or the watchdog
 * when post never comes, opens it.
 */
struct xl_gate {
	VkDevice device;
	VkSemaphore semaphore;      /* owned by pre's xl_gpu */
	PFN_vkSignalSemaphore signal;
	atomic_uint_fast64_t armed;     /* value waited for, 0 = not armed */
	atomic_uint_fast64_t armed_at_ns;
	atomic_uintptr_t armed_invalid; /* the invalid flag of pre's sample for that frame */
	atomic_uint armed_tid;          /* the thread ending that frame */
	atomic_bool tripped;            /* the watchdog opened it: sandwich from now on */
	uint64_t counter;               /* last value armed (pre's frame thread) */
};

/* The watchdog thread of one gate. */
struct xl_gate_watchdog {
	pthread_t thread;
	bool started;
	atomic_bool stop;
	struct xl_gate *gate;
};

/* How long an armed gate may stay closed while the frame thread sleeps, or runs. */
#define XL_GATE_TIMEOUT_NS 50000000ull
#define XL_GATE_HARD_TIMEOUT_NS 2000000000ull

/*
 * Creates the gate's timeline semaphore on @p device (signalled through
 * vkSignalSemaphoreKHR when @p timeline_khr) and resets @p gate.
 */
VkResult xl_gate_create(struct xl_gate *gate, const struct xl_vk *vk, VkDevice device,
                        bool timeline_khr);

/* Destroys the semaphore, if any. */
void xl_gate_destroy(struct xl_gate *gate, const struct xl_vk *vk);

/* Frame thread, post side: opens the gate pre armed for this frame, if any. */
void xl_gate_open(struct xl_gate *gate);

/*
 * The watchdog thread's check, every few milliseconds: a target that waits
 * for its own GPU work inside xrEndFrame would wait forever behind the gate. If the gate has been armed
 * for @p timeout_ns while the frame thread sleeps (a thread that keeps
 * running is a slow target, not a stuck one: it gets until
 * @p hard_timeout_ns), opens it, marks that frame's sample invalid and trips
 * the gate. Returns true if it fired.
 */
bool xl_gate_watchdog(struct xl_gate *gate, uint64_t timeout_ns, uint64_t hard_timeout_ns);

/* Starts the watchdog thread of @p gate (every signal blocked). False on failure. */
bool xl_gate_watchdog_start(struct xl_gate_watchdog *wd, struct xl_gate *gate);

/* Stops and joins the watchdog thread, if started. */
void xl_gate_watchdog_stop(struct xl_gate_watchdog *wd);

#endif /* XL_GATE_H */
