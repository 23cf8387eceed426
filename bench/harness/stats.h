/* Sample sets and their statistics.
 *
 * A sample set holds raw latencies in nanoseconds. Statistics are computed
 * from the sorted samples (exact percentiles, nearest-rank definition), and a
 * log-linear histogram keeps the shape for charts and comparisons. A
 * percentile is reported only when the set has at least 10 / (1 - p) samples;
 * otherwise it is marked absent (NAN). */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int64_t *ns;     /* samples, in recording order until stats are taken */
    size_t n;        /* samples recorded */
    size_t cap;      /* capacity of ns */
} bench_samples_t;

/* Histogram: values below 2^SUB_BITS ns get one bucket per ns; above that,
 * each power of two is split into 2^SUB_BITS equal buckets (relative bucket
 * width <= 1/16). */
#define BENCH_HIST_SUB_BITS 4
#define BENCH_HIST_BUCKETS ((64 - BENCH_HIST_SUB_BITS) << BENCH_HIST_SUB_BITS)

/* One non-empty bucket of the histogram. */
typedef struct {
    uint32_t bucket;  /* 0 .. BENCH_HIST_BUCKETS - 1 */
    uint32_t count;
} bench_stats_bin_t;

typedef struct {
    size_t n;
    double min, mean, p50, p90, p99, p999, max, stddev;
    double p50_lo, p50_hi;   /* distribution-free 95% interval of the median */
    /* The histogram's non-empty buckets in increasing order, owned: a few
     * dozen where the whole table would be 3.75 KiB per row, which a run of
     * a hundred rows cannot spend on an MCU. */
    bench_stats_bin_t *bins;
    size_t n_bins;
} bench_stats_t;

/* 0, or -1 when memory runs out. */
int bench_samples_init(bench_samples_t *s, size_t cap);
void bench_samples_free(bench_samples_t *s);
/* Append; returns -1 when full (the caller sized it wrong: a bug). */
static inline int bench_samples_push(bench_samples_t *s, int64_t ns)
{
    if (s->n == s->cap)
        return -1;
    s->ns[s->n++] = ns;
    return 0;
}

/* Sort the samples and fill *st (st->hist allocated; free with
 * bench_stats_free). Returns -1 on no samples or no memory. */
int bench_stats_compute(bench_samples_t *s, bench_stats_t *st);
void bench_stats_free(bench_stats_t *st);

/* Nearest-rank percentile of sorted values, NAN when n < 10 / (1 - p). */
double bench_percentile(const int64_t *sorted, size_t n, double p);
/* Smallest sample count for which percentile p is reported. */
size_t bench_samples_needed(double p);

/* Histogram bucket of a value, and the lowest value of a bucket. */
unsigned bench_hist_bucket(int64_t ns);
int64_t bench_hist_bucket_low(unsigned bucket);

#endif
