/* The process's own memory figures, from /proc/self/status. */
#ifndef BX_PROC_H
#define BX_PROC_H

#include <stdint.h>

struct bx_mem {
	uint64_t rss_kb; /* VmRSS */
	uint64_t hwm_kb; /* VmHWM: the peak so far */
};

/* Reads VmRSS and VmHWM; zeros when /proc is unreadable. */
struct bx_mem bx_proc_mem(void);

/* Prints "mem AT rss_kb=.. hwm_kb=..". */
void bx_proc_print(const char *at);

#endif /* BX_PROC_H */
