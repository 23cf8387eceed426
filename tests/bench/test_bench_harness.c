/* The harness's port-dependent helpers (bench/harness/run_options.c, record.c): how many
 * cores a run has and what its rows are named, the sleeps experiments use to
 * meet deadlines, and the tick-cap claim's rule that interrupts must arrive
 * faster than the tick before a cap can be judged (claims.c); the claim
 * audit's evidence in the rows' unit (us for ns rows, instructions for instr
 * rows) and claim 9 on one-core targets; the performance targets audited
 * from peers' rows (perf_targets.c); a missing mechanism recorded once, a
 * failure's reason given its context; the Linux target seam
 * (bench/target/linux.c): what it reports having, and that its tasks run. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/env.h"
#include "harness/run.h"
#include "names.h"

static void test_core_variant_follows_the_cpus(void **state)
{
    (void)state;
    bench_run_t run = {0};
    run.opts.cpu[0] = 0;
    run.opts.cpu[1] = 1;
    assert_true(bench_two_cores(&run));
    assert_string_equal(bench_core_variant(&run), BENCH_VARIANT_CROSS_CORE);
    run.opts.cpu[1] = 0;  /* a one-core machine: "core 1" is core 0 */
    assert_false(bench_two_cores(&run));
    assert_string_equal(bench_core_variant(&run), BENCH_VARIANT_SAME_CORE);
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

static void set_flag(void *arg) { *(int *)arg = 1; }

/* The Linux seam: what it reports having, and that its tasks run. */
static void test_linux_target(void **state)
{
    (void)state;
    unsigned f = bench_target_features();
    assert_string_equal(bench_target_name(), "linux");
    assert_true(f & BENCH_TARGET_TASKS);
    assert_true(f & BENCH_TARGET_INTERRUPTS);
    assert_true(f & BENCH_TARGET_FILES);
    assert_int_equal(!!(f & BENCH_TARGET_TWO_CORES), bench_target_core_count() >= 2);
    bench_clock_t c;
    bench_target_clock(&c);
    assert_true(c.provenance == BENCH_CLOCK_HOST_TSC || c.provenance == BENCH_CLOCK_OS);
    assert_string_equal(c.unit, "ns");
    assert_true(c.rate_hz > 0 && c.resolution > 0);
    bench_memory_t m;
    bench_target_memory(&m);
    assert_int_equal(m.kind, BENCH_MEMORY_RESIDENT);
    assert_true(m.now_bytes > 0 && m.extreme_bytes >= m.now_bytes);
    assert_true(bench_thread_cpu_ns() >= 0);

    int ran = 0;
    bench_task_spec_t spec = {.name = "seam-task", .priority = 5, .core = 0, .entry = set_flag, .arg = &ran};
    bench_task_t *t;
    assert_int_equal(bench_target_task_start(&spec, &t), 0);
    assert_non_null(bench_target_task_rtipc(t));
    assert_null(bench_target_task_kernel(t));
    assert_int_equal(bench_target_task_join(t), 0);
    assert_int_equal(ran, 1);
    /* Linux has no kernel besides rtipc: a native task is rtipc's. */
    ran = 0;
    spec.native = true;
    assert_int_equal(bench_target_task_start(&spec, &t), 0);
    assert_non_null(bench_target_task_rtipc(t));
    assert_int_equal(bench_target_task_join(t), 0);
    assert_int_equal(ran, 1);
    assert_int_equal(bench_target_native_strays(), 0);
    const char *how = NULL;
    assert_true(bench_target_task_stack(16384, &how) > 0);  /* this thread's own stack */
    assert_non_null(how);
}

static const bench_experiment_t isr_handoff = {.id = BENCH_EXP_ISR_HANDOFF};

/* isr-handoff's rows as a run with the given no-yield rates would give. */
static void add_tick_cap_rows(bench_run_t *run, double offered, double d1, double d100)
{
    run->current = &isr_handoff;
    bench_samples_t s = {0};
    assert_int_equal(bench_samples_init(&s, 100), 0);
    for (int i = 0; i < 100; i++)
        bench_samples_push(&s, 400000 + i * 1000);
    const char *q = BENCH_MECH_RTIPC_QUEUE, *at1 = BENCH_VARIANT_NO_YIELD_DEPTH_1,
               *at100 = BENCH_VARIANT_NO_YIELD_DEPTH_100;
    assert_non_null(bench_add_dist(run, q, BENCH_VARIANT_NO_YIELD, BENCH_METRIC_LATENCY, &s));
    bench_samples_free(&s);
    assert_non_null(bench_add_value(run, q, at1, BENCH_METRIC_THROUGHPUT, "msg/s", d1));
    assert_non_null(bench_add_value(run, q, at100, BENCH_METRIC_THROUGHPUT, "msg/s", d100));
    assert_non_null(bench_add_value(run, q, at1, BENCH_METRIC_OFFERED, "msg/s", offered));
    assert_non_null(bench_add_value(run, q, at100, BENCH_METRIC_OFFERED, "msg/s", offered));
    run->current = NULL;
}

static void free_rows(bench_run_t *run) { bench_free_rows(run); }

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

/* ---- evidence in the rows' unit ---- */

#define MAX_ROWS 40

typedef struct {
    bench_run_t run;
    bench_result_t rows[MAX_ROWS];
    bench_result_t *slots[MAX_ROWS];  /* run.results: the rows above */
} audit_case_t;

static bench_result_t *new_row(audit_case_t *a, bench_kind_t kind, const char *exp, const char *mech,
                               const char *var, const char *metric, const char *unit)
{
    assert_true(a->run.n_results < MAX_ROWS);
    bench_result_t *r = &a->rows[a->run.n_results++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    /* Names the callers pass are literals, which outlive the rows. */
    r->experiment = exp;
    r->mechanism = mech;
    r->variant = var;
    r->metric = metric;
    r->unit = unit;
    r->clock = "";
    return r;
}

/* A distribution with the given median and p99, its 95% interval +-1. */
static void add_dist(audit_case_t *a, const char *exp, const char *mech, const char *var, const char *metric,
                     const char *unit, double p50, double p99)
{
    bench_stats_t *s = &new_row(a, BENCH_DIST, exp, mech, var, metric, unit)->stats;
    s->n = 1000;
    s->min = p50 * 0.9;
    s->mean = s->p50 = p50;
    s->p90 = (p50 + p99) / 2;
    s->p99 = p99;
    s->p999 = NAN;
    s->max = p99 * 1.5;
    s->stddev = p50 / 10;
    s->p50_lo = p50 - 1;
    s->p50_hi = p50 + 1;
}

static void add_value(audit_case_t *a, const char *exp, const char *mech, const char *var, const char *metric,
                      const char *unit, double v)
{
    new_row(a, BENCH_VALUE, exp, mech, var, metric, unit)->value = v;
}

/* Rows for claims 1, 2, 3, 5, 6, 7, 8 and 9 with latencies in @p unit;
 * notify-vs-sem rows named @p notify_variant. */
static void build_run(audit_case_t *a, const char *unit, const char *notify_variant)
{
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < MAX_ROWS; i++)
        a->slots[i] = &a->rows[i];
    a->run.results = a->slots;
    a->run.cap_results = MAX_ROWS;
    a->run.env.tick_hz = 1000;
    const char *q = BENCH_MECH_RTIPC_QUEUE, *lat = BENCH_METRIC_LATENCY;
    const char *isr = BENCH_EXP_ISR_HANDOFF, *tp = BENCH_METRIC_THROUGHPUT, *offered = BENCH_METRIC_OFFERED;
    const char *mc = BENCH_EXP_MECHANISM_COMPARE, *item4 = BENCH_VARIANT_ITEM_4, *send = BENCH_METRIC_SEND_OVERHEAD;
    const char *sve = BENCH_EXP_STATE_VS_EVENT, *stale = BENCH_METRIC_STALENESS;
    const char *cp = BENCH_EXP_CORE_PLACEMENT, *same = BENCH_VARIANT_SAME_CORE, *cross = BENCH_VARIANT_CROSS_CORE;
    const char *per100 = BENCH_METRIC_TIME_PER_100B;
    add_dist(a, BENCH_EXP_QUEUE_PLACEMENT, q, BENCH_VARIANT_WARM, lat, unit, 2000, 3000);
    add_dist(a, BENCH_EXP_QUEUE_PLACEMENT, q, BENCH_VARIANT_FLUSHED, lat, unit, 5000, 9000);
    add_dist(a, isr, q, BENCH_VARIANT_NO_YIELD, lat, unit, 1162, 1300);
    add_value(a, isr, q, BENCH_VARIANT_NO_YIELD_DEPTH_1, tp, "msg/s", 1000);
    add_value(a, isr, q, BENCH_VARIANT_NO_YIELD_DEPTH_100, tp, "msg/s", 1050);
    add_value(a, isr, q, BENCH_VARIANT_YIELD_DEPTH_1, tp, "msg/s", 18000);
    add_value(a, isr, q, BENCH_VARIANT_NO_YIELD_DEPTH_1, offered, "msg/s", 20000);
    add_value(a, isr, q, BENCH_VARIANT_NO_YIELD_DEPTH_100, offered, "msg/s", 20000);
    add_dist(a, mc, q, item4, send, unit, 120, 200);
    add_dist(a, mc, BENCH_MECH_RTIPC_RINGBUF_NOSPLIT, item4, send, unit, 30, 50);
    add_dist(a, mc, BENCH_MECH_MUTEX_CONDVAR_LIST, item4, send, unit, 300, 500);
    add_dist(a, mc, BENCH_MECH_STD_QUEUE_MUTEX, item4, send, unit, 500, 800);
    add_dist(a, sve, q, "depth=8", stale, unit, 50000, 90000);
    add_dist(a, sve, BENCH_MECH_RTIPC_QUEUE_OVERWRITE, "", stale, unit, 1500, 3000);
    add_dist(a, sve, BENCH_MECH_RTIPC_MAILBOX, "", stale, unit, 1200, 2000);
    add_dist(a, cp, q, same, lat, unit, 1000, 2000);
    add_dist(a, cp, q, cross, lat, unit, 3000, 6000);
    add_dist(a, cp, BENCH_MECH_RTIPC_SEM, same, lat, unit, 2000, 3000);
    add_dist(a, cp, BENCH_MECH_RTIPC_SEM, cross, lat, unit, 5000, 8000);
    add_dist(a, cp, BENCH_MECH_RTIPC_NOTIFY, same, lat, unit, 500, 900);
    add_dist(a, cp, BENCH_MECH_RTIPC_NOTIFY, cross, lat, unit, 1500, 2500);
    add_dist(a, BENCH_EXP_BATCHING, q, BENCH_VARIANT_100X1B, per100, unit, 5200, 5600);
    add_dist(a, BENCH_EXP_BATCHING, q, BENCH_VARIANT_1X100B, per100, unit, 700, 800);
    add_value(a, BENCH_EXP_QUEUE_SET, BENCH_MECH_QUEUE_SET, "", BENCH_METRIC_MEMORY, "B", 900);
    add_value(a, BENCH_EXP_QUEUE_SET, BENCH_MECH_THREE_TASKS, "", BENCH_METRIC_MEMORY, "B", 800);
    add_dist(a, BENCH_EXP_NOTIFY_VS_SEM, BENCH_MECH_RTIPC_SEM, notify_variant, lat, unit, 16000, 20000);
    add_dist(a, BENCH_EXP_NOTIFY_VS_SEM, BENCH_MECH_RTIPC_NOTIFY, notify_variant, lat, unit, 4000, 5000);
}

static const bench_verdict_t expected_verdicts[BENCH_CLAIMS] = {
    CLAIM_HOLDS, CLAIM_HOLDS, CLAIM_HOLDS, CLAIM_NOT_TESTABLE, CLAIM_HOLDS,
    CLAIM_HOLDS, CLAIM_HOLDS, CLAIM_DOES_NOT_HOLD, CLAIM_HOLDS};

static void assert_verdicts(const bench_run_t *run, const bench_verdict_t *want)
{
    for (int i = 0; i < BENCH_CLAIMS; i++) {
        assert_int_equal(run->claims[i].id, i + 1);
        assert_int_equal(run->claims[i].verdict, want[i]);
    }
}

/* True when text has a figure in microseconds (a digit, " us", then no
 * letter: "usable" is not one). */
static bool has_us_figure(const char *text)
{
    for (const char *p = strstr(text, " us"); p; p = strstr(p + 1, " us"))
        if (p > text && p[-1] >= '0' && p[-1] <= '9' && !(p[3] >= 'a' && p[3] <= 'z'))
            return true;
    return false;
}

/* Latencies in ns: figures in microseconds, with the precision each claim
 * has always used. */
static void test_evidence_in_us_for_ns_rows(void **state)
{
    (void)state;
    static audit_case_t a;
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    bench_audit_claims(&a.run);
    assert_verdicts(&a.run, expected_verdicts);
    const bench_claim_t *c = a.run.claims;
    assert_string_equal(c[0].evidence, "rtipc-queue p50 warm 2.000 us, flushed 5.000 us (x2.50); p99-p50 spread "
                                       "warm 1.000 us, flushed 4.000 us (x4.00)");
    assert_string_equal(c[1].evidence, "rtipc-queue, tick 1000 Hz; no-yield handoff p50 1.2 us; no-yield throughput depth 1: "
                                       "1000 msg/s (capped), depth 100: 1050 msg/s (capped); with yield depth 1: "
                                       "18000 msg/s");
    assert_string_equal(c[2].evidence, "send p50 (item=4): rtipc-queue 120.0 ns, rtipc-ringbuf-nosplit 30.0 ns -> "
                                       "queue/ringbuf x4.00; mutex-condvar-list (heap queue) 300.0 ns -> x2.50 of "
                                       "the queue; std-queue-mutex 500.0 ns -> x4.17 of the queue");
    assert_string_equal(c[4].evidence, "staleness p50: rtipc-queue (depth=8) 50.0 us, rtipc-queue-overwrite (length "
                                       "1) 1.5 us (queue x33.3), rtipc mailbox 1.2 us");
    assert_string_equal(c[5].evidence, "rtipc-queue same 1.00 us, cross 3.00 us (x3.00); rtipc-sem same 2.00 us, "
                                       "cross 5.00 us (x2.50); rtipc-notify same 0.50 us, cross 1.50 us (x3.00)");
    assert_string_equal(c[6].evidence, "rtipc-queue, per 100 bytes p50: 100 x 1-byte items 5.20 us, 1 x 100-byte "
                                       "item 0.70 us (x7.4)");
    assert_true(has_us_figure(c[6].evidence));
    assert_string_equal(c[8].evidence, "cross-core give->take p50: rtipc-sem 16.00 us, rtipc-notify 4.00 us: "
                                       "semaphore/notification x4.00 (notification 75% faster)");
}

/* The same figures in instructions: the same verdicts, whole instructions
 * in the evidence, the ratios unchanged. */
static void test_evidence_in_instructions_for_instr_rows(void **state)
{
    (void)state;
    static audit_case_t a;
    build_run(&a, "instr", BENCH_VARIANT_CROSS_CORE);
    bench_audit_claims(&a.run);
    assert_verdicts(&a.run, expected_verdicts);
    const bench_claim_t *c = a.run.claims;
    assert_string_equal(c[0].evidence, "rtipc-queue p50 warm 2000 instr, flushed 5000 instr (x2.50); p99-p50 spread "
                                       "warm 1000 instr, flushed 4000 instr (x4.00)");
    assert_non_null(strstr(c[1].evidence, "no-yield handoff p50 1162 instr;"));
    assert_non_null(strstr(c[2].evidence, "rtipc-queue 120 instr, rtipc-ringbuf-nosplit 30 instr -> queue/ringbuf "
                                          "x4.00; mutex-condvar-list (heap queue) 300 instr -> x2.50 of the queue; "
                                          "std-queue-mutex 500 instr -> x4.17 of the queue"));
    assert_string_equal(c[4].evidence, "staleness p50: rtipc-queue (depth=8) 50000 instr, rtipc-queue-overwrite "
                                       "(length 1) 1500 instr (queue x33.3), rtipc mailbox 1200 instr");
    assert_non_null(strstr(c[5].evidence, "rtipc-notify same 500 instr, cross 1500 instr (x3.00)"));
    assert_string_equal(c[6].evidence, "rtipc-queue, per 100 bytes p50: 100 x 1-byte items 5200 instr, 1 x 100-byte "
                                       "item 700 instr (x7.4)");
    assert_string_equal(c[8].evidence, "cross-core give->take p50: rtipc-sem 16000 instr, rtipc-notify 4000 instr: "
                                       "semaphore/notification x4.00 (notification 75% faster)");
    for (int i = 0; i < BENCH_CLAIMS; i++)
        assert_false(has_us_figure(c[i].evidence));
}

/* Claim 1 reads the queue in PSRAM where the run has one (an ESP-IDF board),
 * before the host's analog, the flushed queue; a row an emulator's clock
 * measured decides nothing (no caches, no PSRAM timing there). */
static void test_placement_prefers_psram_and_refuses_emulators(void **state)
{
    (void)state;
    static audit_case_t a;
    const char *e = BENCH_EXP_QUEUE_PLACEMENT, *q = BENCH_MECH_RTIPC_QUEUE, *lat = BENCH_METRIC_LATENCY;
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    add_dist(&a, e, q, BENCH_VARIANT_PSRAM, lat, "ns", 4100, 8000);
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[0].verdict, CLAIM_HOLDS);
    assert_string_equal(a.run.claims[0].evidence, "rtipc-queue p50 warm 2.000 us, psram 4.100 us (x2.05); p99-p50 "
                                                  "spread warm 1.000 us, psram 3.900 us (x3.90)");

    /* PSRAM barely slower: the flushed rows, which would hold, are not read. */
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    add_dist(&a, e, q, BENCH_VARIANT_PSRAM, lat, "ns", 2100, 3100);
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[0].verdict, CLAIM_DOES_NOT_HOLD);
    assert_non_null(strstr(a.run.claims[0].evidence, "psram 2.100 us (x1.05)"));

    /* The same figures on an emulator's clock: not testable, saying why. */
    const char *clocks[] = {"emulated-instructions", "emulated-wall-clock"};
    for (size_t i = 0; i < 2; i++) {
        build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
        add_dist(&a, e, q, BENCH_VARIANT_PSRAM, lat, "ns", 4100, 8000);
        a.rows[0].clock = clocks[i];  /* rtipc-queue warm */
        bench_audit_claims(&a.run);
        assert_int_equal(a.run.claims[0].verdict, CLAIM_NOT_TESTABLE);
        assert_non_null(strstr(a.run.claims[0].evidence, "rtipc-queue/warm was measured on an emulator's clock"));
        assert_non_null(strstr(a.run.claims[0].evidence, clocks[i]));
        assert_non_null(strstr(a.run.claims[0].evidence, "a verdict needs a board"));
    }
    /* A board's clock is no emulator's. */
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    a.rows[0].clock = "mcu-cycles";
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[0].verdict, CLAIM_HOLDS);
}

/* Claim 4: a subscribed producer blocked past the timeout is the control; a
 * run where even it did not trip had no working watchdog, and decides
 * nothing. */
static void test_watchdog_claim_needs_a_working_watchdog(void **state)
{
    (void)state;
    static audit_case_t a;
    const char *e = BENCH_EXP_BLOCKED_PRODUCER, *q = BENCH_MECH_RTIPC_QUEUE, *m = BENCH_METRIC_WATCHDOG_TRIPS;
    const struct {
        double subscribed, unsubscribed;
        bench_verdict_t want;
        const char *says;
    } cases[] = {
        {0, 0, CLAIM_NOT_TESTABLE, "the watchdog did not fire in this run"},
        {2, 0, CLAIM_DOES_NOT_HOLD, "the trip comes from the subscription going unreset"},
        {1, 1, CLAIM_HOLDS, "wait-forever unsubscribed 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
        add_value(&a, e, q, BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED, m, "count", cases[i].subscribed);
        add_value(&a, e, q, BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED, m, "count", cases[i].unsubscribed);
        add_value(&a, e, q, BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED, m, "count", 0);
        bench_audit_claims(&a.run);
        assert_int_equal(a.run.claims[3].verdict, cases[i].want);
        assert_non_null(strstr(a.run.claims[3].evidence, cases[i].says));
    }
}

/* Two rows of one ratio in different units: not testable, whatever the
 * figures. */
static void test_mixed_units_are_not_testable(void **state)
{
    (void)state;
    static audit_case_t a;
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    for (size_t i = 0; i < a.run.n_results; i++)
        if (!strcmp(a.rows[i].variant, BENCH_VARIANT_1X100B) || !strcmp(a.rows[i].mechanism, BENCH_MECH_RTIPC_NOTIFY))
            a.rows[i].unit = "instr";
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[6].verdict, CLAIM_NOT_TESTABLE);
    assert_non_null(strstr(a.run.claims[6].evidence, "different units (ns, instr)"));
    /* rtipc-notify's core-placement rows agree with each other: claim 6 stands. */
    assert_int_equal(a.run.claims[5].verdict, CLAIM_HOLDS);
    assert_int_equal(a.run.claims[8].verdict, CLAIM_NOT_TESTABLE);
    assert_non_null(strstr(a.run.claims[8].evidence, "different units (ns, instr)"));
}

/* Claim 9 on one core: a cross-core claim is not testable from same-core
 * rows, and says why; a run with cross-core rows ignores same-core ones. */
static void test_notify_claim_on_one_core(void **state)
{
    (void)state;
    static audit_case_t a;
    build_run(&a, "instr", BENCH_VARIANT_SAME_CORE);
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[8].verdict, CLAIM_NOT_TESTABLE);
    assert_string_equal(a.run.claims[8].evidence,
                        "one core in this run: the claim is about cross-core give->take, and experiment "
                        "notify-vs-sem has only same-core rows");

    /* Cross-core rows too (figures apart from the same-core ones): they decide. */
    build_run(&a, "ns", BENCH_VARIANT_SAME_CORE);
    const char *nvs = BENCH_EXP_NOTIFY_VS_SEM, *cross = BENCH_VARIANT_CROSS_CORE, *lat = BENCH_METRIC_LATENCY;
    add_dist(&a, nvs, BENCH_MECH_RTIPC_SEM, cross, lat, "ns", 15000, 20000);
    add_dist(&a, nvs, BENCH_MECH_RTIPC_NOTIFY, cross, lat, "ns", 7500, 9000);
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[8].verdict, CLAIM_DOES_NOT_HOLD);
    assert_string_equal(a.run.claims[8].evidence,
                        "cross-core give->take p50: rtipc-sem 15.00 us, rtipc-notify 7.50 us: "
                        "semaphore/notification x2.00 (notification 50% faster)");

    /* One cross-core row only (the other failed): not testable, as before. */
    build_run(&a, "ns", BENCH_VARIANT_SAME_CORE);
    add_dist(&a, nvs, BENCH_MECH_RTIPC_SEM, cross, lat, "ns", 15000, 20000);
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[8].verdict, CLAIM_NOT_TESTABLE);
}

/* No verdict rests on a figure that is not there: a NaN value, median or
 * interval, or a ratio over a median of 0, makes the claim not testable, and
 * the evidence holds no "nan" or "inf". */
static bool has_nan_or_inf(const char *text)
{
    for (const char *p = text; *p; p++)
        if ((!strncmp(p, "nan", 3) || !strncmp(p, "inf", 3)) && (p == text || !(p[-1] >= 'a' && p[-1] <= 'z')))
            return true;
    return false;
}

static void test_missing_figures_are_not_testable(void **state)
{
    (void)state;
    static audit_case_t a;
    struct {
        size_t row;   /* index in build_run's rows */
        int field;    /* 0 value, 1 p50, 2 p50_lo, 3 p50 := 0 in both rows row and row + 1 */
        int claim;    /* 0-based */
    } cases[] = {
        {3, 0, 1},    /* isr-handoff no-yield/depth=1 throughput null */
        {2, 1, 1},    /* its latency median null */
        {21, 2, 6},   /* batching 100x1B without an interval */
        {21, 3, 6},   /* batching: both medians 0 (0/0) */
        {0, 3, 0},    /* queue-placement: both medians 0 */
        {25, 3, 8},   /* notify-vs-sem: both medians 0 */
        {12, 1, 4},   /* state-vs-event queue staleness median null */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
        bench_result_t *r = &a.rows[cases[i].row];
        switch (cases[i].field) {
        case 0: r->value = NAN; break;
        case 1: r->stats.p50 = NAN; break;
        case 2: r->stats.p50_lo = r->stats.p50_hi = NAN; break;
        default:
            for (int k = 0; k < 2; k++) {
                r[k].stats.p50 = r[k].stats.p50_lo = r[k].stats.p50_hi = 0;
                r[k].stats.min = 0;
            }
        }
        bench_audit_claims(&a.run);
        const bench_claim_t *c = &a.run.claims[cases[i].claim];
        if (c->verdict != CLAIM_NOT_TESTABLE || has_nan_or_inf(c->evidence))
            fail_msg("case %zu: claim %d has verdict %d: %s", i, c->id, (int)c->verdict, c->evidence);
    }
    /* An optional figure that is missing is shown as such; the verdict stands. */
    build_run(&a, "ns", BENCH_VARIANT_CROSS_CORE);
    a.rows[5].value = NAN;  /* yield/depth=1 throughput */
    bench_audit_claims(&a.run);
    assert_int_equal(a.run.claims[1].verdict, CLAIM_HOLDS);
    assert_non_null(strstr(a.run.claims[1].evidence, "with yield depth 1: missing"));
}

/* ---- the performance targets (perf_targets.c) ---- */

static const bench_experiment_t peers = {.id = BENCH_EXP_PEERS};

/* A distribution row whose every sample is ns (so its p50 is ns). */
static void add_flat(bench_run_t *run, const char *mech, const char *var, const char *metric, int64_t ns)
{
    bench_samples_t s = {0};
    assert_int_equal(bench_samples_init(&s, 20), 0);
    for (int i = 0; i < 20; i++)
        bench_samples_push(&s, ns);
    assert_non_null(bench_add_dist(run, mech, var, metric, &s));
    bench_samples_free(&s);
}

static const bench_result_t *target_row(const bench_run_t *run, const char *mech, const char *variant)
{
    return bench_find(run, BENCH_EXP_PEERS, mech, variant, BENCH_METRIC_TARGET_RATIO);
}

/* peers' rows as a run with these figures would give, then its audit;
 * with_new_peers adds the rows of the peers added later (atomic_queue,
 * moodycamel's queues) and of the targets they brought. */
static void peers_run_with(bench_run_t *run, bool with_futex, bool with_new_peers)
{
    const char *sleep = BENCH_VARIANT_GAP_50_100US, *active = BENCH_VARIANT_GAP_1_3US;
    const char *call = BENCH_VARIANT_SAME_THREAD;
    run->current = &peers;
    if (with_futex)
        add_flat(run, BENCH_MECH_FUTEX, sleep, BENCH_METRIC_HANDOFF_SLEEPING, 10000);
    add_flat(run, BENCH_MECH_RTIPC_QUEUE, sleep, BENCH_METRIC_HANDOFF_SLEEPING, 10500);
    add_flat(run, BENCH_MECH_RTIPC_SEM, sleep, BENCH_METRIC_HANDOFF_SLEEPING, 12000);
    add_flat(run, BENCH_MECH_RTIPC_NOTIFY, sleep, BENCH_METRIC_HANDOFF_SLEEPING, 9000);
    add_flat(run, BENCH_MECH_SPIN, active, BENCH_METRIC_HANDOFF_ACTIVE, 100);
    add_flat(run, BENCH_MECH_RTIPC_NOTIFY, active, BENCH_METRIC_HANDOFF_ACTIVE, 250);
    add_flat(run, BENCH_MECH_RTIPC_SPSC, active, BENCH_METRIC_HANDOFF_ACTIVE, 180);
    bench_add_value(run, BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_BULK_64, BENCH_METRIC_THROUGHPUT, "items/s", 3e8);
    bench_add_value(run, BENCH_MECH_BOOST_SPSC, BENCH_VARIANT_BULK_64, BENCH_METRIC_THROUGHPUT, "items/s", 2e8);
    bench_add_value(run, BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT, "items/s", 2e7);
    bench_add_value(run, BENCH_MECH_BOOST_SPSC, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT, "items/s", 1e8);
    add_flat(run, BENCH_MECH_RTIPC_QUEUE, call, BENCH_METRIC_CALL_COST, 36);
    add_flat(run, BENCH_MECH_MUTEX_CONDVAR, call, BENCH_METRIC_CALL_COST, 30);
    add_flat(run, BENCH_MECH_RTIPC_NOTIFY, call, BENCH_METRIC_CALL_COST, 20);
    bench_add_value(run, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_CONTROL_BLOCK, BENCH_METRIC_BYTES, "B", 48);
    if (with_new_peers) {
        const char *item = BENCH_VARIANT_PER_ITEM;
        add_flat(run, BENCH_MECH_RTIPC_SPSC, sleep, BENCH_METRIC_HANDOFF_SLEEPING, 10900);
        add_flat(run, BENCH_MECH_RTIPC_MAILBOX, active, BENCH_METRIC_HANDOFF_ACTIVE, 190);
        add_flat(run, BENCH_MECH_RTIPC_QUEUE, active, BENCH_METRIC_HANDOFF_ACTIVE, 210);
        add_flat(run, BENCH_MECH_RTIPC_SEM, active, BENCH_METRIC_HANDOFF_ACTIVE, 300);
        add_flat(run, BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, active, BENCH_METRIC_HANDOFF_ACTIVE, 200);
        /* The best SPSC peer is atomic-queue-spsc, not boost-spsc. */
        bench_add_value(run, BENCH_MECH_CK_RING, item, BENCH_METRIC_THROUGHPUT, "items/s", 9e7);
        bench_add_value(run, BENCH_MECH_ATOMIC_QUEUE_SPSC, item, BENCH_METRIC_THROUGHPUT, "items/s", 1.6e8);
        bench_add_value(run, BENCH_MECH_MOODYCAMEL_RWQ, item, BENCH_METRIC_THROUGHPUT, "items/s", 1.2e8);
        bench_add_value(run, BENCH_MECH_RTIPC_QUEUE, item, BENCH_METRIC_THROUGHPUT, "items/s", 1.5e7);
        bench_add_value(run, BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, item, BENCH_METRIC_THROUGHPUT, "items/s", 1e7);
        bench_add_value(run, BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, item, BENCH_METRIC_THROUGHPUT, "items/s", 1.6e7);
        add_flat(run, BENCH_MECH_CAS_FLOOR, call, BENCH_METRIC_CALL_COST, 24);
    }
    bench_audit_perf_targets(run);
    run->current = NULL;
}

static void peers_run(bench_run_t *run, bool with_futex) { peers_run_with(run, with_futex, false); }

static void test_perf_targets_from_the_rows(void **state)
{
    (void)state;
    static bench_run_t run;
    memset(&run, 0, sizeof run);
    peers_run(&run, true);
    size_t rows = 0;
    for (size_t i = 0; i < run.n_results; i++)
        rows += !strcmp(run.results[i]->metric, BENCH_METRIC_TARGET_RATIO);
    assert_int_equal(rows, 11);  /* the targets of the newer peers lack their figures */
    const bench_result_t *r = target_row(&run, BENCH_MECH_RTIPC_QUEUE, "handoff-sleeping-p50/futex");
    assert_non_null(r);
    assert_string_equal(r->unit, "x");
    assert_true(fabs(r->value - 1.05) < 1e-9);
    assert_non_null(strstr(r->note, "<= 1.10: 10.50 / 10.00 us = 1.050: holds"));
    r = target_row(&run, BENCH_MECH_RTIPC_SEM, "handoff-sleeping-p50/futex");
    assert_non_null(strstr(r->note, "MISSED"));
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-bulk=64/boost-spsc");
    assert_true(fabs(r->value - 1.5) < 1e-9);
    assert_non_null(strstr(r->note, ">= 1.20: 300.0 / 200.0 M/s = 1.500: holds"));
    /* No cas-floor row in this run: the queue's call cost is not testable. */
    assert_null(target_row(&run, BENCH_MECH_RTIPC_QUEUE, "call-cost-p50/cas-floor"));
    assert_non_null(strstr(run.notes, "  rtipc-queue  call-cost p50 / cas-floor          not testable"));
    r = target_row(&run, BENCH_MECH_RTIPC_NOTIFY, "call-cost-p50/25ns");
    assert_true(fabs(r->value - 0.8) < 1e-9);
    r = target_row(&run, BENCH_MECH_RTIPC_QUEUE, "control-block/64B");
    assert_non_null(r);
    assert_true(fabs(r->value - 0.75) < 1e-9);  /* the recorded 48 B, not this build's size */
    assert_non_null(target_row(&run, BENCH_MECH_RTIPC_NOTIFY, "slot/8B"));
    /* The table, as notes under the experiment's tables. */
    assert_non_null(strstr(run.notes, "targets (ratio of this run's figures; subject, target, figures, ratio, "
                                      "verdict):\n"));
    assert_non_null(strstr(run.notes, "  rtipc-spsc   handoff-active p50 / spin          <= 2.00 | 0.180 / 0.100 "
                                      "us       =  1.800 | holds\n"));
    /* The best-of target with only boost-spsc among its peers: boost's figure. */
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-per-item/best-spsc-peer");
    assert_non_null(r);
    assert_true(fabs(r->value - 0.2) < 1e-9);
    assert_non_null(strstr(r->note, "target throughput per-item / best SPSC peer >= 1.20: 20.0 / 100.0 M/s = 0.200: "
                                    "MISSED (best peer: boost-spsc)"));
    /* Targets whose figures this run lacks: notes, no rows. */
    assert_null(target_row(&run, BENCH_MECH_RTIPC_QUEUE, "throughput-per-item/moodycamel-blocking-cq"));
    assert_null(target_row(&run, BENCH_MECH_RTIPC_SPSC, "handoff-active-p50/moodycamel-blocking-rwq"));
    assert_non_null(strstr(run.notes, "  rtipc-mailbox handoff-active p50 / spin          not testable"));
    free_rows(&run);

    /* Without futex's row the three sleeping targets are not testable:
     * a note each, no row. */
    memset(&run, 0, sizeof run);
    peers_run(&run, false);
    assert_null(target_row(&run, BENCH_MECH_RTIPC_QUEUE, "handoff-sleeping-p50/futex"));
    assert_non_null(strstr(run.notes, "  rtipc-queue  handoff-sleeping p50 / futex       not testable (a figure "
                                      "is missing)"));
    assert_non_null(target_row(&run, BENCH_MECH_RTIPC_NOTIFY, "handoff-active-p50/spin"));
    free_rows(&run);

    /* With every peer's rows: a row per target, the best SPSC peer the
     * largest of those present. */
    memset(&run, 0, sizeof run);
    peers_run_with(&run, true, true);
    rows = 0;
    for (size_t i = 0; i < run.n_results; i++)
        rows += !strcmp(run.results[i]->metric, BENCH_METRIC_TARGET_RATIO);
    assert_int_equal(rows, 20);
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-per-item/best-spsc-peer");
    assert_true(fabs(r->value - 0.125) < 1e-9);
    assert_non_null(strstr(r->note, "20.0 / 160.0 M/s = 0.125: MISSED (best peer: atomic-queue-spsc)"));
    /* The call-cost targets say their floor: cas-floor's row over the same
     * denominator. */
    r = target_row(&run, BENCH_MECH_RTIPC_QUEUE, "call-cost-p50/cas-floor");
    assert_non_null(strstr(r->note, "<= 1.15: 36 / 24 ns = 1.500: MISSED"));
    assert_null(strstr(r->note, "floor cas-floor"));
    /* The SPSC ring against the blocking SPSC peer and against ck_ring. */
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-per-item/moodycamel-blocking-rwq");
    assert_non_null(strstr(r->note, ">= 1.20: 20.0 / 16.0 M/s = 1.250: holds"));
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-per-item/ck-ring");
    assert_non_null(strstr(r->note, ">= 0.90: 20.0 / 90.0 M/s = 0.222: MISSED"));
    /* The symmetric ring is not targeted. */
    assert_null(target_row(&run, BENCH_MECH_RTIPC_SPSC_SYM, "throughput-per-item/ck-ring"));
    r = target_row(&run, BENCH_MECH_RTIPC_NOTIFY, "call-cost-p50/25ns");
    assert_non_null(strstr(r->note, "20 / 25 ns = 0.800: holds (floor cas-floor: 24 / 25 ns = 0.960)"));
    assert_non_null(strstr(run.notes, "| MISSED (best peer: atomic-queue-spsc)\n"));
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "throughput-per-item/boost-spsc");  /* the older target stays */
    assert_true(fabs(r->value - 0.2) < 1e-9);
    r = target_row(&run, BENCH_MECH_RTIPC_QUEUE, "throughput-per-item/moodycamel-blocking-cq");
    assert_true(fabs(r->value - 1.5) < 1e-9);
    assert_non_null(strstr(r->note, ">= 1.00: 15.0 / 10.0 M/s = 1.500: holds"));
    assert_null(strstr(r->note, "best peer"));
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "handoff-active-p50/moodycamel-blocking-rwq");
    assert_true(fabs(r->value - 0.9) < 1e-9);
    assert_non_null(strstr(r->note, "<= 1.00: 0.180 / 0.200 us = 0.900: holds"));
    r = target_row(&run, BENCH_MECH_RTIPC_SPSC, "handoff-sleeping-p50/futex");
    assert_true(fabs(r->value - 1.09) < 1e-9);
    r = target_row(&run, BENCH_MECH_RTIPC_MAILBOX, "handoff-active-p50/spin");
    assert_true(fabs(r->value - 1.9) < 1e-9);
    r = target_row(&run, BENCH_MECH_RTIPC_QUEUE, "handoff-active-p50/spin");
    assert_true(fabs(r->value - 2.1) < 1e-9);
    assert_non_null(strstr(r->note, "MISSED"));
    r = target_row(&run, BENCH_MECH_RTIPC_SEM, "handoff-active-p50/spin");
    assert_true(fabs(r->value - 3.0) < 1e-9);
    free_rows(&run);

    /* An experiment without targets gets nothing. */
    memset(&run, 0, sizeof run);
    run.current = &isr_handoff;
    bench_audit_perf_targets(&run);
    assert_int_equal(run.n_results, 0);
    assert_string_equal(run.notes, "");
}

/* ---- what experiments record ---- */

static void test_missing_once_and_failure_context(void **state)
{
    (void)state;
    static bench_run_t run;
    memset(&run, 0, sizeof run);
    run.current = &peers;
    bench_add_missing(&run, BENCH_MECH_CK_RING, "not here");
    bench_add_missing(&run, BENCH_MECH_CK_RING, "not here either");
    bench_add_missing(&run, BENCH_MECH_BOOST_SPSC, "nor this");
    assert_int_equal(run.n_results, 2);
    assert_string_equal(run.results[0]->note, "not here");
    run.current = &isr_handoff;  /* another experiment records its own */
    bench_add_missing(&run, BENCH_MECH_CK_RING, "elsewhere");
    assert_int_equal(run.n_results, 3);

    assert_false(bench_failed(&run));
    bench_fail_prefix(&run, "%s: ", "nothing to prefix");
    assert_false(bench_failed(&run));
    assert_int_equal(bench_fail(&run, "sent %d, received %d", 10, 9), -1);
    bench_fail(&run, "a consequence");
    bench_fail_prefix(&run, "%s %s: ", BENCH_MECH_PIPE, BENCH_METRIC_THROUGHPUT);
    assert_true(bench_failed(&run));
    assert_string_equal(run.failure, "pipe throughput: sent 10, received 9");
    bench_free_rows(&run);
}

/* Notes beyond what a run keeps end in one marker line; none is cut
 * silently and none follows the marker. */
static void test_notes_that_do_not_fit_are_marked(void **state)
{
    (void)state;
    static bench_run_t run;
    memset(&run, 0, sizeof run);
    bench_note(&run, "first %d", 1);
    assert_string_equal(run.notes, "first 1\n");
    for (int i = 0; i < 400; i++)
        bench_note(&run, "a note of some length, number %d", i);
    size_t len = strlen(run.notes);
    assert_true(len < sizeof run.notes);
    const char *marker = "(more notes than this run keeps; each row's own note has them)\n";
    size_t mlen = strlen(marker);
    assert_true(len > mlen);
    assert_string_equal(run.notes + len - mlen, marker);
    assert_ptr_equal(strstr(run.notes, marker), run.notes + len - mlen); /* only once */
    bench_note(&run, "x");
    assert_int_equal(strlen(run.notes), len); /* nothing after the marker */
    /* Every line before it is whole. */
    assert_non_null(strstr(run.notes, "number 0\n"));
}

/* Memory figures in the unit that shows them: an MCU's heap in KiB (not
 * "0.0 MiB"), a host's resident set in MiB. */
static void test_memory_in_kib_below_a_mib(void **state)
{
    (void)state;
    static bench_env_t e;
    memset(&e, 0, sizeof e);
    e.memory = (bench_memory_t){.kind = BENCH_MEMORY_HEAP_FREE, .now_bytes = 44604, .extreme_bytes = 14500};
    char text[200] = "";
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    assert_non_null(f);
    bench_print_memory(f, &e);
    fclose(f);
    assert_non_null(strstr(text, "heap free 43.6 KiB, least ever free 14.2 KiB"));
    e.memory = (bench_memory_t){.kind = BENCH_MEMORY_RESIDENT, .now_bytes = 3 << 20, .extreme_bytes = 5 << 20};
    memset(text, 0, sizeof text);
    f = fmemopen(text, sizeof text - 1, "w");
    assert_non_null(f);
    bench_print_memory(f, &e);
    fclose(f);
    assert_non_null(strstr(text, "resident 3.0 MiB, peak 5.0 MiB"));
}

/* The rows' string pool: one copy per distinct string, the same pointer for
 * equal strings across growth, NULL read as "", and tens of thousands of
 * names found again without a linear search. */
static void test_string_pool(void **state)
{
    (void)state;
    static bench_strpool_t pool;
    memset(&pool, 0, sizeof pool);
    static const char *kept[20000];
    char name[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "mechanism-%d", i);
        kept[i] = bench_strpool_get(&pool, name);
        assert_non_null(kept[i]);
        assert_string_equal(kept[i], name);
    }
    assert_int_equal(pool.n, 20000);
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "mechanism-%d", i);
        assert_ptr_equal(bench_strpool_get(&pool, name), kept[i]);
    }
    assert_int_equal(pool.n, 20000);
    const char *empty = bench_strpool_get(&pool, NULL);
    assert_non_null(empty);
    assert_string_equal(empty, "");
    assert_ptr_equal(bench_strpool_get(&pool, ""), empty);
    bench_strpool_free(&pool);
    assert_int_equal(pool.n, 0);
    assert_null(pool.strings);
}

/* ESP-IDF built from a tree without git or version.txt reports
 * "HEAD-HASH-NOTFOUND"; env.kernel then says the release numbers. */
static void test_idf_version_falls_back_to_the_release_numbers(void **state)
{
    (void)state;
    char v[32];
    assert_string_equal(bench_env_idf_version(v, sizeof v, "v5.1.6", 5, 1, 6), "v5.1.6");
    assert_string_equal(bench_env_idf_version(v, sizeof v, "v5.1.6-dirty", 5, 1, 6), "v5.1.6-dirty");
    assert_string_equal(bench_env_idf_version(v, sizeof v, "HEAD-HASH-NOTFOUND", 5, 1, 6), "v5.1.6");
    assert_string_equal(bench_env_idf_version(v, sizeof v, "", 5, 2, 0), "v5.2.0");
    assert_string_equal(bench_env_idf_version(v, sizeof v, NULL, 5, 1, 4), "v5.1.4");
    assert_string_equal(bench_env_idf_version(v, sizeof v, "v", 5, 1, 6), "v5.1.6");
    assert_string_equal(bench_env_idf_version(v, sizeof v, "verbose", 5, 1, 6), "v5.1.6");
    assert_string_equal(bench_env_idf_version(v, 4, "v5.1.6", 5, 1, 6), "v5.");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idf_version_falls_back_to_the_release_numbers),
        cmocka_unit_test(test_notes_that_do_not_fit_are_marked),
        cmocka_unit_test(test_core_variant_follows_the_cpus),
        cmocka_unit_test(test_sleeps_reach_their_deadline),
        cmocka_unit_test(test_linux_target),
        cmocka_unit_test(test_tick_cap_needs_interrupts_faster_than_the_tick),
        cmocka_unit_test(test_evidence_in_us_for_ns_rows),
        cmocka_unit_test(test_evidence_in_instructions_for_instr_rows),
        cmocka_unit_test(test_placement_prefers_psram_and_refuses_emulators),
        cmocka_unit_test(test_watchdog_claim_needs_a_working_watchdog),
        cmocka_unit_test(test_mixed_units_are_not_testable),
        cmocka_unit_test(test_notify_claim_on_one_core),
        cmocka_unit_test(test_missing_figures_are_not_testable),
        cmocka_unit_test(test_perf_targets_from_the_rows),
        cmocka_unit_test(test_missing_once_and_failure_context),
        cmocka_unit_test(test_memory_in_kib_below_a_mib),
        cmocka_unit_test(test_string_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
