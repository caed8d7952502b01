/*
 * The toggle signal (XRLM_SIGNAL): one source of recording requests beside
 * pre's timers. Its handler only flips the toggle bit of the control word
 * (async-signal-safe); the frame thread acts on it at its next frame. Any
 * other request source (a control socket, say) sits beside this one and
 * calls xl_control_toggle() or xl_control_request() the same way.
 */
#ifndef XL_SIGNAL_H
#define XL_SIGNAL_H

#include "xl_control.h"

#include <stdbool.h>

/*
 * Installs the toggle signal handler for @p ctl unless the application
 * already handles @p signal (then logs how to pick another). Returns true
 * if installed.
 */
bool xl_signal_install(struct xl_control *ctl, int signal, const char *signal_name);

/* Restores the disposition the signal had before xl_signal_install. */
void xl_signal_remove(void);

#endif /* XL_SIGNAL_H */
