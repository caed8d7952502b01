/*
 * The live view behind `xrlm ctl watch`: the target's CPU and GPU cost of
 * the frames being recorded, second by second, without stopping the
 * recording. Fed by the two writers with the records and GPU samples they
 * write anyway (never by a frame thread), paired here as the merge pairs
 * them (CPU: display_time and thread; GPU: display_time), and read once a
 * second by pre's control thread. Bounded: a fixed number of unpaired
 * entries per side, and of values per second for the p99.
 *
 * While nobody watches (xl_live_watch), the writers skip it after one
 * relaxed load.
 */
#ifndef XL_LIVE_H
#define XL_LIVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Unpaired records kept per side and kind: the writers run ~2 ms apart. */
#define XL_LIVE_PENDING 256
/* Values per second kept for the p99 (count and mean take every frame). */
#define XL_LIVE_VALUES 4096

struct xl_live_entry {
	int64_t display_time;
	uint32_t thread_id; /* 0 for GPU samples */
	uint32_t session_id; /* 0: free */
	uint64_t value;     /* CPU: bracket ns; GPU: ticks */
	float period_ns;    /* GPU only */
	uint32_t valid_bits; /* GPU only: the ticks wrap at 2^valid_bits (u_ticks.h) */
};

/* One kind (CPU or GPU) of values paired during the current second. */
struct xl_live_series {
	uint64_t count;
	double sum;
	uint32_t kept;
	double values[XL_LIVE_VALUES];
};

struct xl_live {
	pthread_mutex_t lock;
	_Atomic uint32_t watchers;
	_Atomic int64_t bracket_correction_ns; /* post's, as the merge subtracts it */
	struct xl_live_entry pending[2][2][XL_LIVE_PENDING]; /* [side][cpu, gpu] */
	uint32_t next[2][2];
	struct xl_live_series cpu, gpu; /* microseconds */
};

/* What one second gave. */
struct xl_live_second {
	uint64_t frames, gpu_frames;
	double cpu_mean_us, cpu_p99_us, gpu_mean_us, gpu_p99_us; /* valid when their count > 0 */
};

/* Empties @p live and creates its lock (with the control block). */
void xl_live_init(struct xl_live *live);

/* Destroys @p live's lock (with the control block). */
void xl_live_fini(struct xl_live *live);

/* A watcher comes (+1) or goes (-1); the last one going clears the state. */
void xl_live_watch(struct xl_live *live, int delta);

/* Writer of side @p side: one xrEndFrame record it wrote. */
void xl_live_cpu(struct xl_live *live, unsigned side, uint32_t session_id, int64_t display_time,
                 uint32_t thread_id, uint64_t t_entry, uint64_t t_exit);

/*
 * Writer of side @p side: one valid GPU sample it wrote, @p ticks of a
 * clock @p valid_bits wide (a pair straddling its wrap counts as the ticks
 * that passed, as in the merge).
 */
void xl_live_gpu(struct xl_live *live, unsigned side, uint32_t session_id, int64_t display_time,
                 uint64_t ticks, unsigned valid_bits, float period_ns);

/*
 * Control thread, once a second: the frames paired since the last call,
 * into @p out, and starts a new second. @p scratch holds 2 * XL_LIVE_VALUES
 * doubles (the p99 reorders them).
 */
void xl_live_take(struct xl_live *live, struct xl_live_second *out, double *scratch);

#endif /* XL_LIVE_H */
