/* /proc/self/status reader; see bx_proc.h. */
#include "bx_proc.h"

#include <inttypes.h>
#include <stdio.h>

struct bx_mem bx_proc_mem(void)
{
	struct bx_mem m = {0, 0};
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return m;
	char line[256];
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VmRSS: %" SCNu64, &m.rss_kb);
		sscanf(line, "VmHWM: %" SCNu64, &m.hwm_kb);
	}
	fclose(f);
	return m;
}

void bx_proc_print(const char *at)
{
	struct bx_mem m = bx_proc_mem();
	printf("mem %s rss_kb=%" PRIu64 " hwm_kb=%" PRIu64 "\n", at, m.rss_kb, m.hwm_kb);
}
