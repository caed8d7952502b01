/*
 * The control socket's file, $XDG_RUNTIME_DIR/xrlm/<pid>.sock (README,
 * "Control socket"): the directory made 0700 and opened without following
 * a symbolic link in its place, the socket bound in it 0600 through that
 * open directory, and removed again.
 */
#ifndef XL_CTL_SOCKET_H
#define XL_CTL_SOCKET_H

#include "xl_settings.h"

#include <stddef.h>
#include <sys/types.h>

struct xl_ctl_socket {
	int fd;     /* listening, non-blocking; -1 when none */
	int dir_fd; /* the socket directory */
	char name[32];           /* "<pid>.sock" */
	char path[XL_PATH_MAX];  /* the whole path, for messages */
	ino_t ino;               /* what was bound: only that is removed */
};

/*
 * Makes the directory, removes a stale socket of this pid (one nobody
 * listens on) and listens on a new one. 0, or -1 with the reason in
 * @p why (nothing is left open).
 */
int xl_ctl_socket_open(struct xl_ctl_socket *s, char *why, size_t why_size);

/* Closes the socket and removes its file, if it is still the one bound. */
void xl_ctl_socket_close(struct xl_ctl_socket *s);

#endif /* XL_CTL_SOCKET_H */
