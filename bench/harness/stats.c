#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_samples_init(bench_samples_t *s, size_t cap)
{
    s->n = 0;
    s->cap = cap;
    s->ns = malloc((cap ? cap : 1) * sizeof *s->ns);
    return s->ns ? 0 : -1;
}

void bench_samples_free(bench_samples_t *s)
{
    free(s->ns);
    s->ns = NULL;
    s->n = s->cap = 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

size_t bench_samples_needed(double p)
{
    /* 10 / (1 - p), rounded to the nearest integer first so that 0.999
     * asks for 10000 despite binary rounding of 1 - p. */
    return (size_t)llround(10.0 / (1.0 - p));
}

double bench_percentile(const int64_t *sorted, size_t n, double p)
{
    if (n == 0 || n < bench_samples_needed(p))
        return NAN;
    /* Nearest rank: the smallest value with at least p*n values <= it. */
    size_t rank = (size_t)ceil(p * (double)n);
    if (rank < 1)
        rank = 1;
    return (double)sorted[rank - 1];
}

unsigned bench_hist_bucket(int64_t ns)
{
    if (ns < 0)
        ns = 0;
    uint64_t v = (uint64_t)ns;
    if (v < (1u << BENCH_HIST_SUB_BITS))
        return (unsigned)v;
    unsigned top = 63u - (unsigned)__builtin_clzll(v);            /* >= SUB_BITS */
    unsigned sub = (unsigned)(v >> (top - BENCH_HIST_SUB_BITS)) & ((1u << BENCH_HIST_SUB_BITS) - 1);
    return ((top - BENCH_HIST_SUB_BITS + 1) << BENCH_HIST_SUB_BITS) + sub;
}

int64_t bench_hist_bucket_low(unsigned bucket)
{
    if (bucket < (1u << BENCH_HIST_SUB_BITS))
        return bucket;
    unsigned top = (bucket >> BENCH_HIST_SUB_BITS) + BENCH_HIST_SUB_BITS - 1;
    uint64_t sub = bucket & ((1u << BENCH_HIST_SUB_BITS) - 1);
    return (int64_t)(((uint64_t)1 << top) | (sub << (top - BENCH_HIST_SUB_BITS)));
}

int bench_stats_compute(bench_samples_t *s, bench_stats_t *st)
{
    memset(st, 0, sizeof *st);
    if (s->n == 0)
        return -1;
    qsort(s->ns, s->n, sizeof *s->ns, cmp_i64);
    size_t n = s->n;
    /* Sorted samples fall into buckets in increasing order: count the
     * distinct ones, then fill them. */
    size_t bins = 1;
    for (size_t i = 1, prev = bench_hist_bucket(s->ns[0]); i < n; i++) {
        size_t b = bench_hist_bucket(s->ns[i]);
        bins += b != prev;
        prev = b;
    }
    st->bins = malloc(bins * sizeof *st->bins);
    if (!st->bins)
        return -1;
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        sum += (double)s->ns[i];
        unsigned b = bench_hist_bucket(s->ns[i]);
        if (st->n_bins == 0 || st->bins[st->n_bins - 1].bucket != b)
            st->bins[st->n_bins++] = (bench_stats_bin_t){.bucket = b, .count = 0};
        st->bins[st->n_bins - 1].count++;
    }
    st->n = n;
    st->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = (double)s->ns[i] - st->mean;
        sq += d * d;
    }
    st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
    st->min = (double)s->ns[0];
    st->max = (double)s->ns[n - 1];
    st->p50 = bench_percentile(s->ns, n, 0.50);
    st->p90 = bench_percentile(s->ns, n, 0.90);
    st->p99 = bench_percentile(s->ns, n, 0.99);
    st->p999 = bench_percentile(s->ns, n, 0.999);
    /* Order-statistic interval for the median: ranks n/2 -+ 1.96 sqrt(n)/2
     * cover the true median with ~95% probability, whatever the shape. */
    double half = 0.98 * sqrt((double)n);
    long lo = (long)floor((double)n / 2 - half), hi = (long)ceil((double)n / 2 + half);
    if (lo < 0)
        lo = 0;
    if (hi > (long)n - 1)
        hi = (long)n - 1;
    st->p50_lo = (double)s->ns[lo];
    st->p50_hi = (double)s->ns[hi];
    return 0;
}

void bench_stats_free(bench_stats_t *st)
{
    free(st->bins);
    st->bins = NULL;
    st->n_bins = 0;
}
