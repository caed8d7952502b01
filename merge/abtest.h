/*
 * A/B statistics for `xrlm compare`: the difference of two samples'
 * medians with a block-bootstrap confidence interval, and the Mann–Whitney
 * U test. Samples are per-frame values in recording order.
 *
 * Why a block bootstrap: frame times are autocorrelated (a slow frame is
 * often followed by another: thermal state, a busy core, the compositor's
 * phase), so resampling single frames would treat n correlated frames as n
 * independent ones and give intervals that are too narrow. Resampling
 * blocks of consecutive frames keeps the dependence inside each block.
 * This is the circular block bootstrap (Politis & Romano, 1992): a block
 * may wrap from the last frame to the first, so every frame is equally
 * likely to be drawn. Block length ceil(n^(1/3)) (the order Hall, Horowitz
 * & Jing, 1995, found best for distribution estimates): 7 frames for 300,
 * 22 for 10^4, 100 for 10^6. Medians, not means: frame times are
 * long-tailed, and a few spikes move a mean but not a median.
 *
 * All functions are deterministic for a given seed (own generator, no
 * global state), thread-safe, and never take the locale into account.
 */
#ifndef XRLM_ABTEST_H
#define XRLM_ABTEST_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. */
struct abtest_rng {
	uint64_t s[4];
};

/* Seeds @p r from @p seed; every seed (0 too) gives a usable state. */
void abtest_rng_seed(struct abtest_rng *r, uint64_t seed);

/* The next 64 random bits of @p r. */
uint64_t abtest_rng_next(struct abtest_rng *r);

/* A uniform integer in [0, n) (n > 0; bias below n / 2^64). */
uint64_t abtest_rng_below(struct abtest_rng *r, uint64_t n);

/* The bootstrap block length for @p n frames: ceil(n^(1/3)), at least 1. */
size_t abtest_block_length(size_t n);

/*
 * Fills @p medians[0..resamples-1] with the medians of @p resamples circular
 * block-bootstrap resamples of @p x[0..n-1] (n > 0), blocks of @p block
 * frames drawn with @p rng. Returns 0, or -1 when out of memory.
 */
int abtest_bootstrap_medians(const double *x, size_t n, size_t block, int resamples,
                          struct abtest_rng *rng, double *medians);

/* The Mann–Whitney U test of two samples (normal approximation). */
struct abtest_mw {
	double u;       /* U of sample A: pairs (a, b) with a > b, ties 1/2 */
	double z;       /* standardised U, with continuity and tie corrections */
	double p_value; /* two-sided; 1 when every value is tied */
};

/*
 * Runs the Mann–Whitney U test on @p a and @p b (na, nb > 0): pooled
 * ranks (ties share their mean rank), mean na*nb/2, variance
 * na*nb/12 * ((N+1) - sum(t^3 - t) / (N(N-1))) over tie groups of size t,
 * continuity correction 0.5. Returns 0, or -1 when out of memory.
 */
int abtest_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct abtest_mw *out);

/* The comparison of one metric between runs A and B. */
struct abtest_result {
	size_t n_a, n_b;
	size_t block_a, block_b;   /* bootstrap block lengths */
	double median_a, median_b;
	double diff;               /* median_b - median_a */
	double diff_lo, diff_hi;   /* 95 % interval of diff */
	/* 100 * (median_b / median_a - 1), NAN when median_a is not
	 * positive; its 95 % interval, NAN too when a resample's median of
	 * A is not positive (a ratio to it has no value: the interval of
	 * diff then says where the change lies). */
	double rel_pct, rel_lo_pct, rel_hi_pct;
	struct abtest_mw mw;
};

/*
 * Compares @p a and @p b (both non-empty, no NaN; not modified) with
 * @p resamples block-bootstrap resamples of each, drawn from a generator
 * seeded with @p seed; intervals are the 2.5 and 97.5 percentiles of the
 * resampled differences. Returns 0, or -1 when out of memory.
 */
int abtest_compare(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
                int resamples, struct abtest_result *out);

#endif /* XRLM_ABTEST_H */
