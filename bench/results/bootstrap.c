/* The bootstrap interval of the median of a histogram (bootstrap.h). */
#include "bootstrap.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: small, well mixed, and any seed (even 0) is fine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Exclusive upper edge of the bucket starting at low: one value wide below
 * 2^sub_bits, else 1/2^sub_bits of the power of two it lies in. */
static double bucket_upper(int64_t low, unsigned sub_bits)
{
    if (low < ((int64_t)1 << sub_bits))
        return (double)low + 1;
    unsigned top = 0;
    while (((uint64_t)low >> (top + 1)) != 0)
        top++;
    return (double)low + (double)((uint64_t)1 << (top - sub_bits));
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Walker's alias table (Vose's construction): drawing a bucket with
 * probability count/total then costs one random number, whatever the number
 * of buckets. Column i keeps bucket i with probability keep[i], else gives
 * alias[i]. 0, or -1 when memory runs out. */
static int build_alias_table(const bench_hist_bin_t *bins, size_t n_bins, uint64_t total, double *keep,
                             size_t *alias)
{
    size_t *small = malloc(n_bins * sizeof *small), *large = malloc(n_bins * sizeof *large);
    if (!small || !large) {
        free(small);
        free(large);
        return -1;
    }
    size_t n_small = 0, n_large = 0;
    for (size_t i = 0; i < n_bins; i++) {
        keep[i] = (double)bins[i].count * (double)n_bins / (double)total;  /* 1 = an average bucket */
        alias[i] = i;
        if (keep[i] < 1)
            small[n_small++] = i;
        else
            large[n_large++] = i;
    }
    /* Top up each light column with mass from a heavy one. */
    while (n_small && n_large) {
        size_t light = small[--n_small], heavy = large[n_large - 1];
        alias[light] = heavy;
        keep[heavy] -= 1 - keep[light];
        if (keep[heavy] < 1) {
            n_large--;
            small[n_small++] = heavy;
        }
    }
    /* What is left is full up to rounding. */
    while (n_small)
        keep[small[--n_small]] = 1;
    while (n_large)
        keep[large[--n_large]] = 1;
    free(small);
    free(large);
    return 0;
}

int bench_bootstrap_median_ci(const bench_hist_bin_t *bins, size_t n_bins, unsigned sub_bucket_bits,
                              unsigned resamples, uint64_t seed, double *lo, double *hi)
{
    if (!bins || n_bins == 0 || n_bins > UINT32_MAX || sub_bucket_bits > 30 || resamples == 0 || !lo || !hi)
        return -1;
    uint64_t total = 0;
    for (size_t i = 0; i < n_bins; i++) {
        if (bins[i].low < 0 || (i > 0 && bins[i].low <= bins[i - 1].low) ||
            bins[i].count > UINT64_MAX - total)
            return -1;
        total += bins[i].count;
    }
    if (total == 0)
        return -1;
    uint64_t draws = total < BENCH_BOOTSTRAP_MAX_DRAWS ? total : BENCH_BOOTSTRAP_MAX_DRAWS;
    uint64_t rank = (draws + 1) / 2;  /* nearest-rank median: ceil(draws / 2) */

    double *keep = malloc(n_bins * sizeof *keep);
    size_t *alias = malloc(n_bins * sizeof *alias);
    uint64_t *hits = malloc(n_bins * sizeof *hits);
    size_t *median_bin = malloc(resamples * sizeof *median_bin);
    int rc = -1;
    if (!keep || !alias || !hits || !median_bin || build_alias_table(bins, n_bins, total, keep, alias) != 0)
        goto out;

    uint64_t state = seed;
    for (unsigned r = 0; r < resamples; r++) {
        memset(hits, 0, n_bins * sizeof *hits);
        for (uint64_t d = 0; d < draws; d++) {
            /* High half: a column, uniformly; low half: keep it or take its alias. */
            uint64_t x = next_random(&state);
            size_t column = (size_t)(((x >> 32) * (uint64_t)n_bins) >> 32);
            double coin = (double)(uint32_t)x * 0x1p-32;
            hits[coin < keep[column] ? column : alias[column]]++;
        }
        size_t k = 0;
        for (uint64_t seen = hits[0]; seen < rank; seen += hits[++k])
            ;
        median_bin[r] = k;
    }
    qsort(median_bin, resamples, sizeof *median_bin, cmp_size);
    /* Nearest-rank 2.5th and 97.5th percentiles of the resample medians. */
    size_t i_lo = ((size_t)resamples * 25 + 999) / 1000, i_hi = ((size_t)resamples * 975 + 999) / 1000;
    i_lo = i_lo ? i_lo - 1 : 0;
    i_hi = i_hi ? i_hi - 1 : 0;
    *lo = (double)bins[median_bin[i_lo]].low;
    *hi = bucket_upper(bins[median_bin[i_hi]].low, sub_bucket_bits);
    rc = 0;
out:
    free(keep);
    free(alias);
    free(hits);
    free(median_bin);
    return rc;
}

uint64_t bench_bootstrap_cost(const bench_hist_bin_t *bins, size_t n_bins, unsigned resamples)
{
    if (!bins || n_bins == 0 || resamples == 0)
        return UINT64_MAX;
    uint64_t total = 0;
    for (size_t i = 0; i < n_bins; i++) {
        if (bins[i].count > UINT64_MAX - total)
            return UINT64_MAX;
        total += bins[i].count;
    }
    uint64_t draws = total < BENCH_BOOTSTRAP_MAX_DRAWS ? total : BENCH_BOOTSTRAP_MAX_DRAWS;
    uint64_t per_resample = draws + 2 * (uint64_t)n_bins;  /* n_bins < 2^61: it indexes memory */
    return per_resample > UINT64_MAX / resamples ? UINT64_MAX : per_resample * resamples;
}
