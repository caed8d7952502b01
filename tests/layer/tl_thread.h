/*
 * For unit tests of the layers' per-thread state, run on one real thread:
 * ON_THREAD(t, step) runs @p step as the application thread whose
 * thread-local ring state (xl_ring_tls) is @p t would, then keeps in @p t
 * what the step left there.
 */
#ifndef TL_THREAD_H
#define TL_THREAD_H

#include "xl_ring.h"

#define ON_THREAD(t, step)          \
	do {                        \
		xl_ring_tls = (t);  \
		step;               \
		(t) = xl_ring_tls;  \
	} while (0)

#endif /* TL_THREAD_H */
