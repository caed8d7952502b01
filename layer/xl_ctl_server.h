/*
 * The control socket's server (README, "Control socket"): one thread of
 * the pre side per process, beside the toggle signal as a source of
 * recording requests. It listens on $XDG_RUNTIME_DIR/xrlm/<pid>.sock
 * (xl_ctl_socket.h), serves same-user clients only (SO_PEERCRED), and
 * answers their requests (xl_ctl_cmd.h); start and stop reach the frame
 * thread only through the control word, as the signal's do.
 *
 * No client can disturb the application: every socket is non-blocking,
 * the thread waits only in poll(), the number of clients is capped, and a
 * client that sends too long a line, stays silent, or does not read its
 * replies is dropped.
 */
#ifndef XL_CTL_SERVER_H
#define XL_CTL_SERVER_H

#include "xl_control.h"

struct xl_ctl_server;

/*
 * Creates the socket and starts the thread serving @p ctl (which must
 * outlive it). NULL, logged once, when the socket cannot be made
 * (XDG_RUNTIME_DIR unset or unusable) or the thread cannot start: the
 * application runs on, without a socket.
 */
struct xl_ctl_server *xl_ctl_server_create(struct xl_control *ctl);

/*
 * Answers what can still be answered, ends every connection, joins the
 * thread and removes the socket. NULL is ignored.
 */
void xl_ctl_server_destroy(struct xl_ctl_server *server);

#endif /* XL_CTL_SERVER_H */
