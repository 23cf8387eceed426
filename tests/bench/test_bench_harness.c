/* The harness's port-dependent helpers (bench/harness/results.c): how many
 * cores a run has and what its rows are named, the sleeps experiments use to
 * meet deadlines, and the tick-cap claim's rule that interrupts must arrive
 * faster than the tick before a cap can be judged (claims.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/bench.h"

static void test_core_variant_follows_the_cpus(void **state)
{
    (void)state;
    bench_run_t run = {0};
    run.opts.cpu[0] = 0;
    run.opts.cpu[1] = 1;
    assert_true(bench_two_cores(&run));
    assert_string_equal(bench_core_variant(&run), "cross-core");
    run.opts.cpu[1] = 0;  /* a one-core machine: "core 1" is core 0 */
    assert_false(bench_two_cores(&run));
    assert_string_equal(bench_core_variant(&run), "same-core");
}

static void test_sleeps_reach_their_deadline(void **state)
{
    (void)state;
    assert_int_equal(bench_sleep_overshoot_ns(), 0);  /* Linux: high-resolution sleeps */
    int64_t t = bench_now_ns() + 3000000;
    bench_sleep_until(t);
    int64_t now = bench_now_ns();
    assert_true(now >= t);
    assert_true(now - t < 1000000000);  /* loose: a loaded machine may be late */

    t = bench_now_ns() + 2000000;
    bench_sleep_then_spin_until(t);
    assert_true(bench_now_ns() >= t);
    /* A deadline already past returns at once. */
    t = bench_now_ns() - 1000;
    bench_sleep_until(t);
    bench_sleep_then_spin_until(t);
}

static const bench_experiment_t isr_handoff = {.id = "isr-handoff"};

/* isr-handoff's rows as a run with the given no-yield rates would give. */
static void add_tick_cap_rows(bench_run_t *run, double offered, double d1, double d100)
{
    run->current = &isr_handoff;
    bench_samples_t s = {0};
    assert_int_equal(bench_samples_init(&s, 100), 0);
    for (int i = 0; i < 100; i++)
        bench_samples_push(&s, 400000 + i * 1000);
    assert_non_null(bench_add_dist(run, "rtipc-queue", "no-yield", "latency", &s));
    bench_samples_free(&s);
    assert_non_null(bench_add_value(run, "rtipc-queue", "no-yield/depth=1", "throughput", "msg/s", d1));
    assert_non_null(bench_add_value(run, "rtipc-queue", "no-yield/depth=100", "throughput", "msg/s", d100));
    assert_non_null(bench_add_value(run, "rtipc-queue", "no-yield/depth=1", "offered", "msg/s", offered));
    assert_non_null(bench_add_value(run, "rtipc-queue", "no-yield/depth=100", "offered", "msg/s", offered));
    run->current = NULL;
}

static void free_rows(bench_run_t *run)
{
    for (size_t i = 0; i < run->n_results; i++)
        if (run->results[i].kind == BENCH_DIST)
            bench_stats_free(&run->results[i].stats);
    free(run->results);
}

static void test_tick_cap_needs_interrupts_faster_than_the_tick(void **state)
{
    (void)state;
    static bench_run_t run;  /* large: keep it off the stack */
    /* Interrupts no faster than the tick: a cap cannot show. */
    memset(&run, 0, sizeof run);
    run.env.tick_hz = 1000;
    add_tick_cap_rows(&run, 900, 850, 880);
    bench_audit_claims(&run);
    assert_int_equal(run.claims[1].verdict, CLAIM_NOT_TESTABLE);
    assert_non_null(strstr(run.claims[1].evidence, "not well above"));
    free_rows(&run);

    /* 10 kHz interrupts, no-yield capped at both depths: holds. */
    memset(&run, 0, sizeof run);
    run.env.tick_hz = 1000;
    add_tick_cap_rows(&run, 10000, 950, 1050);
    bench_audit_claims(&run);
    assert_int_equal(run.claims[1].verdict, CLAIM_HOLDS);
    free_rows(&run);

    /* Depth 100 drains 100 per tick: the cap does not appear. */
    memset(&run, 0, sizeof run);
    run.env.tick_hz = 1000;
    add_tick_cap_rows(&run, 10000, 950, 9000);
    bench_audit_claims(&run);
    assert_int_equal(run.claims[1].verdict, CLAIM_DOES_NOT_HOLD);
    free_rows(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_variant_follows_the_cpus),
        cmocka_unit_test(test_sleeps_reach_their_deadline),
        cmocka_unit_test(test_tick_cap_needs_interrupts_faster_than_the_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
