/*
 * The instance's event queue, drained by xrPollEvent.
 */
#include "rt_internal.h"
#include "rt_api.h"

#include <string.h>

void rt_event_queue_init(struct rt_event_queue *q)
{
	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
}

void rt_event_queue_fini(struct rt_event_queue *q)
{
	pthread_mutex_destroy(&q->lock);
}

void rt_event_push(struct rt_event_queue *q, const void *event, size_t size)
{
	pthread_mutex_lock(&q->lock);
	if (q->count == RT_EVENT_QUEUE_LEN) {
		/* Reported to the app as XrEventDataEventsLost. */
		q->lost = true;
	} else {
		XrEventDataBuffer *slot = &q->events[(q->head + q->count) % RT_EVENT_QUEUE_LEN];
		memset(slot, 0, sizeof(*slot));
		memcpy(slot, event, size < sizeof(*slot) ? size : sizeof(*slot));
		q->count++;
	}
	pthread_mutex_unlock(&q->lock);
}

void rt_event_drop_session(struct rt_event_queue *q, XrSession session)
{
	pthread_mutex_lock(&q->lock);
	uint32_t kept = 0;
	for (uint32_t i = 0; i < q->count; i++) {
		XrEventDataBuffer *e = &q->events[(q->head + i) % RT_EVENT_QUEUE_LEN];
		const XrEventDataSessionStateChanged *sc = (const void *)e;
		if (e->type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED && sc->session == session)
			continue;
		q->events[(q->head + kept++) % RT_EVENT_QUEUE_LEN] = *e;
	}
	q->count = kept;
	pthread_mutex_unlock(&q->lock);
}

/* Pops the oldest event into @p out; returns false when none is queued. */
static bool event_pop(struct rt_event_queue *q, XrEventDataBuffer *out)
{
	bool got = true;
	pthread_mutex_lock(&q->lock);
	if (q->lost) {
		XrEventDataEventsLost lost = {.type = XR_TYPE_EVENT_DATA_EVENTS_LOST};
		lost.lostEventCount = 1;
		memcpy(out, &lost, sizeof(lost));
		q->lost = false;
	} else if (q->count > 0) {
		*out = q->events[q->head];
		q->head = (q->head + 1) % RT_EVENT_QUEUE_LEN;
		q->count--;
	} else {
		got = false;
	}
	pthread_mutex_unlock(&q->lock);
	return got;
}

/* xrPollEvent: the oldest queued event, or XR_EVENT_UNAVAILABLE. */
XrResult XRAPI_CALL rt_xrPollEvent(XrInstance instance, XrEventDataBuffer *eventData)
{
	struct rt_instance *inst;
	XrResult r = rt_instance_get_info(instance, eventData, XR_TYPE_EVENT_DATA_BUFFER, &inst);
	if (r != XR_SUCCESS)
		return r;
	XrEventDataBuffer ev;
	if (!event_pop(&inst->events, &ev))
		return XR_EVENT_UNAVAILABLE;
	/* The whole event, next == NULL included: we chain nothing to events. */
	*eventData = ev;
	return XR_SUCCESS;
}
