/* The bootstrap interval of the median (bench_bootstrap_median_ci) and the
 * direction table of rtipc-bench compare (bench/host/compare/compare.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "host/compare/compare.h"
#include "names.h"

#define SEED 12345u

/* Sixteen one-nanosecond buckets (values 0..15) holding `each` samples. */
static void flat(bench_hist_bin_t bins[16], uint64_t each)
{
    for (int i = 0; i < 16; i++)
        bins[i] = (bench_hist_bin_t){i, each};
}

static void test_same_seed_same_interval(void **state)
{
    (void)state;
    bench_hist_bin_t bins[16];
    flat(bins, 25);
    double lo1, hi1, lo2, hi2;
    assert_int_equal(bench_bootstrap_median_ci(bins, 16, 4, 200, SEED, &lo1, &hi1), 0);
    assert_int_equal(bench_bootstrap_median_ci(bins, 16, 4, 200, SEED, &lo2, &hi2), 0);
    assert_true(lo1 == lo2 && hi1 == hi2);
}

static void test_interval_holds_the_median(void **state)
{
    (void)state;
    bench_hist_bin_t bins[16];
    flat(bins, 100);  /* 1600 samples: the nearest-rank median (rank 800) is 7 */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        double lo, hi;
        assert_int_equal(bench_bootstrap_median_ci(bins, 16, 4, 200, seed, &lo, &hi), 0);
        assert_true(lo <= 7 && 7 < hi);
        assert_true(lo >= 0 && hi <= 16);
        /* Edges of one-nanosecond buckets are whole numbers. */
        assert_true(lo == (double)(int64_t)lo && hi == (double)(int64_t)hi);
    }
}

static void test_more_samples_narrower(void **state)
{
    (void)state;
    bench_hist_bin_t few[16], many[16];
    flat(few, 4);      /* 64 samples */
    flat(many, 4000);  /* 64000 samples */
    double lo_few, hi_few, lo_many, hi_many;
    assert_int_equal(bench_bootstrap_median_ci(few, 16, 4, 200, SEED, &lo_few, &hi_few), 0);
    assert_int_equal(bench_bootstrap_median_ci(many, 16, 4, 200, SEED, &lo_many, &hi_many), 0);
    assert_true(hi_many - lo_many < hi_few - lo_few);
    assert_true(hi_many - lo_many <= 2);  /* the median bucket, or it and a neighbour */
}

static void test_one_bucket_gives_its_edges(void **state)
{
    (void)state;
    /* sub_bucket_bits 4: 1792 lies in [1024, 2048), split into 64 ns buckets. */
    bench_hist_bin_t bin = {1792, 10};
    double lo, hi;
    assert_int_equal(bench_bootstrap_median_ci(&bin, 1, 4, 200, SEED, &lo, &hi), 0);
    assert_true(lo == 1792 && hi == 1856);
    /* Below 2^sub_bucket_bits a bucket is one nanosecond wide. */
    bin = (bench_hist_bin_t){9, 3};
    assert_int_equal(bench_bootstrap_median_ci(&bin, 1, 4, 200, SEED, &lo, &hi), 0);
    assert_true(lo == 9 && hi == 10);
}

static void test_skewed_follows_the_mass(void **state)
{
    (void)state;
    /* 90% of the samples in the 4096 bucket, a tail far above: the median's
     * interval stays on the bulk, not the tail. */
    bench_hist_bin_t bins[] = {{3840, 50}, {4096, 900}, {65536, 50}};
    double lo, hi;
    assert_int_equal(bench_bootstrap_median_ci(bins, 3, 4, 200, SEED, &lo, &hi), 0);
    assert_true(lo == 4096 && hi == 4352);
}

static void test_large_histogram_is_bounded(void **state)
{
    (void)state;
    /* 16 million samples: resampled at BENCH_BOOTSTRAP_MAX_DRAWS draws, so
     * this finishes quickly and the interval still holds the median. */
    bench_hist_bin_t bins[16];
    flat(bins, 1000000);
    double lo, hi;
    assert_int_equal(bench_bootstrap_median_ci(bins, 16, 4, 20, SEED, &lo, &hi), 0);
    assert_true(lo <= 7 && 7 < hi);
}

static void test_rejects_bad_input(void **state)
{
    (void)state;
    bench_hist_bin_t bins[16];
    flat(bins, 10);
    double lo = -1, hi = -1;
    assert_int_equal(bench_bootstrap_median_ci(NULL, 0, 4, 200, SEED, &lo, &hi), -1);
    assert_int_equal(bench_bootstrap_median_ci(bins, 0, 4, 200, SEED, &lo, &hi), -1);
    assert_int_equal(bench_bootstrap_median_ci(bins, 16, 4, 0, SEED, &lo, &hi), -1);
    assert_int_equal(bench_bootstrap_median_ci(bins, 16, 31, 200, SEED, &lo, &hi), -1);
    bench_hist_bin_t empty[2] = {{5, 0}, {6, 0}};
    assert_int_equal(bench_bootstrap_median_ci(empty, 2, 4, 200, SEED, &lo, &hi), -1);
    bench_hist_bin_t unordered[2] = {{6, 1}, {5, 1}};
    assert_int_equal(bench_bootstrap_median_ci(unordered, 2, 4, 200, SEED, &lo, &hi), -1);
    bench_hist_bin_t repeated[2] = {{5, 1}, {5, 1}};
    assert_int_equal(bench_bootstrap_median_ci(repeated, 2, 4, 200, SEED, &lo, &hi), -1);
    bench_hist_bin_t negative[1] = {{-1, 1}};
    assert_int_equal(bench_bootstrap_median_ci(negative, 1, 4, 200, SEED, &lo, &hi), -1);
    assert_true(lo == -1 && hi == -1);  /* untouched on failure */
}

static void test_directions(void **state)
{
    (void)state;
    assert_int_equal(bench_compare_direction(BENCH_METRIC_LATENCY, "ns"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_BYTES, "B"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_MAX_STALL, "ms"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_CPU_PER_MB, "ms/MB"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction("send", "instr"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_THROUGHPUT, "msg/s"), BENCH_BETTER_HIGHER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_THROUGHPUT, "B/s"), BENCH_BETTER_HIGHER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_THROUGHPUT, "items/s"), BENCH_BETTER_HIGHER);
    /* Names before units. */
    assert_int_equal(bench_compare_direction(BENCH_METRIC_DROPPED, "count"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_WATCHDOG_TRIPS, "count"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_IDLE_TRIPS, "count"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_MISSED_UPDATES, "count"), BENCH_BETTER_LOWER);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_COALESCED, "count"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_REFUSED, "count"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_OFFERED, "msg/s"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_DELIVERED, "B"), BENCH_BETTER_NONE);
    /* Units without a direction. */
    assert_int_equal(bench_compare_direction(BENCH_METRIC_RECEIVES, "count"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_P50_RATIO, "x"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_ISR_SAFE, "bool"), BENCH_BETTER_NONE);
    assert_int_equal(bench_compare_direction(BENCH_METRIC_LATENCY, "furlongs"), BENCH_BETTER_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_interval),
        cmocka_unit_test(test_interval_holds_the_median),
        cmocka_unit_test(test_more_samples_narrower),
        cmocka_unit_test(test_one_bucket_gives_its_edges),
        cmocka_unit_test(test_skewed_follows_the_mass),
        cmocka_unit_test(test_large_histogram_is_bounded),
        cmocka_unit_test(test_rejects_bad_input),
        cmocka_unit_test(test_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
