/* The 95% bootstrap interval of the median of a histogram, for results rows
 * that carry a histogram but no p50_ci95 (writers that cannot sort their
 * samples: the bare-metal and ESP-IDF suites). The reader (read.h) computes
 * it for every such row, within a budget of work per file. */
#ifndef BENCH_RESULTS_BOOTSTRAP_H
#define BENCH_RESULTS_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

/* One non-empty histogram bucket as rtipc-bench/1 stores it: the lowest
 * value the bucket holds and how many samples fell in it. */
typedef struct {
    int64_t low;
    uint64_t count;
} bench_hist_bin_t;

/* Upper bound on the draws of one bootstrap resample: larger histograms are
 * resampled at this size, which widens the interval (errs towards `same`)
 * but keeps the cost of one row bounded. */
#define BENCH_BOOTSTRAP_MAX_DRAWS 100000u

/* The work bench_bootstrap_median_ci does for these arguments, in draws
 * (each bucket counts as two: clearing and scanning it per resample), or
 * UINT64_MAX when it would fail. Lets a caller keep a budget. */
uint64_t bench_bootstrap_cost(const bench_hist_bin_t *bins, size_t n_bins, unsigned resamples);

/* 95% bootstrap interval of the median of the samples a histogram holds.
 *
 * bins: the non-empty buckets in strictly increasing `low` order (low >= 0);
 * sub_bucket_bits (0..30) gives the bucket widths as in docs/json-schema.md.
 * Each of `resamples` resamples draws as many samples as the histogram holds
 * (at most BENCH_BOOTSTRAP_MAX_DRAWS) with replacement, and its nearest-rank
 * median falls in some bucket. *lo is the lower edge of the bucket of the
 * 2.5th-percentile resample median, *hi the upper edge (exclusive) of the
 * bucket of the 97.5th, so the interval never claims more precision than the
 * buckets have. The same seed gives the same interval.
 *
 * Returns 0, or -1 (lo, hi untouched) when there are no samples, the bins are
 * out of order, an argument is out of range, resamples is 0, or memory runs
 * out. */
int bench_bootstrap_median_ci(const bench_hist_bin_t *bins, size_t n_bins, unsigned sub_bucket_bits,
                              unsigned resamples, uint64_t seed, double *lo, double *hi);

#endif
