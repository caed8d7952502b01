/*
 * How many threads one merge may use for its parallel parts (parsing the
 * files, formatting the rows, the statistics' selections). The in-layer
 * merge runs inside its host application, beside the app's own threads,
 * and keeps the default; `xrlm` raises it to the CPUs it may run on.
 */
#ifndef XRLM_WORKERS_H
#define XRLM_WORKERS_H

/* What the merge uses unless told otherwise: what it always used. */
#define WORKERS_DEFAULT 2
/* The most it uses, whatever the CPUs: beyond, the files' reading and the one output file are the limit. */
#define WORKERS_MAX 8

/* Sets the threads for the parallel parts (clamped to 1..WORKERS_MAX). Call before a merge starts. */
void workers_set_max(unsigned n);

/* The threads for the parallel parts: WORKERS_DEFAULT unless workers_set_max() said. */
unsigned workers_max(void);

/* The CPUs this process may run on (its affinity mask: taskset, cpusets); 1 if unknown. */
unsigned workers_online_cpus(void);

#endif /* XRLM_WORKERS_H */
