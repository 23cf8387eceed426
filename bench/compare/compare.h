/* rtipc-bench compare: two rtipc-bench/1 JSON files side by side.
 *
 * Rows are matched by (experiment, mechanism, variant, metric). A matched row
 * gets a verdict: regressed, improved, same (within the threshold or within
 * noise) or info (no better direction, or no figure to compare). The rule is
 * in docs/methodology.md, "Comparing runs". */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Which way a metric is better. */
typedef enum {
    BENCH_BETTER_LOWER,   /* latencies, bytes, losses */
    BENCH_BETTER_HIGHER,  /* rates */
    BENCH_BETTER_NONE     /* informational: a change is neither good nor bad */
} bench_better_t;

/* The direction of a metric, from its name first and then its unit (the
 * table in compare.c). Unknown names and units are BENCH_BETTER_NONE. Both
 * arguments must be non-NULL strings. */
bench_better_t bench_compare_direction(const char *metric, const char *unit);

/* One non-empty histogram bucket as rtipc-bench/1 stores it: the lowest
 * value the bucket holds and how many samples fell in it. */
typedef struct {
    int64_t low;
    uint64_t count;
} bench_hist_bin_t;

/* Upper bound on the draws of one bootstrap resample: larger histograms are
 * resampled at this size, which widens the interval (errs towards `same`)
 * but keeps the cost bounded. */
#define BENCH_BOOTSTRAP_MAX_DRAWS 1000000u

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

/* `rtipc-bench compare BASE.json NEW.json [--threshold PCT]`. argv[0] is
 * "compare". Prints the comparison table and a summary on stdout, warnings
 * (environments that differ) and the regressed rows on stderr. Returns the
 * exit status: 0 nothing regressed, 1 at least one metric regressed past the
 * threshold, 2 usage error or an unreadable or invalid file (one line on
 * stderr names the file and the problem). The caller flushes stdout and turns
 * a failed write into status 1 (main.c does, for every command). */
int bench_compare_main(int argc, char **argv);

#endif
