/*
 * What the process holds, as the kernel sees it: used by --cycles to show
 * that nothing (thread, file descriptor) survives an instance's lifetime.
 */
#ifndef APP_PROC_H
#define APP_PROC_H

#include <stdbool.h>

/* Threads (/proc/self/task) and open descriptors (/proc/self/fd, minus the
 * one used to read it). False if /proc cannot be read. */
bool app_proc_counts(unsigned *threads, unsigned *fds);

#endif /* APP_PROC_H */
